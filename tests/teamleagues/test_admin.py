"""The admin's team league actions call the services: an organiser closes a season (next season
named after it) and settles a leg the captains disagree on; a stranger sees none of it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teamleagues import services
from teamleagues.models import Leg, TeamSeason
from tests.teamleagues.conftest import sheet, small_lineup, small_season

pytestmark = pytest.mark.django_db


def test_an_organiser_settles_a_leg_and_closes_the_season_in_the_admin(client, organiser):
    organiser.is_staff = True
    organiser.save()
    s = small_season(organiser)
    u1, u2 = s.teams["U1"], s.teams["U2"]
    for t in (u1, u2):
        services.boards_name(user=t.captain, fixture=s.left, names=small_lineup(t))
    services.leg_enter(
        user=u1.captain, fixture=s.left, board=1, leg=1, winner="home", loser_score=90
    )
    services.leg_enter(
        user=u2.captain, fixture=s.left, board=1, leg=1, winner="home", loser_score=80
    )
    leg = Leg.objects.get(state="disagree")
    client.force_login(organiser)
    client.post(
        reverse("admin:teamleagues_leg_changelist"),
        {"action": "settle_as_away", "_selected_action": [leg.pk]},
    )
    leg.refresh_from_db()
    assert (leg.state, leg.winner, leg.loser_score) == ("settled", "home", 80)
    # Closing before the last match is over is refused, with the service's sentence.
    response = client.post(
        reverse("admin:teamleagues_teamseason_changelist"),
        {"action": "close_and_move", "_selected_action": [s.season.pk]},
        follow=True,
    )
    assert "1 matches are still to finish" in response.content.decode()
    legs = sheet({1: ("home", "2-0"), 2: ("home", "2-0")})[1:]
    for t in (u1, u2):
        services.sheet_enter(user=t.captain, fixture=s.left, legs=legs)
    client.post(
        reverse("admin:teamleagues_teamseason_changelist"),
        {"action": "close_and_move", "_selected_action": [s.season.pk]},
    )
    assert TeamSeason.objects.get(pk=s.season.pk).state == "closed"
    assert TeamSeason.objects.get(previous=s.season).name == "2027"


def test_a_stranger_sees_no_team_league_in_the_admin(client, django_user_model, organiser):
    small_season(organiser)
    nosy = django_user_model.objects.create_user(
        username="nosy", password="x-y-z-123456", is_staff=True
    )
    client.force_login(nosy)
    assert client.get(reverse("admin:teamleagues_teamseason_changelist")).status_code == 403
