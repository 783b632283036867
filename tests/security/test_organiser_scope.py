"""Security review: the organiser's players page listed every league's players (names, logins,
invitations). It lists the season's league's players and those on no team yet, and inviting
reaches no other league's player."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from league.models import Player
from tests import factories


@pytest.fixture
def other_league_player(db):
    zed = factories.PlayerFactory(name="Zed Otherleague")
    zed.user.email = "zed@example.org"
    zed.user.set_unusable_password()  # not signed in yet: an invitation would go
    zed.user.save()
    factories.TeamFactory(season=factories.SeasonFactory(), captain=zed, players=[zed])
    return zed


@pytest.mark.django_db
def test_the_players_page_lists_only_this_leagues_players(
    season, home_team, away_team, league_admin, other_league_player
):
    newcomer = Player.objects.create(name="Nell Newcomer")
    client = Client()
    client.force_login(league_admin)
    page = client.get(f"/organise/seasons/{season.pk}/players/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ann" in text and newcomer.name in text
    assert other_league_player.name not in text
    teams = client.get(f"/organise/seasons/{season.pk}/teams/").content.decode()
    assert other_league_player.name not in teams


@pytest.mark.django_db
def test_inviting_reaches_no_other_leagues_player(
    season, home_team, league_admin, other_league_player, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(league_admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/organise/seasons/{season.pk}/players/",
            {"action": "invite", "player": [str(other_league_player.pk)]},
        )
    assert [m for m in mail.outbox if "zed@example.org" in m.to] == []
