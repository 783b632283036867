"""The show: every worked example in the rule texts (shared/seeds/), then properties of all hands.

Where a worked example in a seed disagrees with the rules stated in the same seeds, the rules win;
the test's docstring says so and shows the count.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations, combinations_with_replacement, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    DECK,
    VARIANTS,
    Card,
    DuplicateCardError,
    InvalidCardError,
    InvalidHandError,
    ScoreItem,
    ShowScore,
    parse_cards,
    score_show,
    show_total,
)
from scoring.show import IMPOSSIBLE_FIVE_CARD_SHOWS


def show(hand: str, starter: str, *, crib: bool = False) -> ShowScore:
    return score_show(parse_cards(hand), Card.from_str(starter), crib=crib)


def parts(s: ShowScore) -> tuple[int, int, int, int, int, int]:
    return (s.fifteens, s.pairs, s.runs, s.flush, s.nobs, s.total)


# =================================================================================================
# Worked examples from the seeds
# =================================================================================================


def test_29_hand() -> None:
    """rules-six-card-and-variants.txt: "The highest possible score in the show is 29 points -
    3 fives and a Jack in the hand with the turned up card another five of the same suit as the
    held Jack." rules-online-summary.txt: "eight fifteens, six pairs and his nobs"."""
    s = show("5H 5D 5S JC", "5C")
    assert parts(s) == (16, 12, 0, 0, 1, 29)
    kinds = Counter(item.kind for item in s.breakdown())
    assert kinds == {"fifteen": 8, "pair": 1, "nobs": 1}  # the six pairs are one pair-royal line
    assert s.lines()[-1] == "one for his nobs: JC"
    assert show("5H 5D 5S JC", "5C", crib=True).total == 29  # the same in the crib


def test_29_needs_the_jack_of_the_starters_suit() -> None:
    """The same cards with the starter five of another suit than the jack: 28, no nobs.
    A jack turned as the starter is his heels (2 for the dealer, not part of the show): 28."""
    assert show("5H 5D 5C JC", "5S").total == 28
    assert show("5H 5D 5S 5C", "JC").total == 28
    assert show("5H 5D 5S 5C", "JC").nobs == 0


def test_double_double_run_7_7_8_8_with_9_is_24_not_18() -> None:
    """rules-online-summary.txt: "7-7-8-8 with a 9 cut makes two runs of three (6), four
    fifteens (8) and two pairs (4) = 18 in the hand alone."

    The example is WRONG and the rules win. 8 + 4 + 6 = 18 adds up, but the run count is wrong:
    with two 7s and two 8s the run 7-8-9 can be made 2 x 2 = 4 ways, so it is FOUR runs of three
    (12), a double-double run. The same seeds say so: a double run "counts each version
    separately" (rulebook-general.txt) and runs are scored "counting duplicates"
    (rules-online-summary.txt). Four fifteens (7+8 four ways: 8) + two pairs (4) + four runs of
    three (12) = 24, one of the well-known 24 hands (77889). Without the 9 the four cards alone
    make 12 (no run), so "18 in the hand alone" is not right under either reading.
    """
    s = show("7H 7S 8H 8D", "9C")
    assert parts(s) == (8, 4, 12, 0, 0, 24)
    runs = [item for item in s.breakdown() if item.kind == "run"]
    assert len(runs) == 4
    assert {item.points for item in runs} == {3}
    assert len({frozenset(item.cards) for item in runs}) == 4
    assert s.total != 18


def test_seven_7_7_8_8_without_the_run_card() -> None:
    """The four cards of the example with a starter that adds nothing: fifteens and pairs, 12."""
    assert parts(show("7H 7S 8H 8D", "KC")) == (8, 4, 0, 0, 0, 12)


