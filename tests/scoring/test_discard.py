"""The discard analyser against the naive count (every starter, every set of other discards),
and against the published two-card crib averages.

The naive count here shares nothing with the analyser but ``show_total``: it walks every set of
cards the other players can put in the crib, and for each every starter, as a player at the
table would deal them. One memo keeps it affordable: the sum of a crib's scores over all 48 cards
not in it as the starter depends only on the crib, and is unchanged when the suits are renamed,
so it is kept by the crib with its suits renamed in order of appearance; the starters the player
holds are then taken back out one by one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from scoring import DECK, Card, parse_cards, show_total
from scoring.discard import CRIB_CARDS, analyse_discards, dealt_cards
from scoring.errors import InvalidHandError
from scoring.variants import VARIANTS, Variant

_ALL_STARTERS: dict[tuple[tuple[int, int], ...], int] = {}


def _crib_over_all_starters(crib: Sequence[Card]) -> int:
    """The crib's score summed over the 48 starters not in it (memoised up to suit names)."""
    relabel: dict[int, int] = {}
    key = tuple((c.rank, relabel.setdefault(c.suit, len(relabel))) for c in sorted(crib))
    total = _ALL_STARTERS.get(key)
    if total is None:
        cards = [Card(rank, suit) for rank, suit in key]
        total = sum(show_total(cards, s, crib=True) for s in DECK if s not in cards)
        _ALL_STARTERS[key] = total
    return total


def naive(dealt: Sequence[Card], variant: Variant) -> dict[frozenset[Card], tuple[float, float]]:
    """discard -> (hand's expectation, dealer's crib expectation), by walking every case."""
    unseen = [c for c in DECK if c not in dealt]
    laid = variant.dealt - variant.hand_size
    others = CRIB_CARDS - laid
    out: dict[frozenset[Card], tuple[float, float]] = {}
    for discard in combinations(dealt, laid):
        keep = [c for c in dealt if c not in discard]
        hand = sum(show_total(keep, s) for s in unseen) / len(unseen)
        crib_sum = cases = 0
        for drawn in combinations(unseen, others):  # every set of the others' discards
            crib = [*discard, *drawn]
            # every starter the player cannot see: all 48 not in the crib, less the kept cards
            crib_sum += _crib_over_all_starters(crib)
            crib_sum -= sum(show_total(crib, k, crib=True) for k in keep)
            cases += len(unseen) - others
        out[frozenset(discard)] = (hand, crib_sum / cases)
    return out


# The naive count depends only on the cards dealt, how many are kept and the crib's size, so
# variants that deal alike (three-handed and partnership: five dealt, one laid away, three crib
# cards unseen) are checked together on the same hands: each still on every one of them.
SHAPES: dict[tuple[int, int], list[str]] = {}
for _key, _v in VARIANTS.items():
    SHAPES.setdefault((_v.dealt, _v.hand_size), []).append(_key)


def check_hands(keys: Sequence[str], hands: int, seed: int) -> None:
    rng = random.Random(seed)
    variants = [VARIANTS[k] for k in keys]
    for _ in range(hands):
        dealt = rng.sample(DECK, variants[0].dealt)
        expected = naive(dealt, variants[0])
        for variant in variants:
            own_crib = rng.random() < 0.5
            rows = analyse_discards(dealt, variant=variant, own_crib=own_crib)
            assert len(rows) == len(expected)
            sign = 1 if own_crib else -1
            for row in rows:
                hand, crib = expected[frozenset(row.discard)]
                assert row.hand == pytest.approx(hand, abs=1e-9), (variant.key, dealt, row)
                assert row.crib == pytest.approx(sign * crib, abs=1e-9), (variant.key, dealt, row)
                assert sorted(row.keep + row.discard) == sorted(dealt)
            totals = [r.total for r in rows]
            assert totals == sorted(totals, reverse=True), "best first"


@pytest.mark.parametrize("keys", sorted(SHAPES.values()), ids="+".join)
def test_every_discard_is_worth_what_the_naive_count_says(keys: list[str]) -> None:
    check_hands(keys, hands=1, seed=55)


