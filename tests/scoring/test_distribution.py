"""The distribution of show totals over every hand and starter, checked against the published
tables and, in the slow test, against score_show run on every one of the 12,994,800 pairs.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from scoring import DECK, Card, score_show
from scoring.distribution import possible_totals, show_distribution

PAIRS = comb(52, 4) * 48  # 270,725 hands x 48 starters
assert PAIRS == 12_994_800 == comb(52, 5) * 5

# The published hand table: Steven S. Lumetta, "Amusing Cribbage Facts" (University of Illinois),
# reproduced in Wikipedia's "Cribbage statistics" ("Scoring Breakdown ... out of 12,994,800").
PUBLISHED_HAND = {
    0: 1_009_008,
    1: 99_792,
    2: 2_813_796,
    3: 505_008,
    4: 2_855_676,
    5: 697_508,
    6: 1_800_268,
    7: 751_324,
    8: 1_137_236,
    9: 361_224,
    10: 388_740,
    11: 51_680,
    12: 317_340,
    13: 19_656,
    14: 90_100,
    15: 9_168,
    16: 58_248,
    17: 11_196,
    18: 2_708,
    20: 8_068,
    21: 2_496,
    22: 444,
    23: 356,
    24: 3_680,
    28: 76,
    29: 4,
}
# The same sources' percentages, to four places (29 is "0.00003").
PUBLISHED_HAND_PERCENT = {0: 7.7647, 2: 21.6532, 4: 21.9755, 6: 13.8538, 12: 2.4421, 24: 0.0283}

# What is published of the crib table (a crib scores a flush only with all five cards):
# Wikipedia's "Cribbage statistics": "1,009,008 (approximately 7.8%) of these score zero points,
# or 1,022,208 if the hand is the crib"; and the ACC table (shared/seeds/acc-scoring-and-terms.txt):
# "Crib scores between 0 and 29 are all possible - with the exception of 19, 25, 26 and 27."
PUBLISHED_CRIB_ZEROS = 1_022_208
PUBLISHED_CRIB_TOTALS = frozenset(range(30)) - {19, 25, 26, 27}


def test_hand_table_is_the_published_table_exactly() -> None:
    assert show_distribution() == PUBLISHED_HAND
    assert sum(PUBLISHED_HAND.values()) == PAIRS


def test_hand_table_percentages_round_as_published() -> None:
    dist = show_distribution()
    for total, percent in PUBLISHED_HAND_PERCENT.items():
        assert round(100 * dist[total] / PAIRS, 4) == percent


def test_hand_mean() -> None:
    """The expected show of a random hand and starter: 61,974,180 points over 12,994,800 pairs
    (the published table's own sum), 4.7692 on average."""
    points = sum(t * n for t, n in show_distribution().items())
    assert points == sum(t * n for t, n in PUBLISHED_HAND.items()) == 61_974_180
    assert round(points / PAIRS, 4) == 4.7692


def test_crib_table_matches_what_is_published() -> None:
    crib = show_distribution(crib=True)
    assert sum(crib.values()) == PAIRS
    assert crib[0] == PUBLISHED_CRIB_ZEROS
    assert set(crib) == PUBLISHED_CRIB_TOTALS
    assert possible_totals(crib=True) == PUBLISHED_CRIB_TOTALS


def test_hand_totals_never_19_25_26_27() -> None:
    assert possible_totals() == PUBLISHED_CRIB_TOTALS  # the same totals occur in hands
    assert sorted(set(range(30)) - possible_totals()) == [19, 25, 26, 27]


def test_crib_table_differs_from_hand_table_exactly_by_the_crib_flush_rule() -> None:
    """A crib flush needs all five cards. So the crib table is the hand table with every four-card
    hand flush whose starter is of another suit moved down 4 points (its flush), and nothing else:
    a five-card flush scores 5 in both, and nobs cannot occur in those moved hands (the jack of
    the starter's suit is not of the hand's suit)."""
    moved: Counter[int] = Counter()
    for suit in range(4):
        for ranks in combinations(range(1, 14), 4):
            hand = tuple(Card(r, suit) for r in ranks)
            for starter in DECK:
                if starter.suit == suit:
                    continue
                as_hand = score_show(hand, starter)
                as_crib = score_show(hand, starter, crib=True)
                assert (as_hand.flush, as_crib.flush, as_hand.nobs) == (4, 0, 0)
                assert as_crib.total == as_hand.total - 4
                moved[as_hand.total] += 1
    assert sum(moved.values()) == 4 * comb(13, 4) * 39 == 111_540

    expected = Counter(show_distribution())
    expected.subtract(moved)
    expected.update({total - 4: n for total, n in moved.items()})
    crib = show_distribution(crib=True)
    assert {t: n for t, n in expected.items() if n} == crib

    hand = show_distribution()
    difference = {t: hand.get(t, 0) - crib.get(t, 0) for t in set(hand) | set(crib)}
    assert {t: d for t, d in difference.items() if d} == {
        t: d
        for t in set(moved) | {t - 4 for t in moved}
        if (d := moved.get(t, 0) - moved.get(t + 4, 0))
    }


def test_three_card_hands_five_card_game() -> None:
    """Five-card cribbage: a three-card hand and the starter. The best is 20 (5-5-5 with a 5)."""
    dist = show_distribution(3)
    assert sum(dist.values()) == comb(52, 3) * 49 == 1_082_900
    assert max(dist) == 20
    assert dist[20] == 4  # the four choices of starter among the four fives
    crib = show_distribution(3, crib=True)
    assert sum(crib.values()) == 1_082_900


def test_five_card_hands_seven_card_game_best_is_46_and_only_445566() -> None:
    """rules-six-card-and-variants.txt: "The highest score under seven-card cribbage is 46 which
    can only be scored when the six cards, including the turned up card, are 6, 6, 5, 5, 4, 4."

    True: 46 is the highest total over all 122,151,120 five-card hands with a starter, and the
    1,296 pairs that make it are exactly the 4-4-5-5-6-6 sets: (4 choose 2)^3 = 216 sets of six
    cards, each with 6 choices of starter."""
    dist = show_distribution(5)
    assert sum(dist.values()) == comb(52, 5) * 47 == 122_151_120
    assert max(dist) == 46
    assert dist[46] == comb(4, 2) ** 3 * 6 == 1_296
    assert show_distribution(5, crib=True)[46] == 1_296


def test_distribution_is_cached_and_sorted() -> None:
    assert show_distribution() is show_distribution()
    assert list(show_distribution()) == sorted(show_distribution())
    assert all(n > 0 for n in show_distribution(crib=True).values())


@pytest.mark.slow
def test_every_hand_through_score_show_matches_the_counted_tables() -> None:
    """All 2,598,960 five-card sets x 5 choices of starter, each scored by score_show as a hand
    and as a crib: the counting method in distribution.py and score_show check each other."""
    hand: Counter[int] = Counter()
    crib: Counter[int] = Counter()
    for a, b, c, d, e in combinations(DECK, 5):
        for cards, starter in (
            ((b, c, d, e), a),
            ((a, c, d, e), b),
            ((a, b, d, e), c),
            ((a, b, c, e), d),
            ((a, b, c, d), e),
        ):
            hand[score_show(cards, starter).total] += 1
            crib[score_show(cards, starter, crib=True).total] += 1
    assert sum(hand.values()) == sum(crib.values()) == PAIRS
    assert dict(sorted(hand.items())) == show_distribution() == PUBLISHED_HAND
    assert dict(sorted(crib.items())) == show_distribution(crib=True)
