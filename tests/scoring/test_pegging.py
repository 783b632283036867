"""The play (pegging): every pegging example in the rule texts (shared/seeds/), the turn rules for
two, three and four players and the five-card game, illegal plays, and the pegging bounds the
league checks claims against: a deal that reaches each bound, and searches that no play beats it.
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring.pegging
from scoring import DECK, VARIANTS, Card, IllegalPlayError, InvalidHandError, ScoringError
from scoring.cards import parse_cards
from scoring.errors import DuplicateCardError
from scoring.pegging import (
    PEGGING_BOUNDS,
    PegAction,
    PegEvent,
    Pegging,
    PeggingBounds,
    PegScore,
    _lay,
    compute_pegging_bounds,
    max_pegging,
    max_pegging_total,
    peg_points,
    peg_scores,
    pegging_bounds,
    play_out,
    search_max_pegging,
)
from scoring.variants import Variant

SINGLES = VARIANTS["singles-121"]
THREE = VARIANTS["three-player-121"]
PARTNERSHIP = VARIANTS["partnership-121"]
FIVE = VARIANTS["five-card-61"]
SEVEN = VARIANTS["seven-card-181"]


def labels(pegging: Pegging) -> list[tuple[int, str, int]]:
    return [(e.seat, e.label, e.points) for e in pegging.events]


# =================================================================================================
# What one card pegs
# =================================================================================================


def test_seed_example_run_of_three_then_run_of_five() -> None:
    """rules-six-card-and-variants.txt: "cards were laid in the following order: 8, 6, 4, 5, 7.
    The fourth card would score 3 points, the fifth card would score five points." (8+6+4+5 is
    23 and the fifth makes 30: no fifteen, no thirty-one.)"""
    pile = parse_cards("8H 6D 4C 5S 7H")
    assert [peg_points(pile[:n]) for n in range(1, 6)] == [0, 0, 0, 3, 5]
    assert peg_scores(pile) == (PegScore("run of five", 5),)


def test_seed_example_a_run_need_not_be_laid_in_order() -> None:
    """rules-online-summary.txt: "Runs do not have to be played in order - 4, 2, 3 scores 3 for
    the third player"."""
    assert peg_scores("4H 2D 3S") == (PegScore("run of three", 3),)
    p = play_out(THREE, ["4H KS QS KH", "2D KD QD QH", "3S KC QC JH"], dealer=2, order="4H 2D 3S")
    assert p.events[0] == PegEvent(2, Card.from_str("3S"), "run of three", 3)


def test_fifteen_pegs_two() -> None:
    assert peg_scores("7H 8D") == (PegScore("fifteen", 2),)
    assert peg_points("KH 5D") == 2


def test_thirty_one_pegs_two() -> None:
    assert peg_scores("KH QD JS AC") == (PegScore("thirty-one", 2),)


def test_pair_pair_royal_and_double_pair_royal() -> None:
    """rulebook-general.txt: "a third of a kind (pair royal) pegs 6; a fourth pegs 12"."""
    assert peg_scores("9H 9D") == (PegScore("pair", 2),)
    assert peg_scores("2H 2D 2S") == (PegScore("pair royal", 6),)
    assert peg_scores("2H 2D 2S 2C") == (PegScore("double pair royal", 12),)


def test_a_jack_never_pairs_a_queen() -> None:
    """rules-six-card-and-variants.txt: "a Jack cannot be paired with a Queen"."""
    assert peg_points("JH QD") == 0
    assert peg_points("TH JD QS") == 3  # a run, though: ranks, not values


def test_pairs_must_be_laid_one_after_another() -> None:
    """rules-online-summary.txt: "pairs must be consecutive plays"."""
    assert peg_points("9H 8D 9S") == 0
    assert peg_points("5H 5D 6S 5C") == 0


