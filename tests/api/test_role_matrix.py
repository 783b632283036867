"""Every role against every API write of a match, over HTTP: a role that may not act is refused
(401 or 403) and nothing changes; a role that may is never refused for its role (the game's
state may still say no)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Deal, Dispute, Game
from tests import factories
from tests.factories import plain_deal, play_until_over

ROLES = ["visitor", "player", "captain", "other_player", "judge", "league_admin", "superuser"]
PLAYERS_AND_ADMINS = {"player", "captain", "league_admin", "superuser"}
MAY_WRITE = {
    "start a game": PLAYERS_AND_ADMINS,
    "record a deal": PLAYERS_AND_ADMINS,  # league admins enter paper sheets
    # the players, and judges and league admins opening a review of a game not their own
    "raise a dispute": {*PLAYERS_AND_ADMINS, "judge"},
}


@pytest.fixture
def people(match, home_team, other_team, judge, league_admin):
    return {
        "visitor": None,
        "player": home_team.players.get(name="Bob").user,
        "captain": home_team.captain.user,
        "other_player": other_team.captain.user,
        "judge": judge,
        "league_admin": league_admin,
        "superuser": factories.UserFactory(username="root", is_superuser=True, is_staff=True),
    }


def requests_for(match, game):
    return {
        "start a game": (
            f"/api/matches/{match.pk}/games/",
            {"seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": 0},
        ),
        "record a deal": (
            f"/api/games/{game.pk}/deals/",
            {"key": "matrix", "number": game.deal_count + 1, **plain_deal(0)},
        ),
        "raise a dispute": (f"/api/games/{game.pk}/disputes/", {"claim": "Deal 1 is wrong"}),
    }


def counts():
    return (Game.objects.count(), Deal.objects.count(), Dispute.objects.count())


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", ["start a game", "record a deal", "raise a dispute"])
def test_every_role_against_every_write(people, match, game, ann, role, write):
    play_until_over(game, ann)
    game.refresh_from_db()
    url, body = requests_for(match, game)[write]
    client = APIClient()
    if people[role] is not None:
        client.force_authenticate(people[role])
    before = counts()
    answer = client.post(url, body, format="json")
    if role in MAY_WRITE[write]:
        assert answer.status_code not in (401, 403), answer.content
    else:
        assert answer.status_code in (401, 403), answer.content
        assert counts() == before