def test_seven_card_46_hand() -> None:
    """rules-six-card-and-variants.txt, seven-card cribbage: "The highest score ... is 46 which
    can only be scored when the six cards, including the turned up card, are 6, 6, 5, 5, 4, 4.
    This is a total of 6 for 3 pairs, 16 for 8 fifteens and 24 for 8 runs."

    Counted: pairs 44, 55, 66 = 3 pairs = 6. Fifteens: only 4+5+6 makes 15 (no two cards reach
    it, four cards are at least 4+4+5+5 = 18), 2 x 2 x 2 = 8 ways = 16. Runs: 4-5-6 with every
    rank doubled is 8 runs of three = 24. 6 + 16 + 24 = 46: the example holds, whichever card is
    the starter. (That 46 is the maximum and only this hand makes it is checked over all hands in
    test_distribution.py.)
    """
    six = parse_cards("6H 6S 5H 5D 4C 4D")
    for i in range(6):
        s = score_show(six[:i] + six[i + 1 :], six[i])
        assert parts(s) == (16, 6, 24, 0, 0, 46)
        kinds = Counter(item.kind for item in s.breakdown())
        assert kinds == {"fifteen": 8, "pair": 3, "run": 8}


def test_crib_flush_only_with_all_five() -> None:
    """rulebook-general.txt: "In the crib, a flush scores only if all four crib cards and the
    starter are the same suit—5 points; a four-card crib flush alone does not score."
    rules-six-card-and-variants.txt: "a crib can only score a flush if all five cards are of the
    same suit for five points." The doubles league: "(crib only if all 5 match)"."""
    assert show("2H 4H 6H 8H", "KS", crib=True).flush == 0
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True).flush == 5
    assert show("2H 4H 6H 8H", "KH", crib=True).total == 5
    assert show("2H 4H 6H 8S", "KH", crib=True).flush == 0


def test_hand_flush_four_or_five() -> None:
    """rulebook-general.txt: "Flush: 4 points if all four cards in hand are the same suit; 5 if the
    starter matches too." ACC: "4 card flush (only in the hand) 4 | 5 card flush 5"."""
    assert show("2H 4H 6H 8H", "KS").flush == 4
    assert show("2H 4H 6H 8H", "KS").total == 4
    assert show("2H 4H 6H 8H", "KH").flush == 5
    assert show("2H 4H 6H 8H", "KH").total == 5


def test_the_starter_never_makes_a_four_card_flush() -> None:
    """rules-six-card-and-variants.txt: "A 4-point flush can only be scored using cards from the
    hand. The turned up card can ONLY be used in a five card flush." Three hand cards and the
    starter of one suit score nothing, in the hand or the crib."""
    for crib in (False, True):
        assert show("2H 4H 6H 8S", "KH", crib=crib).flush == 0
        assert show("2S 4H 6H 8H", "KH", crib=crib).flush == 0


def test_flush_breakdown_names_the_cards() -> None:
    four = [i for i in show("2H 4H 6H 8H", "KS").breakdown() if i.kind == "flush"]
    assert four == [ScoreItem("flush", "flush of four", parse_cards("2H 4H 6H 8H"), 4)]
    five = [i for i in show("2H 4H 6H 8H", "KH").breakdown() if i.kind == "flush"]
    assert five == [ScoreItem("flush", "flush of five", parse_cards("2H 4H 6H 8H KH"), 5)]


def test_nobs() -> None:
    """rulebook-general.txt: "His Nobs: 1 point if your hand (or the crib) contains the Jack of the
    same suit as the starter." ACC: "Jack of the same suit as the starter card, either in the hand
    or crib, counts as 1 point"; his heels (a jack as the starter) is the dealer's 2 at the cut,
    not part of the show."""
    assert parts(show("JH AS 3D 8C", "9H")) == (0, 0, 0, 0, 1, 1)
    assert show("JH AS 3D 8C", "9H", crib=True).nobs == 1
    assert show("JH AS 3D 8C", "9S").nobs == 0
    assert show("JS 2S 4D 6C", "JH").nobs == 0  # a jack starter: his heels, no nobs in the show
    assert show("QH KH 2D 4C", "9H").nobs == 0  # only the jack
    assert show("JH AS 3D 8C", "9H").lines() == ["one for his nobs: JH"]


def test_nobs_and_a_five_card_flush() -> None:
    """The Wikipedia "19-hand" example (a crib of one suit, 4 6 J and a ten card, a 5 of the
    suit cut): 15 for 6, a run for 9, nobs for 10, a flush for 15."""
    s = show("4H 6H JH TH", "5H", crib=True)
    assert parts(s) == (6, 0, 3, 5, 1, 15)
    assert show("4H 6H JH TS", "5H", crib=True).total == 10  # one card off suit: no flush