def test_a_card_between_breaks_a_run() -> None:
    """rules-online-summary.txt: "no other cards may intervene"."""
    assert peg_points("3H 4D 9S 5C") == 0
    assert peg_points("2H 3D 3S 4C") == 0  # the pair 3-3 sits inside: no run of three
    assert peg_points("2H 3D 4S 4C") == 2  # a pair, but 3-4-4 is no run


def test_ace_is_low_so_queen_king_ace_is_no_run() -> None:
    """rules-online-summary.txt: "A-2-3 is a run but Q-K-A is not"."""
    assert peg_points("QH KD AS") == 0
    assert peg_points("AH 2D 3S") == 3
    assert peg_points("JH QD KS") == 3


def test_the_longest_run_at_the_end_counts_even_if_a_shorter_one_does_not() -> None:
    """3, A, 2, 4: the last four are A-2-3-4 although the last three (A, 2, 4) are no run."""
    assert peg_scores("3H AD 2S 4C") == (PegScore("run of four", 4),)
    assert peg_points("AH 2D 3S 4C 5H 6D 7S") == 7  # count 28: the longest run the play allows


def test_a_card_can_score_fifteen_and_a_run_or_a_pair_together() -> None:
    assert peg_scores("4H 5D 6S") == (PegScore("fifteen", 2), PegScore("run of three", 3))
    assert peg_scores("5H 5D 5S") == (PegScore("fifteen", 2), PegScore("pair royal", 6))
    assert peg_scores("KH 7D 7S 7C") == (PegScore("thirty-one", 2), PegScore("pair royal", 6))
    assert peg_points("3H 3D 3S 3C") == 12  # count 12: no fifteen


def test_a_pile_over_thirty_one_is_refused() -> None:
    with pytest.raises(IllegalPlayError, match="may never pass 31"):
        peg_points("KH QD JS 2C")


def test_a_pile_with_a_card_twice_is_refused() -> None:
    with pytest.raises(DuplicateCardError):
        peg_points("5H 5H")


def test_an_empty_pile_pegs_nothing() -> None:
    assert peg_scores([]) == ()
    assert peg_points("") == 0


def _literal_points(ranks: Sequence[int]) -> int:
    """The rules read literally, for the property below."""
    values = [min(r, 10) for r in ranks]
    points = 2 if sum(values) in (15, 31) else 0
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    runs = [
        n
        for n in range(3, len(ranks) + 1)
        if sorted(ranks[-n:]) == list(range(min(ranks[-n:]), min(ranks[-n:]) + n))
    ]
    return points + max(runs, default=0)


@st.composite
def piles(draw: st.DrawFn) -> list[Card]:
    cards = draw(st.permutations(DECK))
    pile: list[Card] = []
    for card in cards:
        if sum(c.value for c in pile) + card.value > 31 or draw(st.integers(0, 9)) == 0:
            break
        pile.append(card)
    return pile


@given(piles())
def test_every_pile_scores_as_the_rules_read_literally(pile: list[Card]) -> None:
    assert peg_points(pile) == _literal_points([c.rank for c in pile])


@given(piles())
def test_the_bound_search_scores_cards_exactly_as_the_play_does(pile: list[Card]) -> None:
    """The search keeps only the end of the pile that can still score: it must agree anyway."""
    tail: tuple[int, ...] = ()
    count = 0
    for n, card in enumerate(pile, 1):
        points, tail = _lay(tail, count, card.rank)
        count += card.value
        assert points == peg_points(pile[:n])


# =================================================================================================
# The play of a deal: turns, go, thirty-one and last card
# =================================================================================================


def test_the_player_left_of_the_dealer_leads_and_play_passes_clockwise() -> None:
    p = Pegging(THREE, ["AS 2S 3S 4S", "AH 2H 3H 4H", "AD 2D 3D 4D"], dealer=1)
    assert p.to_play == 2
    p.play(2, "AD")
    assert p.to_play == 0
    p.play(0, "2S")
    assert p.to_play == 1


