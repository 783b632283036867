"""Security review, L5: a judge's written ruling is read only through ``can(VIEW_PRECEDENTS)``.

A ruling that corrects deals leaves its words on the corrected deal (``reason``); the API
showed them to anyone. Now a visitor and the players see no reason; a judge or league admin
does, and so does everyone when the season publishes its rulings."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Season
from league.services.disputes import dispute_raise, dispute_rule
from league.services.games import game_confirm
from tests.factories import losers_pegging_struck_out, play_until_over

RULING = "Pegged 0, not 2: the Nobs captain miscounted her go"


@pytest.fixture
def ruled_game(game, ann, cat, judge):
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    number, data = losers_pegging_struck_out(game)
    review = dispute_raise(game=game, user=judge, claim="The loser pegged 0, not 2")
    dispute_rule(
        dispute=review, judge=judge, ruling=RULING, rule_reference="P-2", corrections={number: data}
    )
    return game


def reasons(client: APIClient, game) -> list[str]:
    listed = client.get(f"/api/deals/?game={game.pk}&limit=200")
    assert listed.status_code == 200
    detail = client.get(f"/api/games/{game.pk}/")
    assert detail.status_code == 200
    history = client.get(f"/api/deals/?game={game.pk}&history=1&limit=200")
    return [
        row["reason"]
        for rows in (listed.json()["results"], detail.json()["deals"], history.json()["results"])
        for row in rows
        if row["reason"]
    ]


@pytest.mark.django_db
def test_a_visitor_and_the_players_never_read_the_ruling(ruled_game, ann, cat):
    assert reasons(APIClient(), ruled_game) == []
    for player in (ann, cat):
        client = APIClient()
        client.force_authenticate(player)
        assert reasons(client, ruled_game) == []


@pytest.mark.django_db
def test_a_judge_reads_the_ruling(ruled_game, judge):
    client = APIClient()
    client.force_authenticate(judge)
    assert RULING in " ".join(reasons(client, ruled_game))


@pytest.mark.django_db
def test_a_season_that_publishes_its_rulings_shows_them_to_everyone(ruled_game):
    Season.objects.update(publish_rulings=True)
    assert RULING in " ".join(reasons(APIClient(), ruled_game))