def test_pairs_royal_and_double_pair_royal() -> None:
    """rulebook-general.txt: "each pair pegs 2 (three of a kind = three pairs = 6; four of a kind =
    six pairs = 12)." The league sheet: "Pair / 3 / 4 of a kind = 2 / 6 / 12 pts"."""
    assert show("2H 2S 9D KC", "7H").pairs == 2
    assert show("2H 2S 2D KC", "7H").pairs == 6
    assert show("2H 2S 2D 2C", "7H").pairs == 12
    assert show("2H 2S 9D 9C", "7H").pairs == 4
    assert show("2H 2S 2D 9C", "9H").pairs == 8
    labels = [i.label for i in show("2H 2S 2D 2C", "7H").breakdown() if i.kind == "pair"]
    assert labels == ["double pair royal"]


def test_a_jack_does_not_pair_a_queen() -> None:
    """rules-six-card-and-variants.txt: "the numerical value is not used so, for instance, a Jack
    cannot be paired with a Queen." Both still make fifteens (J+2+3, Q+2+3)."""
    s = show("JH QS 2D 3C", "8D")
    assert (s.pairs, s.fifteens) == (0, 4)


def test_runs_three_four_five() -> None:
    """The league sheet: "Run of 3–5 = 3–5 pts"; rulebook: "1 point per card"."""
    assert show("2H 3S 4D 9C", "KH").runs == 3
    assert show("2H 3S 4D 5C", "KH").runs == 4
    assert show("2H 3S 4D 5C", "6H").runs == 5
    assert show("9H TS JD QC", "KH").runs == 5  # tens and faces run by rank, not value


def test_double_and_triple_runs() -> None:
    """rulebook-general.txt: "a double run—one rank paired within a run—counts each version
    separately"."""
    assert show("3H 3S 4D 5C", "KH").runs == 6  # double run of three
    assert show("3H 3S 4D 5C", "6H").runs == 8  # double run of four
    assert show("3H 3S 3D 4C", "5H").runs == 9  # triple run
    assert show("AH AS 2D 3C", "3D").runs == 12  # double-double run


def test_queen_king_ace_is_not_a_run() -> None:
    """rules-six-card-and-variants.txt: "Aces count low so Queen, King, Ace is not a run."
    rules-online-summary.txt: "A-2-3 is a run but Q-K-A is not"."""
    assert show("QH KS AD 2C", "7D").runs == 0
    assert show("QH KS AD 2C", "3D").runs == 3  # A-2-3
    assert show("JH QS KD AC", "5D").runs == 3  # J-Q-K only


def test_card_values_for_fifteens() -> None:
    """rulebook-general.txt: "Face cards (King, Queen, Jack) each count as 10. Aces count as 1."
    "Every distinct combination counts, and one card can be part of several combinations"."""
    s = show("TH JS QD KC", "5H")  # the 5 with each ten-card: four fifteens
    assert (s.fifteens, s.runs) == (8, 4)
    assert show("AH AS AD AC", "5H").fifteens == 0  # four aces and a 5 reach only 9
    assert show("AH 2S 3D 4C", "5H").fifteens == 2  # 1+2+3+4+5: all five cards


def test_zero_hand() -> None:
    """A hand that scores nothing (players call it a "19")."""
    s = show("2H 4S 6D 8C", "TH")
    assert s.total == 0
    assert s.lines() == []
    assert s.breakdown() == []


def test_five_card_game_three_card_hand_and_flush() -> None:
    """rules-six-card-and-variants.txt, five-card cribbage: "leaves each player with only three
    cards for the play and the show. In the Show, a three-card flush can be scored but only if all
    three cards are from the hand. A four-card flush can be scored if the turned-up card is also of
    the same suit." Its crib is four cards (two from each player): the crib rule applies."""
    variant = VARIANTS["five-card-61"]
    assert (variant.hand_size, variant.crib_size, variant.target) == (3, 4, 61)
    assert parts(show("2H 5H 9H", "KS")) == (2, 0, 0, 3, 0, 5)
    assert show("2H 5H 9H", "KH").flush == 4
    assert show("2H 5H 9S", "KH").flush == 0  # two hand cards and the starter: nothing
    assert show("2H 5H 9H", "KS", crib=True).flush == 0
    assert show("2H 4H 6H 8H", "KS", crib=True).flush == 0  # its four-card crib
    assert show("5H 5D 5S", "5C").total == 20  # the best three-card show
    assert show("JH 2S 4D", "9H").nobs == 1