def test_seed_example_a_player_who_cannot_lay_says_go_and_the_other_lays_on() -> None:
    """rulebook-general.txt: "if you cannot play without exceeding 31, you say "Go." The other
    player then plays any cards they can. Whoever plays the last card before a Go ... pegs 1 for
    the go"; "play continues with the remaining cards, again from the player after the one who
    took the last point." """
    p = Pegging(SINGLES, ["KS 9S AS 5S", "KH QH 8H 3H"], dealer=1)
    with pytest.raises(IllegalPlayError, match="Seat 0 cannot say go holding KS"):
        p.go(0)
    p.play(0, "KS")
    p.play(1, "KH")  # 20, a pair for the dealer
    p.play(0, "9S")  # 29: the dealer's QH, 8H and 3H all pass 31, the pone's ace does not
    assert p.to_play == 1
    assert p.go(1) == ()
    assert p.to_play == 0  # the pone lays on
    assert p.play(0, "AS") == (PegEvent(0, None, "go", 1),)  # 30, and nobody can lay: the go
    assert p.count == 0 and p.pile == ()
    assert p.to_play == 1  # the dealer, left of the pone who took the go, leads the next count
    assert p.points_by_seat == (1, 2)
    assert p.actions[3:5] == (PegAction(1, None), PegAction(0, Card.from_str("AS")))


def test_when_nobody_can_lay_the_go_is_pegged_at_once() -> None:
    p = Pegging(SINGLES, ["KS TS 9S 2S", "KH QH 8H 4H"], dealer=1)
    p.play(0, "KS")
    p.play(1, "QH")  # 20
    events = p.play(0, "TS")  # 30: the dealer's KH, 8H, 4H and the pone's 9S, 2S all pass 31
    assert events == (PegEvent(0, None, "go", 1),)
    assert p.count == 0 and p.to_play == 1
    assert p.points_by_seat == (1, 0)


def test_seed_example_thirty_one_pegs_two_never_also_one_for_the_go() -> None:
    """rules-online-summary.txt: "you score either 2 for 31 or 1 for the go, never both"; after
    31 "the round ends and restarts at zero with the other player leading"."""
    p = Pegging(SINGLES, ["KS 5S AS 2S", "QH 6H AH 3H"], dealer=1)
    for seat, card in [(0, "KS"), (1, "QH"), (0, "5S")]:
        assert p.play(seat, card) == ()
    assert p.play(1, "6H") == (PegEvent(1, Card.from_str("6H"), "thirty-one", 2),)
    assert p.points_by_seat == (0, 2)
    assert p.count == 0 and p.pile == () and p.to_play == 0


def test_a_player_who_cannot_lay_lets_the_other_make_thirty_one() -> None:
    p = Pegging(SINGLES, ["KS QS 9S 2S", "KH QH 8H 4H"], dealer=1)
    p.play(0, "KS")
    p.play(1, "KH")  # 20: a pair for the dealer
    p.play(0, "9S")  # 29
    assert p.go(1) == ()  # nothing fits, but the pone may still lay the 2
    assert p.play(0, "2S") == (PegEvent(0, Card.from_str("2S"), "thirty-one", 2),)
    assert p.points_by_seat == (2, 2)


def test_the_last_card_of_the_deal_pegs_one() -> None:
    """rules-six-card-and-variants.txt: "The last card played scores 1 "for last" (unless the
    amount is 31 in which case 2 points are scored)." """
    p = play_out(SINGLES, ["AS 2S 3S 4S", "AH 2H 3H 6H"], dealer=1, order="AS AH 2S 2H 3S 3H 4S 6H")
    assert p.finished and p.to_play is None
    assert p.events[-1] == PegEvent(1, None, "last card", 1)
    assert [e.label for e in p.events].count("last card") == 1


def test_a_last_card_that_makes_thirty_one_pegs_two_not_three() -> None:
    p = play_out(SINGLES, ["TS 5S TD 5D", "QH 6H KD 6D"], dealer=1, order="TS QH 5S 6H TD KD 5D 6D")
    assert labels(p) == [(1, "thirty-one", 2), (1, "thirty-one", 2)]
    assert p.points_by_seat == (0, 4)


