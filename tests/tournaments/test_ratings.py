"""A club night's verified tables move the ratings (the tournaments' source, registered with
the league's kernel); a table entered by one side only does not."""

from __future__ import annotations

from league.models import Rating
from league.selectors.ratings import player_rating
from league.services.ratings import ratings_recompute
from tests.tournaments.conftest import user_of
from tournaments import services
from tournaments.models import TableState


def test_a_verified_table_rates_its_players_and_a_one_sided_card_does_not(
    night, field, director, django_capture_on_commit_callbacks
):
    rnd = services.round_seat_next(user=director, tournament=night)
    table = rnd.games.select_related("first", "second").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_enter(
            user=user_of(table.first), game=table, winner=table.first, loser_score=99
        )
    table.refresh_from_db()
    assert table.status != TableState.VERIFIED
    assert not Rating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_enter(
            user=user_of(table.second), game=table, winner=table.first, loser_score=99
        )
    table.refresh_from_db()
    assert table.status == TableState.VERIFIED
    winner, loser = table.first.players.get(), table.second.players.get()
    won, lost = player_rating(winner), player_rating(loser)
    assert won.games == lost.games == 1 and won.rating > 1000 > lost.rating
    assert Rating.objects.count() == 2  # singles: two players, no pair
    figures = {(r.player_id, r.partner_id): (r.mu, r.sigma) for r in Rating.objects.all()}
    assert ratings_recompute().results == 1
    assert {(r.player_id, r.partner_id): (r.mu, r.sigma) for r in Rating.objects.all()} == figures
