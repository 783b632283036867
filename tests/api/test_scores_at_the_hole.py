"""The API shows a finished game's winner at the game hole, as every page does: a game pegged
to 124 reads 121 in the game, the match's games and the game list."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Game, GameStatus
from tests.factories import confirmed_game


@pytest.fixture
def pegged_past(match, home_team):
    """Fifteen Two won game 1 by 43 (78 at the end), pegging out to 124."""
    game = confirmed_game(match, 1, home_team, 43)
    Game.objects.filter(pk=game.pk).update(home_score=124, away_score=78)
    return game


def test_every_api_game_list_caps_the_winner_at_121(pegged_past, ann):
    api = APIClient()
    api.force_authenticate(ann)
    game = api.get(f"/api/games/{pegged_past.pk}/").json()
    assert (game["home_score"], game["away_score"]) == (121, 78)
    listed = api.get("/api/games/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(g["home_score"], g["away_score"]) for g in rows] == [(121, 78)]
    assert Game.objects.get(pk=pegged_past.pk).status == GameStatus.CONFIRMED