def test_seed_example_when_one_player_runs_out_the_other_plays_on_alone() -> None:
    """rules-six-card-and-variants.txt: "When one player's cards are exhausted, the other player
    continues alone." The dealer's two nines, laid one after the other, are a pair."""
    p = Pegging(SINGLES, ["AS 2S 3S 4S", "KH QH 9H 9D"], dealer=1)
    for seat, card in [(0, "AS"), (1, "KH"), (0, "2S"), (1, "QH"), (0, "3S")]:
        p.play(seat, card)
    p.go(1)  # 26: the nines pass 31
    assert p.play(0, "4S") == (PegEvent(0, None, "go", 1),)  # 30; the pone has no cards left
    assert p.to_play == 1
    assert p.play(1, "9H") == ()
    assert p.to_play == 1  # the pone is skipped
    assert p.play(1, "9D") == (
        PegEvent(1, Card.from_str("9D"), "pair", 2),
        PegEvent(1, None, "last card", 1),
    )
    assert p.finished


def test_a_player_who_said_go_sits_out_until_the_count_starts_again() -> None:
    p = Pegging(THREE, ["KS QS 2S 3S", "KH QH 9H 8H", "KD 5D AD 4D"], dealer=2)
    p.play(0, "KS")
    p.play(1, "KH")  # 20, pair
    p.play(2, "5D")  # 25
    p.play(0, "3S")  # 28
    assert p.to_play == 1
    p.go(1)  # 9H, 8H, QH: none fits
    assert p.to_play == 2
    p.play(2, "AD")  # 29
    assert p.to_play == 0  # seat 1 said go: skipped until the count starts again
    p.play(0, "2S")  # 31, and 3-A-2 is a run
    assert labels(p)[-2:] == [(0, "thirty-one", 2), (0, "run of three", 3)]
    assert p.to_play == 1  # left of the player who made 31


def test_in_three_handed_play_each_player_pegs_for_himself() -> None:
    p = play_out(THREE, ["5S 5H KS QS", "5D 9H KH QH", "5C 2D KD QD"], dealer=2, order="5S 5D 5C")
    assert p.points_by_side == p.points_by_seat
    assert len(p.points_by_side) == 3
    assert p.events[:3] == (
        PegEvent(1, Card.from_str("5D"), "pair", 2),
        PegEvent(2, Card.from_str("5C"), "fifteen", 2),
        PegEvent(2, Card.from_str("5C"), "pair royal", 6),
    )


def test_partners_peg_for_one_side() -> None:
    """Four players: seats 0 and 2 against 1 and 3; the fourth five is a double pair royal."""
    p = play_out(
        PARTNERSHIP,
        ["5S KS QS JS", "5H KH QH JH", "5D KD QD JD", "5C TC 9C 8C"],
        dealer=3,
        order="5S 5H 5D 5C",
    )
    assert labels(p)[:4] == [
        (1, "pair", 2),
        (2, "fifteen", 2),
        (2, "pair royal", 6),
        (3, "double pair royal", 12),
    ]
    side_0 = p.points_by_seat[0] + p.points_by_seat[2]
    side_1 = p.points_by_seat[1] + p.points_by_seat[3]
    assert p.points_by_side == (side_0, side_1)
    assert side_1 >= 14


