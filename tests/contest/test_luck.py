"""Luck of the cut: the exact average over the possible starters against a brute force through
the scorer's readable count, and the percentile of a show without cards."""

from __future__ import annotations

import random

import pytest

from contest.luck import DECK, cut_average, cut_luck, expected_show, show_percentile
from scoring.cards import Card
from scoring.distribution import show_distribution
from scoring.show import score_show


def brute_average(hand, *, crib=False, seen=()):
    """Every card of the deck that is neither in the hand nor seen, counted one by one."""
    totals = []
    for card in DECK:
        if card in hand or card in seen:
            continue
        totals.append(score_show(list(hand), card, crib=crib).total)
    return len(totals), sum(totals) / len(totals)


@pytest.mark.parametrize("seed", range(8))
def test_the_46_starter_average_is_the_brute_force(seed):
    rng = random.Random(seed)
    six = rng.sample(DECK, 6)
    hand, discards = six[:4], six[4:]
    n, expected = brute_average(hand, seen=discards)
    assert n == 46
    assert cut_average(hand, seen=discards) == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(4))
def test_a_crib_s_average_over_48_starters_is_the_brute_force(seed):
    crib = random.Random(100 + seed).sample(DECK, 4)
    n, expected = brute_average(crib, crib=True)
    assert n == 48
    assert cut_average(crib, crib=True) == pytest.approx(expected)


def test_luck_is_the_shown_total_minus_the_average():
    rng = random.Random(3)
    cards = rng.sample(DECK, 5)
    hand, starter = cards[:4], cards[4]
    shown = score_show(hand, starter).total
    assert cut_luck(hand, starter) == pytest.approx(shown - cut_average(hand))


def test_a_hand_s_luck_over_its_starters_averages_zero():
    hand = DECK[:4]
    starters = [c for c in DECK if c not in hand]
    assert sum(cut_luck(hand, s) for s in starters) == pytest.approx(0.0, abs=1e-9)


def test_percentiles_follow_the_exact_distribution():
    dist = show_distribution(4)
    total = sum(dist.values())
    below_12 = sum(n for k, n in dist.items() if k < 12) / total
    assert show_percentile(12) == pytest.approx(100 * (below_12 + dist[12] / total / 2))
    assert show_percentile(29) > 99.99
    assert show_percentile(19) == pytest.approx(show_percentile(20) - 50 * dist[20] / total)
    assert expected_show() == pytest.approx(sum(k * n for k, n in dist.items()) / total)


# --- The split: luck of the cut and discard skill, where the cards dealt are known ------------


def test_the_best_discard_costs_nothing_and_any_other_what_the_analyser_says():
    from contest.luck import discard_skill
    from scoring.discard import analyse_discards

    rng = random.Random(41)
    for _ in range(10):
        dealt = rng.sample(DECK, 6)
        rows = analyse_discards(dealt, variant="singles-121", own_crib=False)
        for row in rows:
            skill = discard_skill(dealt, list(row.keep), variant="singles-121", own_crib=False)
            assert skill.cost == pytest.approx(rows[0].total - row.total, abs=1e-12)
            assert skill.cost >= 0
        assert (
            discard_skill(dealt, list(rows[0].keep), variant="singles-121", own_crib=False).cost
            == 0
        )


def test_the_cut_is_judged_against_the_kept_cards_not_a_random_hand():
    """A great hand cut badly is unlucky, however many points it shows: the split says so where
    points above expectation called it lucky."""
    from contest.luck import luck_split

    kept = [Card.from_str(c) for c in ("5H", "5D", "5C", "JS")]
    dealt = [*kept, Card.from_str("2C"), Card.from_str("9D")]
    starter = Card.from_str("AH")  # 14: far above a random hand's 4.8, far below its own average
    split = luck_split(kept, starter, dealt=dealt, variant="singles-121", own_crib=True)
    assert score_show(kept, starter).total - expected_show() > 9  # "lucky" the old way
    assert split.cut < -2  # unlucky: the kept cards average over 16
    n, average = brute_average(kept, seen=dealt[4:])
    assert n == 46 and split.cut == pytest.approx(14 - average)
    assert split.discard == 0.0  # keeping the three fives and the jack is the best here


def test_kept_cards_not_from_the_deal_are_refused():
    from contest.luck import discard_skill
    from scoring.errors import InvalidHandError

    dealt = [Card.from_str(c) for c in "5H 5D JS 4C KD 9S".split()]
    with pytest.raises(InvalidHandError):
        discard_skill(
            dealt,
            [Card.from_str(c) for c in "5H 5D JS QC".split()],
            variant="singles-121",
            own_crib=True,
        )
