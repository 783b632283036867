"""The ratings' replay order: results at the same time give the same ratings whatever order
they come in, and a rating is provisional below the setting's number of games."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from contest.ratings import RatedResult, canonical_order, is_provisional, pair_of
from league.ratings import Book, replay

T0 = datetime(2026, 11, 5, 20, 0, tzinfo=UTC)


def history(seed: int) -> list[RatedResult]:
    """Forty results among eight players over five times: most times hold several results,
    some the same players again (a match's games closed together)."""
    rng = random.Random(seed)
    out = []
    for ref in range(1, 41):
        four = rng.sample(range(1, 9), 4)
        at = T0 + timedelta(hours=rng.randrange(5))
        source = rng.choice(["game", "table"])
        out.append(RatedResult(source, ref, at, winners=tuple(four[:2]), losers=tuple(four[2:])))
    singles = [RatedResult("table", 100 + i, T0, winners=(i,), losers=(i + 1,)) for i in (1, 3)]
    return out + singles


def figures(book: Book) -> tuple[dict, dict]:
    return (
        {pk: (s.mu, s.sigma, s.games) for pk, s in book.players.items()},
        {pair: (s.mu, s.sigma, s.games) for pair, s in book.pairs.items()},
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shuffling_equal_time_results_does_not_change_a_full_replay(seed):
    results = history(seed)
    assert len({r.at for r in results}) < len(results)  # ties to shuffle
    expected = figures(replay(results))
    rng = random.Random(seed * 100)
    for _ in range(5):
        shuffled = results[:]
        rng.shuffle(shuffled)
        assert figures(replay(shuffled)) == expected


def test_renumbered_identical_results_at_one_time_rate_the_same():
    """Rows written in another order get other ids: the replay does not follow the ids."""
    a = RatedResult("game", 1, T0, winners=(1, 2), losers=(3, 4))
    b = RatedResult("game", 2, T0, winners=(3, 4), losers=(1, 2))
    a2 = RatedResult("game", 2, T0, winners=(1, 2), losers=(3, 4))
    b2 = RatedResult("game", 1, T0, winners=(3, 4), losers=(1, 2))
    assert figures(replay([a, b])) == figures(replay([b2, a2]))


def test_time_comes_first_and_a_later_result_moves_the_ratings_after():
    early = RatedResult("game", 9, T0, winners=(5, 6), losers=(7, 8))
    late = RatedResult("game", 1, T0 + timedelta(minutes=1), winners=(7, 8), losers=(5, 6))
    assert canonical_order([late, early]) == [early, late]
    assert figures(replay([early, late])) != figures(replay([late]))


def test_a_win_raises_the_winners_and_their_pair_and_narrows_everyone():
    book = replay([RatedResult("game", 1, T0, winners=(1, 2), losers=(3, 4))])
    new = book.players[1]
    assert book.players[1].mu > 25 > book.players[3].mu
    assert book.pairs[(1, 2)].mu > 25 > book.pairs[(3, 4)].mu
    assert new.sigma < 25 / 3 and book.pairs[(3, 4)].sigma < 25 / 3
    assert {pk: s.games for pk, s in book.players.items()} == {1: 1, 2: 1, 3: 1, 4: 1}


def test_a_player_on_both_sides_or_an_empty_side_is_not_rated():
    assert not RatedResult("table", 1, T0, winners=(1, 2), losers=(2, 3)).rateable
    assert not RatedResult("table", 1, T0, winners=(1,), losers=()).rateable
    assert figures(replay([RatedResult("table", 1, T0, winners=(1,), losers=())])) == ({}, {})


def test_pairs_and_the_provisional_line():
    assert pair_of((9, 4)) == (4, 9) and pair_of((1,)) is None
    assert [is_provisional(n, threshold=3) for n in range(5)] == [True, True, True, False, False]