def test_seven_card_game_plays_five_cards_each() -> None:
    p = play_out(SEVEN, ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H"], dealer=0)
    assert p.finished and len([a for a in p.actions if a.card is not None]) == 10


# -- the five-card game -------------------------------------------------------------------------


def test_five_card_game_play_ends_at_the_first_go() -> None:
    """rules-six-card-and-variants.txt: "In five-card cribbage the play ends immediately when one
    of the players scores for 31 or "go"." The cards still held are never laid."""
    p = Pegging(FIVE, ["KS 9S AS", "KH QH 8H"], dealer=1)
    p.play(0, "KS")
    p.play(1, "KH")  # pair
    p.play(0, "9S")  # 29
    assert p.go(1) == ()  # the pone may still lay the ace
    assert p.play(0, "AS") == (PegEvent(0, None, "go", 1),)
    assert p.finished and p.to_play is None
    assert p.hands == ((), (Card.from_str("QH"), Card.from_str("8H")))
    with pytest.raises(IllegalPlayError, match="over"):
        p.play(1, "8H")


def test_five_card_game_play_ends_at_thirty_one() -> None:
    p = play_out(FIVE, ["KS AS 2S", "KH QH 3H"], dealer=1, order="KS KH AS QH")
    assert p.finished
    assert labels(p) == [(1, "pair", 2), (1, "thirty-one", 2)]
    assert p.hands == ((Card.from_str("2S"),), (Card.from_str("3H"),))


def test_five_card_game_with_every_card_laid_pegs_one_for_last() -> None:
    p = play_out(FIVE, ["AS 2S 3S", "AH 2H 4H"], dealer=1)
    assert p.finished and p.hands == ((), ())
    assert p.events[-1].label == "last card"


# -- illegal plays ------------------------------------------------------------------------------


def test_a_card_not_held_is_refused() -> None:
    p = Pegging(SINGLES, ["KS QS 5S 4S", "AH 2H 3H 6H"], dealer=1)
    with pytest.raises(IllegalPlayError, match="Seat 0 does not hold AH: it is in seat 1's hand"):
        p.play(0, "AH")
    with pytest.raises(IllegalPlayError, match="does not hold 7C"):
        p.play(0, "7C")
    p.play(0, "KS")
    p.play(1, "AH")
    with pytest.raises(IllegalPlayError, match="KS: it has already been played"):
        p.play(0, "KS")


def test_playing_out_of_turn_is_refused() -> None:
    p = Pegging(SINGLES, ["KS QS 5S 4S", "AH 2H 3H 6H"], dealer=1)
    with pytest.raises(IllegalPlayError, match="It is seat 0's turn to play, not seat 1's"):
        p.play(1, "AH")
    with pytest.raises(IllegalPlayError, match="turn"):
        p.go(1)


def test_taking_the_count_past_thirty_one_is_refused() -> None:
    p = Pegging(SINGLES, ["KS QS 5S 4S", "KH QH 3H 6H"], dealer=1)
    p.play(0, "KS")
    p.play(1, "KH")
    p.play(0, "5S")
    with pytest.raises(IllegalPlayError, match="QH would take the count from 25 to 35"):
        p.play(1, "QH")
    assert p.count == 25 and p.to_play == 1  # nothing changed


def test_saying_go_while_holding_a_card_that_fits_is_refused() -> None:
    p = Pegging(SINGLES, ["KS QS 5S 4S", "KH QH 3H 6H"], dealer=1)
    with pytest.raises(IllegalPlayError, match="cannot say go"):
        p.go(0)


def test_nothing_can_be_played_after_the_play_is_over() -> None:
    p = play_out(SINGLES, ["KS QS 5S 4S", "KH QH 3H 6H"], dealer=1)
    with pytest.raises(IllegalPlayError, match="The play of this deal is over"):
        p.go(0)


def test_a_deal_must_have_one_full_hand_per_player_and_no_card_twice() -> None:
    with pytest.raises(InvalidHandError, match="played by 2 players, not 3"):
        Pegging(SINGLES, ["KS", "QS", "JS"], dealer=0)
    with pytest.raises(InvalidHandError, match="Seat 1 holds 3 cards"):
        Pegging(SINGLES, ["KS QS 5S 4S", "KH QH 3H"], dealer=0)
    with pytest.raises(DuplicateCardError, match="KS appears twice"):
        Pegging(SINGLES, ["KS QS 5S 4S", "KS QH 3H 6H"], dealer=0)
    with pytest.raises(ScoringError, match="not in seat 2"):
        Pegging(SINGLES, ["KS QS 5S 4S", "KH QH 3H 6H"], dealer=2)


def test_an_order_that_breaks_the_rules_is_refused() -> None:
    with pytest.raises(IllegalPlayError, match="turn"):
        play_out(SINGLES, ["KS QS 5S 4S", "KH QH 3H 6H"], dealer=1, order="KH")
    with pytest.raises(IllegalPlayError, match="over before"):
        play_out(FIVE, ["KS QS 2S", "KH QH 9H"], dealer=1, order="KS KH QS 2S")


def test_events_and_actions_are_immutable_records_that_read_as_their_constructor() -> None:
    p = play_out(SINGLES, ["5S 5D KS QS", "5H 5C KH QH"], dealer=1, order="5S 5H")
    event = p.events[0]
    assert event == PegEvent(1, Card.from_str("5H"), "pair", 2)
    assert eval(repr(event)) == event
    assert str(event) == "seat 1: pair for 2 (5H)"
    assert p.actions[0] == PegAction(0, Card.from_str("5S"))
    with pytest.raises(AttributeError):
        event.points = 3  # type: ignore[misc]


# -- properties of random deals ------------------------------------------------------------------


def _random_play(variant: Variant, rng: random.Random) -> Pegging:
    deck = list(DECK)
    rng.shuffle(deck)
    n = variant.hand_size
    hands = [deck[i * n : (i + 1) * n] for i in range(variant.players)]
    p = Pegging(variant, hands, dealer=rng.randrange(variant.players))
    while not p.finished:
        seat = p.to_play
        assert seat is not None
        legal = p.legal_cards()
        if legal:
            p.play(seat, rng.choice(legal))
        else:
            p.go(seat)
    return p


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.randoms(use_true_random=False))
def test_random_legal_plays_add_up_and_stay_under_the_bounds(key: str, rng: random.Random) -> None:
    variant = VARIANTS[key]
    p = _random_play(variant, rng)
    assert sum(e.points for e in p.events) == sum(p.points_by_side) == sum(p.points_by_seat)
    for side, points in enumerate(p.points_by_side):
        assert points <= max_pegging(variant, dealer=side == variant.side_of(p.dealer))
    assert sum(p.points_by_side) <= max_pegging_total(variant)
    laid = [a.card for a in p.actions if a.card is not None]
    ends = [e for e in p.events if e.label in ("go", "last card", "thirty-one")]
    assert ends, "every play ends with a go, thirty-one or the last card"
    assert [e.label for e in p.events].count("last card") <= 1
    if variant.one_go_only:
        assert len(ends) == 1
    else:
        assert len(laid) == variant.players * variant.hand_size
        assert ends[-1].label == "last card" or ends[-1].card == laid[-1]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.randoms(use_true_random=False))
