"""Seeding, bracket and dispute endpoints."""

from __future__ import annotations

import pytest

from league.models import Dispute
from tests.factories import play_until_over


def test_seeding_endpoint_orders_every_team_and_says_what_placed_them(api, played_season):
    body = api.get(f"/api/seasons/{played_season.pk}/seeding/").json()
    assert body["seeding"][0] == "Fifteen Two"
    assert len(body["seeding"]) == len(body["decided_by"]) == 3


def test_bracket_endpoint_is_empty_until_drawn_then_shows_byes(
    api,
    played_season,
    league_admin,
):
    from league.services.playoffs import playoffs_create

    assert api.get(f"/api/seasons/{played_season.pk}/bracket/").json()["rounds"] == []
    played_season.playoff_teams = 3
    played_season.save()
    playoffs_create(season=played_season, user=league_admin)
    body = api.get(f"/api/seasons/{played_season.pk}/bracket/").json()
    assert body["size"] == 4 and body["rounds"][0]["slots"][0]["bye"] is True


@pytest.mark.parametrize("endpoint", ["standings", "seeding", "bracket"])
def test_standings_endpoints_query_counts_do_not_grow(
    api,
    played_season,
    endpoint,
    django_assert_max_num_queries,
):
    with django_assert_max_num_queries(6):
        assert api.get(f"/api/seasons/{played_season.pk}/{endpoint}/").status_code == 200


def test_a_player_raises_a_dispute_and_the_other_team_sees_it(game, ann, cat, eve, client_for):
    play_until_over(game, ann)
    answer = client_for(cat).post(
        f"/api/games/{game.pk}/reject/",
        {"claim": "Deal 2 pegging was 1", "deal_number": 2},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert Dispute.objects.count() == 1
    seen = client_for(ann).get(f"/api/games/{game.pk}/disputes/").json()
    assert [d["claim"] for d in seen] == ["Deal 2 pegging was 1"]
    assert client_for(eve).get("/api/disputes/").json()["results"] == []


def test_a_dispute_needs_a_claim_and_outsiders_cannot_raise_one(game, eve, cat, client_for):
    bad = client_for(cat).post(f"/api/games/{game.pk}/disputes/", {"claim": 5}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "claim"
    outsider = client_for(eve).post(
        f"/api/games/{game.pk}/disputes/", {"claim": "no"}, format="json"
    )
    assert outsider.status_code == 403
    assert Dispute.objects.count() == 0
