"""Luck of the cut: the exact average over the possible starters against a brute force through
the scorer's readable count, and the percentile of a show without cards."""

from __future__ import annotations

import random

import pytest

from contest.luck import DECK, cut_average, cut_luck, expected_show, show_percentile
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