def test_greedy_play_stays_under_the_bounds(key: str, rng: random.Random) -> None:
    variant = VARIANTS[key]
    deck = list(DECK)
    rng.shuffle(deck)
    # Stack the deck the way that pegs most: few ranks, so pairs and pair royals come often.
    deck.sort(key=lambda c: (c.rank % 3, c.rank))
    n = variant.hand_size
    hands = [deck[i :: variant.players][:n] for i in range(variant.players)]
    p = play_out(variant, hands, dealer=0)
    assert p.points_by_side[0] <= max_pegging(variant, dealer=True)
    assert sum(p.points_by_side) <= max_pegging_total(variant)


# =================================================================================================
# The bounds
# =================================================================================================

# A deal reaching each bound: (variant, whose points, hands by seat, the order the cards are laid).
# The dealer is the last seat, so seat 0 leads. The bound search printed these.
WITNESSES = [
    (SINGLES, "dealer", ["7S 7D 4S 4D", "7H 7C 4H 4C"], "7S 7H 7D 7C 4S 4H 4D 4C"),
    (SINGLES, "non_dealer", ["4S 5S 5D 5C", "6S 5H 7S 7H"], "4S 6S 5S 5H 5D 5C 7S 7H"),
    (SINGLES, "total", ["7S 7D 5S 5D", "7H 7C 5H 5C"], "7S 7H 7D 7C 5S 5H 5D 5C"),
    (
        THREE,
        "dealer",
        ["AS 3H 4S 5S", "2S 3D 4H 5H", "3S 3C 4D 4C"],
        "AS 2S 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H",
    ),
    (
        THREE,
        "non_dealer",
        ["7S 2D 4H 5H", "2S 2C 4D 4C", "2H 4S 5S 5D"],
        "7S 2S 2H 2D 2C 4S 4H 4D 4C 5S 5H 5D",
    ),
    (
        THREE,
        "total",
        ["5S 5C 2D 4H", "5H 2S 2C 4D", "5D 2H 4S 4C"],
        "5S 5H 5D 5C 2S 2H 2D 2C 4S 4H 4D 4C",
    ),
    (
        PARTNERSHIP,
        "dealer",
        ["2S 4S AS 7S", "2H 4H 7H 7C", "2D 4D AH 7D", "2C 4C AD AC"],
        "2S 2H 2D 2C 4S 4H 4D 4C AS AH AD AC 7S 7H 7D 7C",
    ),
    (
        PARTNERSHIP,
        "non_dealer",
        ["3S 6C AD AC", "6S AS 5S 4H", "6H TS 4D 4C", "6D AH 4S 5H"],
        "3S 6S 6H 6D 6C AS AH AD AC 5S TS 4S 4H 4D 4C 5H",
    ),
    (
        PARTNERSHIP,
        "total",
        ["5S 2S 7S 4S", "5H 2H 7H 4H", "5D 2D 7D 4D", "5C 2C 7C 4C"],
        "5S 5H 5D 5C 2S 2H 2D 2C 7S 7H 7D 7C 4S 4H 4D 4C",
    ),
    (FIVE, "dealer", ["TS 5H KS", "5S 5D 5C"], "TS 5S 5H 5D 5C"),
    (FIVE, "non_dealer", ["AS 7H 7C", "7S 7D KS"], "AS 7S 7H 7D 7C"),
    (FIVE, "total", ["AS 3S 3D", "2S 3H 3C"], "AS 2S 3S 3H 3D 3C"),
    (SEVEN, "dealer", ["2S 2D 3S 4H 9S", "2H 2C 4S 4D 4C"], "2S 2H 2D 2C 3S 4S 4H 4D 4C 9S"),
    (SEVEN, "non_dealer", ["AS 7H 7C 6H 6C", "7S 7D 6S 6D 8S"], "AS 7S 7H 7D 7C 6S 6H 6D 6C 8S"),
    (SEVEN, "total", ["3S 3D AS 4S 4D", "3H 3C 2S 4H 4C"], "3S 3H 3D 3C AS 2S 4S 4H 4D 4C"),
]


