"""Win probability read from the league's recorded deals: the samples, the table kept per data
version (queries pinned), a game's chances deal by deal, and the API."""

from __future__ import annotations

import pytest

from league.models import Deal, Game
from league.selectors import winprob
from tests.factories import play


@pytest.fixture
def from_deals(settings):
    settings.PEGBOARD_WINPROB_FROM_DEALS = True
    winprob.forget_tables()
    yield
    winprob.forget_tables()


@pytest.fixture
def finished(game, ann):
    return play(game, ann)


def test_each_deal_is_one_sample_with_what_was_counted(finished):
    samples = list(winprob.recorded_deals("partnership-121", 121))
    deals = list(Deal.objects.filter(game=finished, is_current=True).order_by("number"))
    assert len(samples) == len(deals) == finished.deal_count

    def sample_of(deal):
        """What a deal should give, found among the samples (read in no particular order)."""
        side = deal.dealer % 2
        found = [
            s
            for s in samples
            if (s.dealer_pegging, s.pone_pegging) == (deal.pegging[side], deal.pegging[1 - side])
            and s.crib == deal.crib
            and sorted(s.dealer_hands)
            == sorted(p for seat, p in deal.shows.items() if int(seat) % 2 == side)
            and sorted(s.pone_hands)
            == sorted(p for seat, p in deal.shows.items() if int(seat) % 2 != side)
        ]
        assert found, f"deal {deal.number} is no sample"
        return found[0]

    sample_of(deals[0])
    # the last deal: counted up to where the game ended, never a crib after it
    last = deals[-1]
    counted = sample_of(last)
    assert len(counted.dealer_hands + counted.pone_hands) == len(last.shows)


def test_another_games_deals_are_not_samples(finished):
    assert list(winprob.recorded_deals("singles-121", 121)) == []
    assert list(winprob.recorded_deals("partnership-121", 61)) == []


def test_the_table_is_built_once_per_data_version(finished, from_deals, django_assert_num_queries):
    with django_assert_num_queries(2):  # how many games are over; the deals
        table = winprob.win_table("partnership-121", 121)
    assert table.distributions.samples > 0
    with django_assert_num_queries(0):
        assert winprob.win_table("partnership-121", 121) is table


def test_a_position_is_read_without_a_query_once_built(
    finished, from_deals, django_assert_num_queries
):
    winprob.win_table("partnership-121", 121)
    game = Game.objects.select_related("match").get(pk=finished.pk)  # as every page reads it
    with django_assert_num_queries(0):
        chance = winprob.game_chance(game, variant="partnership-121", target=121)
    assert chance is not None


def test_a_finished_game_ends_its_swing_with_the_winner_at_certainty(finished):
    deals = list(Deal.objects.filter(game=finished, is_current=True).order_by("number"))
    swing = winprob.game_swing(finished, deals, variant="partnership-121", target=121)
    assert [c.deal for c in swing] == list(range(0, len(deals) + 1))
    home_won = finished.winner_id == finished.match.home_id
    assert swing[-1].home == (1.0 if home_won else 0.0)
    # Ann (home, seat 0) deals first: the first dealer is the favourite at 0-0
    assert swing[0].home > 0.5
    assert all(0.0 <= c.home <= 1.0 for c in swing)


def test_the_api_gives_the_chance_now_and_after_each_deal(client, game, ann):
    half = play(game, ann, deals=3)
    body = client.get(f"/api/games/{half.pk}/odds/").json()
    assert body["informational"] is True
    assert [d["deal"] for d in body["deals"]] == [0, 1, 2, 3]
    last = body["deals"][-1]
    assert (last["home_score"], last["away_score"]) == (half.home_score, half.away_score)
    assert body["current"] == last
    assert last["home"] + last["away"] == pytest.approx(1.0)


def test_a_three_player_game_has_no_chance():
    assert not winprob.modelled("three-player-121")
    assert winprob.modelled("partnership-121")
