"""Subs through the API and the admin, and the stats that name the sub: the same services as
the pages (``league.services.subs``, ``game_start``), the same refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel.permissions import LEAGUE_ADMINS
from league.models import AuditEntry, GameSeat, SeasonSub
from league.selectors.stats import player_stats, team_stats
from league.selectors.subs import subs_of
from league.services.games import game_confirm, game_start
from league.services.people import PlayerLine
from league.services.subs import subs_add
from tests.factories import play_until_over


@pytest.fixture
def gus(season, league_admin):
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus")])
    return subs_of(season)[0]


def _api(user=None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_a_league_admin_adds_and_removes_subs_through_the_api(season, league_admin, home_team):
    api = _api(league_admin)
    url = f"/api/seasons/{season.pk}/subs/"
    answer = api.post(
        url, {"players": [{"name": "Gus", "email": "gus@example.org"}, {"name": "Hal"}]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 200, answer.content
    assert [row["name"] for row in answer.json()] == ["Gus", "Hal"]
    hal = SeasonSub.objects.get(player__name="Hal").player
    answer = api.post(f"{url}remove/", {"player": hal.pk}, format="json")
    assert [row["name"] for row in answer.json()] == ["Gus"]
    assert [row["name"] for row in _api().get(url).json()] == ["Gus"]


def test_the_api_refuses_a_player_of_a_team_as_a_sub_and_a_captain_keeping_the_list(
    season, league_admin, ann, home_team
):
    url = f"/api/seasons/{season.pk}/subs/"
    answer = _api(league_admin).post(url, {"players": [{"name": "Bob"}]}, format="json")
    assert answer.status_code == 400
    assert "Bob already play for a team this season" in answer.json()["detail"]
    answer = _api(ann).post(url, {"players": [{"name": "Gus"}]}, format="json")
    assert answer.status_code == 403
    assert subs_of(season) == []


def test_a_captain_starts_a_game_with_a_sub_through_the_api_and_the_seat_says_so(match, ann, gus):
    answer = _api(ann).post(
        f"/api/matches/{match.pk}/games/", {"seats": ["Ann", "Cat", "Gus", "Dan"]}, format="json"
    )
    assert answer.status_code == 201, answer.content
    seats = {row["player"]: (row["team"], row["sub"]) for row in answer.json()["seats"]}
    assert seats["Gus"] == ("Fifteen Two", True)
    assert seats["Ann"] == ("Fifteen Two", False)


def test_the_api_refuses_a_player_not_on_the_sub_list(match, ann, other_team):
    answer = _api(ann).post(
        f"/api/matches/{match.pk}/games/", {"seats": ["Ann", "Cat", "Eve", "Dan"]}, format="json"
    )
    assert answer.status_code == 400
    assert "Eve does not play for either team" in answer.json()["detail"]
    assert not match.games.exists()


def test_a_captain_asks_for_a_sub_through_the_api(match, ann, gus, other_team, eve):
    answer = _api(ann).post(f"/api/matches/{match.pk}/ask-sub/")
    assert (answer.status_code, answer.json()) == (200, {"asked": 1})
    refused = _api(eve).post(f"/api/matches/{match.pk}/ask-sub/")
    assert refused.status_code == 403


# --- The admin ----------------------------------------------------------------------------------


@pytest.fixture
def staff_admin(db):
    from tests import factories

    user = factories.UserFactory(username="lea", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    return user


def test_the_admin_adds_a_sub_through_the_service_and_refuses_a_team_player(
    client, season, staff_admin, home_team
):
    from tests import factories

    hal = factories.PlayerFactory(name="Hal")
    bob = home_team.players.get(name="Bob")
    client.force_login(staff_admin)
    url = reverse("admin:league_seasonsub_add")
    client.post(url, {"season": season.pk, "player": hal.pk})
    assert [p.name for p in subs_of(season)] == ["Hal"]
    assert AuditEntry.objects.filter(action="sub_add").count() == 1
    page = client.post(url, {"season": season.pk, "player": bob.pk})
    assert "Bob already play for a team this season" in page.content.decode()
    assert [p.name for p in subs_of(season)] == ["Hal"]
    row = SeasonSub.objects.get()
    client.post(reverse("admin:league_seasonsub_delete", args=[row.pk]), {"post": "yes"})
    assert subs_of(season) == []
    assert AuditEntry.objects.filter(action="sub_remove").count() == 1


# --- Stats name the sub -------------------------------------------------------------------------


def test_the_subs_hands_are_theirs_and_the_teams_record_stays_the_teams(
    match, ann, cat, gus, home_team
):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    assert GameSeat.objects.get(game=game, player=gus).is_sub
    mine = player_stats(gus)
    assert mine["stats"].games == 1
    assert mine["stats"].shows > 0
    assert {hand["player"] for hand in mine["stats"].hands} == {"Gus"}
    team = team_stats(home_team)["stats"]
    assert team.games == 1
    assert "Gus" in {hand["player"] for hand in team.hands}  # the team's hands name who held them
    bob = home_team.players.get(name="Bob")
    assert player_stats(bob)["stats"].games == 0  # Bob was away


def test_the_subs_player_page_shows_the_game(client, match, ann, cat, gus):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    page = client.get(reverse("league:player", args=[gus.pk])).content.decode()
    assert "Gus" in page
    assert reverse("league:game", args=[game.pk]) in page