def test_seven_card_game_five_card_hand_and_flush() -> None:
    """rules-six-card-and-variants.txt, seven-card cribbage: "Seven cards are dealt to each player
    so that the play and the show are conducted with five cards each." A flush scores a point per
    card: 5 from the hand, 6 with the starter. Its crib is four cards (two from each player)."""
    variant = VARIANTS["seven-card-181"]
    assert (variant.hand_size, variant.crib_size, variant.target) == (5, 4, 181)
    assert show("2H 4H 6H 8H TH", "KS").flush == 5
    assert show("2H 4H 6H 8H TH", "KH").flush == 6
    assert show("2H 4H 6H 8H TS", "KH").flush == 0
    assert show("2H 3S 4D 5C 6H", "7H").runs == 6  # a run of six
    assert show("JH 2S 4D 6C 8H", "9H").nobs == 1


def test_four_player_partnership_shows_four_cards() -> None:
    """rulebook-general.txt / the league sheet: five cards each, one to the crib: a four-card hand
    and a four-card crib, scored like the two-player game."""
    variant = VARIANTS["partnership-121"]
    assert (variant.dealt, variant.hand_size, variant.crib_size) == (5, 4, 4)


def test_wrong_hand_sizes_are_refused() -> None:
    with pytest.raises(InvalidHandError):
        show("5H 5D", "5C")
    with pytest.raises(InvalidHandError):
        show("AH 2H 3H 4H 5H 6H", "7H")


def test_strings_are_accepted() -> None:
    assert score_show("5H 5D 5S JC", "5C").total == 29
    assert score_show("5♥ 5♦ 5♠ j♣", "5♣").total == 29


def test_as_dict_and_int() -> None:
    s = show("7H 7S 8H 8D", "9C")
    d = s.as_dict()
    assert d["hand"] == ["7H", "7S", "8H", "8D"]
    assert d["starter"] == "9C"
    assert (d["fifteens"], d["pairs"], d["runs"], d["flush"], d["nobs"], d["total"]) == parts(s)
    assert d["crib"] is False
    breakdown = d["breakdown"]
    assert isinstance(breakdown, list)
    assert sum(item["points"] for item in breakdown) == 24
    assert int(s) == 24
    assert "24" in repr(s)


# =================================================================================================
# An independent reference count, to compare with score_show on random hands
# =================================================================================================