@pytest.mark.parametrize(
    ("variant", "whose", "hands", "order"),
    WITNESSES,
    ids=[f"{w[0].key}-{w[1]}" for w in WITNESSES],
)
def test_a_real_deal_reaches_each_pegging_bound(
    variant: Variant, whose: str, hands: list[str], order: str
) -> None:
    """The bounds are tight: refusing one point more never refuses a real deal."""
    dealer = variant.players - 1
    p = play_out(variant, hands, dealer=dealer, order=order)
    assert p.finished and [str(a.card) for a in p.actions if a.card] == order.split()
    bounds = pegging_bounds(variant)
    if whose == "total":
        assert sum(p.points_by_side) == bounds.total == max_pegging_total(variant)
    elif whose == "dealer":
        assert p.points_by_side[variant.side_of(dealer)] == bounds.dealer
    else:
        others = [
            pts for side, pts in enumerate(p.points_by_side) if side != dealer % variant.sides
        ]
        assert max(others) == bounds.non_dealer == max_pegging(variant, dealer=False)


def test_every_variant_has_a_bound_and_the_dealer_pegs_the_most() -> None:
    for key, variant in VARIANTS.items():
        bounds = PEGGING_BOUNDS[key]
        assert bounds == pegging_bounds(variant)
        assert bounds.non_dealer < bounds.dealer < bounds.total
        assert max_pegging(variant, dealer=True) == bounds.dealer