@pytest.mark.slow
@pytest.mark.parametrize("keys", sorted(SHAPES.values()), ids="+".join)
def test_200_random_hands_of_each_variant_match_the_naive_count(keys: list[str]) -> None:
    check_hands(keys, hands=200, seed=5500)


def test_the_hand_spread_is_the_share_of_starters() -> None:
    # 5H 5D 5S JC kept: every starter gives 12 or more, none gives nothing
    row = next(
        r
        for r in analyse_discards("5H 5D 5S JC 2D 9S", own_crib=True)
        if r.keep_text == "5H 5D 5S JC"
    )
    assert (row.hand_12_plus, row.hand_zero) == (1.0, 0.0)
    # 2C 4D 8S QH kept: count the starters that leave it scoring nothing
    keep = parse_cards("2C 4D 8S QH")
    row = next(r for r in analyse_discards("2C 4D 8S QH KS 6D", own_crib=False) if r.keep == keep)
    unseen = [c for c in DECK if c not in parse_cards("2C 4D 8S QH KS 6D")]
    zero = sum(show_total(keep, s) == 0 for s in unseen)
    assert row.hand_zero == zero / 46 and zero > 0


def test_the_crib_counts_for_the_dealer_and_against_the_pone() -> None:
    mine = analyse_discards("5H 5D JS 4C KD 9S", own_crib=True)
    theirs = analyse_discards("5H 5D JS 4C KD 9S", own_crib=False)
    by_discard = {r.discard: r for r in theirs}
    for row in mine:
        assert row.crib > 0
        assert by_discard[row.discard].crib == -row.crib
        assert by_discard[row.discard].hand == row.hand
    # the dealer keeps the fives for the crib's sake; the pone never gives them away
    assert mine[0].discard_text != "5H 5D"
    assert "5H 5D" not in {r.discard_text for r in theirs[:3]}


def test_the_wrong_number_of_cards_is_refused_with_the_variant_named() -> None:
    with pytest.raises(InvalidHandError) as caught:
        dealt_cards("5H 5D 5S JC 2D", variant="singles-121")
    assert caught.value.code == "dealt_count"
    assert "deals 6 cards, not 5" in str(caught.value)


# The published two-card crib averages, dealer's crib: Cribbage Pro's "Dealer discard table"
# (blog.cribbagepro.net, "Cribbage Strategy - Discarding", 2012, from hundreds of thousands of
# games), which agrees to a tenth with Michael Schell's tables at cribbageforum.com
# ("Discarding to your crib"). Those averages come from real pones, who throw the dealer cards
# that help a crib least; the analyser draws the pone's cards uniformly from the unseen ones, so
# its cribs come out a little higher (about +0.5 here). Averaged over random rest-of-hands.
PUBLISHED_DEALER_CRIB = {
    "5H 5D": 8.5,
    "2H 3D": 6.9,
    "5H JD": 6.7,
    "7H 8D": 6.4,
    "AH AD": 5.2,
    "9H KD": 2.8,
    "KH TD": 2.7,
}


def test_two_card_crib_averages_are_close_to_the_published_tables() -> None:
    rng = random.Random(1)
    ours = {}
    for text, published in PUBLISHED_DEALER_CRIB.items():
        pair = parse_cards(text)
        rest = [c for c in DECK if c not in pair]
        cribs = []
        for _ in range(30):
            dealt = (*pair, *rng.sample(rest, 4))
            rows = analyse_discards(dealt, own_crib=True)
            cribs.append(next(r.crib for r in rows if set(r.discard) == set(pair)))
        ours[text] = sum(cribs) / len(cribs)
        assert published - 0.3 < ours[text] < published + 0.9, (text, ours[text])
    # the order the tables teach: a pair of fives first, ten-king last
    assert max(ours, key=ours.__getitem__) == "5H 5D"
    assert min(ours, key=ours.__getitem__) in {"KH TD", "9H KD"}