def reference_total(hand: tuple[Card, ...], starter: Card, crib: bool) -> int:
    """The slow, literal reading of the rules: every subset, every pair, the longest runs."""
    cards = (*hand, starter)
    points = 0
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(min(c.rank, 10) for c in combo) == 15:
                points += 2
    points += 2 * sum(1 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for size in range(len(cards), 2, -1):
        runs = 0
        for combo in combinations(cards, size):
            ranks = sorted(c.rank for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                runs += 1
        if runs:
            points += size * runs
            break
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += any(c.rank == 11 and c.suit == starter.suit for c in hand)
    return points


# =================================================================================================
# Properties
# =================================================================================================

SUIT_PERMUTATIONS = list(permutations(range(4)))


def deals(hand_size: int = 4) -> st.SearchStrategy[tuple[tuple[Card, ...], Card]]:
    """A hand of ``hand_size`` distinct cards and a starter."""
    return st.lists(
        st.sampled_from(DECK), min_size=hand_size + 1, max_size=hand_size + 1, unique=True
    ).map(lambda cards: (tuple(cards[:-1]), cards[-1]))


def flushy_deals() -> st.SearchStrategy[tuple[tuple[Card, ...], Card]]:
    """Hands with all four cards of one suit (random hands rarely are), any starter."""

    def build(draw_suit: int, ranks: list[int], starter: Card) -> tuple[tuple[Card, ...], Card]:
        return tuple(Card(r, draw_suit) for r in ranks), starter

    return (
        st.tuples(
            st.integers(0, 3),
            st.lists(st.integers(1, 13), min_size=4, max_size=4, unique=True),
            st.sampled_from(DECK),
        )
        .map(lambda t: build(*t))
        .filter(lambda d: d[1] not in d[0])
    )


any_deal = st.one_of(deals(4), flushy_deals())


@settings(deadline=None)
@given(any_deal, st.randoms(use_true_random=False), st.booleans())
def test_reordering_the_hand_changes_nothing(
    deal: tuple[tuple[Card, ...], Card], rnd: random.Random, crib: bool
) -> None:
    hand, starter = deal
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    a = score_show(hand, starter, crib=crib)
    b = score_show(tuple(shuffled), starter, crib=crib)
    assert parts(a) == parts(b)

    def items(s: ShowScore) -> Counter[tuple[str, int, frozenset[Card]]]:
        return Counter((i.kind, i.points, frozenset(i.cards)) for i in s.breakdown())

    assert items(a) == items(b)


@settings(deadline=None)
@given(any_deal, st.sampled_from(SUIT_PERMUTATIONS), st.booleans())
def test_renaming_suits_consistently_changes_nothing(
    deal: tuple[tuple[Card, ...], Card], perm: tuple[int, ...], crib: bool
) -> None:
    hand, starter = deal

    def rename(c: Card) -> Card:
        return Card(c.rank, perm[c.suit])

    a = score_show(hand, starter, crib=crib)
    b = score_show(tuple(map(rename, hand)), rename(starter), crib=crib)
    assert parts(a) == parts(b)


@settings(deadline=None)
@given(any_deal, st.booleans())
def test_four_card_shows_never_make_the_impossible_totals(
    deal: tuple[tuple[Card, ...], Card], crib: bool
) -> None:
    """DESIGN.md and the ACC table: never 19, 25, 26, 27 or above 29."""
    total = score_show(*deal, crib=crib).total
    assert 0 <= total <= 29
    assert total not in {19, 25, 26, 27}
    assert total not in IMPOSSIBLE_FIVE_CARD_SHOWS


def test_the_impossible_totals_are_exactly_the_design_list() -> None:
    assert frozenset({19, 25, 26, 27}) == IMPOSSIBLE_FIVE_CARD_SHOWS


@settings(deadline=None)
@given(any_deal)
def test_crib_differs_from_hand_only_by_the_flush(deal: tuple[tuple[Card, ...], Card]) -> None:
    hand, starter = deal
    h = score_show(hand, starter)
    c = score_show(hand, starter, crib=True)
    assert c.total <= h.total
    assert (c.fifteens, c.pairs, c.runs, c.nobs) == (h.fifteens, h.pairs, h.runs, h.nobs)
    four_card_flush = len({x.suit for x in hand}) == 1 and starter.suit != hand[0].suit
    assert h.total - c.total == (4 if four_card_flush else 0)
    assert h.flush - c.flush == (4 if four_card_flush else 0)


@settings(deadline=None)
@given(st.one_of(any_deal, deals(3), deals(5)), st.booleans())
def test_breakdown_points_sum_to_the_total(deal: tuple[tuple[Card, ...], Card], crib: bool) -> None:
    s = score_show(*deal, crib=crib)
    items = s.breakdown()
    assert sum(i.points for i in items) == s.total
    by_kind: Counter[str] = Counter()
    for i in items:
        by_kind[i.kind] += i.points
    assert by_kind["fifteen"] == s.fifteens
    assert by_kind["pair"] == s.pairs
    assert by_kind["run"] == s.runs
    assert by_kind["flush"] == s.flush
    assert by_kind["nobs"] == s.nobs
    assert s.total == s.fifteens + s.pairs + s.runs + s.flush + s.nobs
    assert len(s.lines()) == len(items)
    for item in items:  # every line is made of the shown cards
        assert set(item.cards) <= {*s.hand, s.starter}
        if item.kind == "fifteen":
            assert sum(c.value for c in item.cards) == 15


@settings(deadline=None)
@given(st.one_of(any_deal, deals(3), deals(5)), st.booleans())
def test_score_show_matches_the_literal_reading_of_the_rules(
    deal: tuple[tuple[Card, ...], Card], crib: bool
) -> None:
    hand, starter = deal
    assert score_show(hand, starter, crib=crib).total == reference_total(hand, starter, crib)


@settings(deadline=None)
@given(deals(4))
def test_swapping_the_starter_with_a_hand_card_keeps_the_rank_points(
    deal: tuple[tuple[Card, ...], Card],
) -> None:
    """Fifteens, pairs and runs depend on the five ranks only, not on which card was cut."""
    hand, starter = deal
    a = score_show(hand, starter)
    b = score_show((starter, *hand[1:]), hand[0])
    assert (a.fifteens, a.pairs, a.runs) == (b.fifteens, b.pairs, b.runs)


def test_every_show_of_24_or_more_has_one_of_the_known_rank_patterns() -> None:
    """Wikipedia's "Cribbage statistics": 29 is 555J with the jack's five cut (nobs), 28 is 5555
    with a ten-card, and 24 is A7777, 33339, 36666, 44447, 44556, 44566, 45566, 67788 or 77889.

    Checked over every multiset of five ranks: fifteens, pairs and runs depend on the ranks alone,
    and a flush (5 cards of different ranks) with nobs adds at most 6 to hands that never reach 18.
    """
    symbols = "A23456789TJQK"
    at_least_24: dict[int, set[str]] = {}
    best_with_distinct_ranks = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        cards = tuple(Card(r, k % 4) for k, r in enumerate(ranks))  # a rank's cards: other suits
        s = score_show(cards[1:], cards[0])
        rank_points = s.fifteens + s.pairs + s.runs
        if len(set(ranks)) == 5:
            best_with_distinct_ranks = max(best_with_distinct_ranks, rank_points)
        if rank_points >= 24:
            at_least_24.setdefault(rank_points, set()).add("".join(symbols[r - 1] for r in ranks))
    assert at_least_24 == {
        24: {"A7777", "33339", "36666", "44447", "44556", "44566", "45566", "67788", "77889"},
        28: {"5555T", "5555J", "5555Q", "5555K"},
    }
    assert best_with_distinct_ranks + 5 + 1 < 24


# =================================================================================================
# The fast path (four Card objects) and the general path give the same result
# =================================================================================================


def test_the_stored_five_rank_totals_are_the_count() -> None:
    """scoring/_rank_totals.py is generated; every entry is counted again here."""
    from scoring._make_rank_totals import table
    from scoring._rank_totals import FIVE_RANK_TOTALS

    assert len(FIVE_RANK_TOTALS) == 6175  # every multiset of five ranks with at most four alike
    assert table() == FIVE_RANK_TOTALS, "run python -m scoring._make_rank_totals"


@settings(deadline=None)
@given(st.one_of(any_deal, deals(3), deals(5)), st.booleans())
def test_the_fast_path_and_the_general_path_agree(
    deal: tuple[tuple[Card, ...], Card], crib: bool
) -> None:
    """Four Cards, as a tuple or a list, take the fast path; the general one counts the same
    cards (and text, and the other hand sizes). Every figure, the breakdown and the repr are
    the same."""
    from scoring.show import _general_score

    hand, starter = deal
    fast = score_show(hand, starter, crib=crib)
    as_list = score_show(list(hand), starter, crib=crib)
    general = _general_score(hand, starter, crib)
    text = score_show(" ".join(map(str, hand)), str(starter), crib=crib)
    for s in (as_list, general, text):
        assert parts(s) == parts(fast)
        assert s.breakdown() == fast.breakdown()
        assert repr(s) == repr(fast)
        assert s.as_dict() == fast.as_dict()
    assert fast.hand == hand and fast.starter == starter and fast.crib is crib
    # show_total is the same number, whatever form the cards come in
    as_text = (" ".join(map(str, hand)), str(starter))
    for h, turned in ((hand, starter), (list(hand), starter), as_text):
        assert show_total(h, turned, crib) == show_total(h, turned, crib=crib) == fast.total


def test_a_hand_given_as_a_list_is_kept_as_it_was_scored() -> None:
    """The result holds its own tuple: the list reused for the next hand changes nothing."""
    cards = list(parse_cards("5H 5D 5S JC"))
    score = score_show(cards, Card.from_str("5C"))
    cards[3] = Card.from_str("2C")
    assert score.hand == parse_cards("5H 5D 5S JC")
    assert (score.total, score.nobs, score.fifteens) == (29, 1, 16)


@pytest.mark.parametrize("count", [score_show, show_total])
def test_the_fast_path_refuses_a_repeated_card_by_name(count) -> None:
    five = Card.from_str("5H")
    with pytest.raises(DuplicateCardError, match="5H appears twice"):
        count((five, Card.from_str("5D"), five, Card.from_str("JC")), Card.from_str("5C"))
    with pytest.raises(DuplicateCardError, match="5C appears twice"):
        count(parse_cards("5H 5D 5S 5C"), Card.from_str("5C"))
    with pytest.raises(DuplicateCardError, match="JC appears twice"):  # no rank repeats but J
        count(parse_cards("JC 2D 3S 4C"), Card(11, 3))


@pytest.mark.parametrize(
    ("hand", "starter", "error"),
    [
        (parse_cards("5H 5D 5S JC"), "5X", InvalidCardError),
        ("5H 5D 5S JC QQ", "5C", InvalidCardError),
        (parse_cards("5H 5D"), Card.from_str("5C"), InvalidHandError),
        (parse_cards("5H 5D 5S 5C JC QC"), Card.from_str("KC"), InvalidHandError),
    ],
)
def test_show_total_refuses_what_score_show_refuses(hand, starter, error) -> None:
    """Anything the fast sum cannot take goes to the general path, which refuses it in the same
    words as score_show."""
    with pytest.raises(error) as refused:
        score_show(hand, starter)
    with pytest.raises(error, match=re.escape(str(refused.value))):
        show_total(hand, starter)


@pytest.mark.parametrize("size", [3, 5])
def test_show_total_counts_the_other_hand_sizes(size: int) -> None:
    rng = random.Random(size)
    for _ in range(200):
        cards = rng.sample(DECK, size + 1)
        hand, starter = tuple(cards[:size]), cards[size]
        for crib in (False, True):
            assert show_total(hand, starter, crib) == score_show(hand, starter, crib=crib).total


def test_the_fast_path_key_by_counts_is_the_stored_table() -> None:
    """The fast path looks the ranks up by their counts; every multiset gives the stored value."""
    from scoring._make_rank_totals import count_key
    from scoring._rank_totals import FIVE_RANK_TOTALS, FIVE_RANK_TOTALS_BY_COUNTS
    from scoring.show import _PRIMES

    seen = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            assert count_key(ranks) & 0x3FFFFFFF not in FIVE_RANK_TOTALS_BY_COUNTS
            continue
        key = 1
        for r in ranks:
            key *= _PRIMES[r]
        assert FIVE_RANK_TOTALS_BY_COUNTS[count_key(ranks)] == FIVE_RANK_TOTALS[key]
        seen += 1
    assert seen == len(FIVE_RANK_TOTALS_BY_COUNTS) == 6175


def test_every_repeated_card_in_a_tuple_hand_is_refused() -> None:
    """Any card twice (or more), in the hand or as the starter, the same object or an equal one
    made anew, is refused with its name; no repeat is scored."""
    for card in DECK:
        others = [c for c in DECK if c != card][:3]
        twin = Card(card.rank, card.suit)  # equal, not the deck's object
        for hand, starter in [
            ((card, twin, *others[:2]), others[2]),
            ((card, *others), twin),
            ((card, card, card, card), others[0]),
            ((card, card, card, card), card),
        ]:
            with pytest.raises(DuplicateCardError, match=f"{card} appears twice"):
                score_show(hand, starter)


def test_a_tuple_hand_of_another_size_gets_the_general_refusal() -> None:
    with pytest.raises(InvalidHandError, match="not 6"):
        score_show(parse_cards("5H 5D 5S 2C 3C 4C"), Card.from_str("5C"))
    assert score_show(parse_cards("5H 5D 5S"), Card.from_str("5C")).total == 20


def test_the_figures_read_before_the_total_are_the_same() -> None:
    """fifteens, pairs and runs are counted on first read; reading them first changes nothing."""
    s = score_show(parse_cards("7H 7S 8H 8D"), Card.from_str("9C"))
    assert (s.runs, s.pairs, s.fifteens, s.total) == (12, 4, 8, 24)
    assert repr(s) == "<ShowScore 7H 7S 8H 8D / 9C: 24>"