def test_a_league_playing_to_its_own_target_keeps_the_bound() -> None:
    import dataclasses

    short = dataclasses.replace(PARTNERSHIP, key="partnership-91", target=91)
    assert pegging_bounds(short) == PEGGING_BOUNDS["partnership-121"]


def test_a_game_with_no_known_bound_says_so() -> None:
    six_handed = Variant("six", "Six-handed cribbage", 6, 3, 5, 4, 0, 121)
    with pytest.raises(ScoringError, match="No pegging bound is known for Six-handed cribbage"):
        max_pegging(six_handed, dealer=True)


@pytest.mark.slow
def test_the_search_finds_the_five_card_bounds() -> None:
    """About 5 s."""
    assert compute_pegging_bounds(FIVE) == PEGGING_BOUNDS["five-card-61"]


@pytest.mark.slow
@pytest.mark.parametrize("key", ["singles-121", "seven-card-181"])
def test_the_search_recomputes_the_two_player_bounds(key: str) -> None:
    """About 20 s (six-card) and 50 s (seven-card): the search of docs/pegging-bounds.md."""
    assert compute_pegging_bounds(VARIANTS[key]) == PEGGING_BOUNDS[key]


def test_the_search_witness_replays_through_the_play() -> None:
    found = search_max_pegging(FIVE, seats=[1], dealer=0)
    assert (found.points, found.relaxed) == (17, 17)
    p = play_out(FIVE, found.hands, dealer=0, order=found.order)
    assert p.points_by_seat[1] == 17


def _every_play_max(variant: Variant, hands: Sequence[str], dealer: int) -> tuple[int, ...]:
    """The most each side pegs over every legal order of play of one deal (brute force)."""
    best = [0] * variant.sides
    total = [0]

    def walk(moves: list[Card | None]) -> None:
        p = Pegging(variant, hands, dealer=dealer)
        for move in moves:
            seat = p.to_play
            assert seat is not None
            if move is None:
                p.go(seat)
            else:
                p.play(seat, move)
        if p.finished:
            for side, pts in enumerate(p.points_by_side):
                best[side] = max(best[side], pts)
            total[0] = max(total[0], sum(p.points_by_side))
            return
        legal = p.legal_cards()
        for card in legal or (None,):
            walk([*moves, card])

    walk([])
    return (*best, total[0])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([FIVE, SINGLES]), st.randoms(use_true_random=False))
def test_no_order_of_play_of_a_deal_beats_the_bounds(variant: Variant, rng: random.Random) -> None:
    """Every legal order of play of a pegging-rich deal (few ranks), checked one by one."""
    ranks = rng.sample(range(1, 14), 3)
    cards = [c for c in DECK if c.rank in ranks]
    rng.shuffle(cards)
    n = variant.hand_size
    hands = [" ".join(str(c) for c in cards[i * n : (i + 1) * n]) for i in range(2)]
    *per_side, total = _every_play_max(variant, hands, dealer=1)
    bounds = pegging_bounds(variant)
    assert per_side[1] <= bounds.dealer
    assert per_side[0] <= bounds.non_dealer
    assert total <= bounds.total


def test_the_module_examples_run() -> None:
    """The >>> examples in scoring/pegging.py are part of its documentation: keep them true."""
    result = doctest.testmod(scoring.pegging, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 10


def test_bounds_read_as_their_constructor() -> None:
    bounds = PEGGING_BOUNDS["singles-121"]
    assert eval(repr(bounds)) == bounds == PeggingBounds(30, 24, 44)
