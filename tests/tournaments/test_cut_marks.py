"""The cut on the standings page, the TV and the API: no one is in or out before every entrant
has a result, and the entrants around the cut say which tie-break placed them."""

from __future__ import annotations

from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.conftest import play_round
from tournaments import services


def test_before_a_single_game_no_one_qualifies_or_is_first_out(client, night, director, field):
    services.round_seat_next(user=director, tournament=night)
    html = client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    assert "data-qualifier" not in html and "data-first-out" not in html
    assert "placed by" not in html
    assert "No one is marked in or out until every entrant has a result." in html
    cut = APIClient().get(f"/api/tournaments/{night.pk}/cut/").json()
    assert cut == {"settled": False, "qualifiers": [], "first_out": None, "placed_by": []}


def test_half_a_round_in_still_marks_no_one(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    for side in (game.first, game.second):
        services.scorecard_enter(
            user=side.players.get().user, game=game, winner=game.first, loser_score=90
        )
    html = client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    assert "data-qualifier" not in html


def test_once_everyone_has_a_result_the_cut_names_its_tie_breaks(client, night, director, field):
    # Round 1: each table's first entrant wins by 21; the bye has 2 points and no spread.
    rnd = play_round(night, director, winner_first=True, score=100)
    winners = sorted(g.first.name for g in rnd.games.all())
    bye = rnd.byes.get().entrant.name
    cut = APIClient().get(f"/api/tournaments/{night.pk}/cut/").json()
    assert cut["settled"] is True and len(cut["qualifiers"]) == 2  # ceil(7 / 4)
    placed = {row["entrant"]: row["placed_by"] for row in cut["placed_by"]}
    # Three winners level on everything: the draw put two in and one out.
    assert sorted(cut["qualifiers"] + [cut["first_out"]]) == winners
    assert all(placed[name] == "draw" for name in winners)
    # The bye, on 2 game points too, is behind them on spread.
    assert placed[bye] == "spread"
    html = client.get(reverse("tournaments:tournament", args=[night.pk])).content.decode()
    assert html.count("data-qualifier") == 2 and html.count("data-first-out") == 1
    assert html.count("placed by the draw") == 3 and html.count("placed by spread") == 1


def test_the_cut_in_french(client, night, director, field):
    play_round(night, director, winner_first=True, score=100)
    html = client.get(
        reverse("tournaments:tournament", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "départagé par le tirage" in html


def test_the_tie_break_marks_are_the_metrics_own_words_in_the_readers_language():
    from django.utils import translation

    from league.ranking import TIEBREAKS
    from tournaments.cutline import _placed

    with translation.override("fr"):
        assert _placed("draw") == "départagé par le tirage"
        assert str(TIEBREAKS["spread"].abbr) == "ÉC"
    assert _placed("spread") == "placed by spread"
    assert _placed("weeks_won") == ""  # no mark: a tournament keeps no weeks
