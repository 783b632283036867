"""Games recorded deal by deal: the order points are pegged, where a game ends, what is refused."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring.distribution as distribution_module
import scoring.game as game_module
from scoring.cards import DECK, Card, parse_cards
from scoring.distribution import KNOWN_TOTALS, possible_totals, show_distribution
from scoring.errors import GameOverError, InvalidDealError, ScoringError
from scoring.game import (
    DealEntry,
    DealResult,
    Game,
    GameState,
    Stage,
    Step,
    entry_rules,
    validate_deal,
)
from scoring.outcome import InvalidScoresError, SkunkLevel
from scoring.pegging import max_pegging, max_pegging_total, play_out
from scoring.show import score_show
from scoring.variants import VARIANTS, Variant, get_variant

PARTNERSHIP = get_variant("partnership-121")
SINGLES = get_variant("singles-121")
THREE = get_variant("three-player-121")
FIVE = get_variant("five-card-61")
SEVEN = get_variant("seven-card-181")

C = Card.from_str


# --- helpers --------------------------------------------------------------------------------------


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused deal must leave alone."""
    return (game.state, game.scores, game.deals, game.next_dealer, game.finished, game.winner)


def quiet_deal(game: Game, **changes: object) -> DealEntry:
    """A legal deal for the next dealer with no points at all, changed by ``changes``."""
    v = game.variant
    fields: dict[str, object] = {
        "pegging": (0,) * v.sides,
        "shows": dict.fromkeys(range(v.players), 0),
        "crib": 0,
    }
    fields.update(changes)
    return DealEntry(game.next_dealer, **fields)  # type: ignore[arg-type]


def advance(game: Game, scores: Sequence[int]) -> None:
    """Record legal deals (shows up to 15, cribs up to 18, nothing else) until ``scores``."""
    v = game.variant
    while game.scores != tuple(scores):
        need = [want - have for want, have in zip(scores, game.scores, strict=True)]
        assert all(n >= 0 for n in need)
        dealer = game.next_dealer
        shows = dict.fromkeys(range(v.players), 0)
        for seat in range(v.players):
            side = v.side_of(seat)
            shows[seat] = min(need[side], 15)  # 0 to 15: a show of any variant can make these
            need[side] -= shows[seat]
        crib = min(need[v.side_of(dealer)], 18)
        game.record(quiet_deal(game, shows=shows, crib=crib))


def game_at(variant: Variant, scores: Sequence[int], *, first_dealer: int = 0) -> Game:
    game = Game(variant, first_dealer=first_dealer)
    advance(game, scores)
    return game


def refused(game: Game, entry: DealEntry, field: str | None, words: str = "") -> InvalidDealError:
    """Record ``entry``, expect a refusal naming ``field``, and check nothing changed."""
    before = snapshot(game)
    with pytest.raises(InvalidDealError) as info:
        game.record(entry)
    assert info.value.field == field, str(info.value)
    assert words in str(info.value)
    assert snapshot(game) == before
    # validate_deal says the same without a Game
    with pytest.raises(InvalidDealError):
        validate_deal(game.state, entry)
    return info.value


# --- the counting order ---------------------------------------------------------------------------


def test_points_are_pegged_heels_play_shows_from_dealers_left_then_crib() -> None:
    game = Game(PARTNERSHIP, first_dealer=1)
    result = game.record(
        DealEntry(
            1,
            starter=C("JH"),
            pegging=(4, 6),
            shows={2: 8, 3: 4, 0: 12, 1: 6},
            crib=5,
        )
    )
    assert [(s.stage, s.side, s.points, s.seat) for s in result.steps] == [
        (Stage.HEELS, 1, 2, 1),
        (Stage.PEGGING, 0, 4, None),
        (Stage.PEGGING, 1, 6, None),
        (Stage.SHOW, 0, 8, 2),
        (Stage.SHOW, 1, 4, 3),
        (Stage.SHOW, 0, 12, 0),
        (Stage.SHOW, 1, 6, 1),
        (Stage.CRIB, 1, 5, 1),
    ]
    assert result.scores_before == (0, 0)
    assert result.scores_after == game.scores == (24, 23)
    assert result.points == (24, 23)
    assert result.index == 0
    assert not result.finished
    assert result.ended_at is None
    assert game.next_dealer == 2


def test_partners_share_one_score() -> None:
    game = Game(PARTNERSHIP)
    game.record(DealEntry(0, pegging=(0, 0), shows={0: 2, 1: 4, 2: 6, 3: 8}, crib=10))
    assert game.scores == (18, 12)


def test_three_players_each_keep_their_own_score() -> None:
    game = Game(THREE, first_dealer=2)
    result = game.record(DealEntry(2, pegging=(1, 2, 3), shows={0: 4, 1: 6, 2: 8}, crib=10))
    assert [s.seat for s in result.steps if s.stage is Stage.SHOW] == [0, 1, 2]
    assert game.scores == (5, 8, 21)
    assert game.next_dealer == 0


def test_the_deal_passes_clockwise_round_the_table() -> None:
    game = Game(PARTNERSHIP, first_dealer=2)
    dealers = []
    for _ in range(6):
        dealers.append(game.next_dealer)
        game.record(quiet_deal(game))
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [d.entry.dealer for d in game.deals] == dealers
    assert [d.index for d in game.deals] == list(range(6))


def test_heels_follows_the_starter_when_not_said() -> None:
    game = Game(SINGLES)
    game.record(quiet_deal(game, starter=C("JD")))
    assert game.scores == (2, 0)
    game.record(quiet_deal(game, starter=C("QD")))
    assert game.scores == (2, 0)
    game.record(quiet_deal(game, heels=True))  # no starter entered: heels as said
    assert game.scores == (4, 0)


def test_an_under_counted_hand_stands_because_we_play_no_muggins() -> None:
    game = Game(SINGLES)
    hands = {0: parse_cards("5H 5D 5S JC"), 1: parse_cards("2H 4D 6S 8C")}
    entry = quiet_deal(
        game,
        starter=C("5C"),
        hands=hands,
        shows={1: 0, 0: 20},
        crib=0,
        crib_cards=parse_cards("KH QH 9D AS"),
    )
    assert game.record(entry).scores_after == (20, 0)


def test_cards_that_score_exactly_the_claim_are_accepted() -> None:
    game = Game(SINGLES)
    starter = C("5C")
    hands = {0: parse_cards("5H 5D 5S JC"), 1: parse_cards("7H 7S 8H 8D")}
    crib_cards = parse_cards("2D 3D 4D 6D")
    shows = {seat: score_show(cards, starter).total for seat, cards in hands.items()}
    crib = score_show(crib_cards, starter, crib=True).total
    result = game.record(
        quiet_deal(
            game, starter=starter, hands=hands, crib_cards=crib_cards, shows=shows, crib=crib
        )
    )
    assert shows == {0: 29, 1: 12}
    assert result.scores_after == (29 + crib, 12)


# --- where the game ends --------------------------------------------------------------------------


def dealing(game: Game, seat: int) -> Game:
    """Record pointless deals until ``seat`` deals next."""
    while game.next_dealer != seat:
        game.record(quiet_deal(game))
    return game


def test_a_game_can_end_on_his_heels() -> None:
    game = dealing(game_at(SINGLES, (119, 100)), 0)
    result = game.record(DealEntry(0, starter=C("JS"), pegging=(0, 0)))
    assert result.finished
    assert result.ended_at == Step(Stage.HEELS, side=0, points=2, seat=0)
    assert game.ended_at == result.ended_at
    assert game.finished and game.winner == 0
    assert game.scores == (121, 100)
    assert game.outcome().margin == 21


def test_after_heels_wins_nothing_else_of_the_deal_counts() -> None:
    game = dealing(game_at(SINGLES, (119, 0)), 0)
    refused(
        game,
        DealEntry(0, starter=C("JS"), pegging=(0, 3)),
        "pegging.1",
        "The game ended on his heels",
    )
    refused(game, DealEntry(0, starter=C("JS"), shows={1: 4}), "shows.1", "doesn't count")
    refused(game, DealEntry(0, starter=C("JS"), crib=4), "crib", "doesn't count")
    # an empty pegging is fine too
    assert game.record(DealEntry(0, starter=C("JS"))).ended_at is not None


def test_a_game_can_end_in_the_play() -> None:
    game = game_at(PARTNERSHIP, (115, 100))
    result = game.record(DealEntry(game.next_dealer, pegging=(7, 5)))
    assert result.ended_at == Step(Stage.PEGGING, side=0, points=7)
    assert result.steps[-1] == result.ended_at  # side 1's 5 came before side 0 went out
    assert game.scores == (122, 105)
    assert game.winner == 0
    outcome = game.outcome()
    assert (outcome.winner, outcome.margin, outcome.skunk_level) == (0, 16, SkunkLevel.NONE)


def test_after_going_out_in_the_play_no_show_counts() -> None:
    game = game_at(PARTNERSHIP, (115, 100))
    first = PARTNERSHIP.show_order(game.next_dealer)[0]
    error = refused(
        game,
        DealEntry(game.next_dealer, pegging=(7, 5), shows={first: 4}),
        f"shows.{first}",
        "reached 121 in the play",
    )
    assert "doesn't count" in str(error)
    refused(game, DealEntry(game.next_dealer, pegging=(7, 5), crib=0), "crib")


def test_both_sides_reaching_the_target_in_one_play_is_refused() -> None:
    game = game_at(PARTNERSHIP, (115, 117))
    refused(
        game,
        DealEntry(game.next_dealer, pegging=(6, 4)),
        "pegging",
        "Only one side can reach 121 in the play",
    )
    # The same deal entered up to the moment the first side went out is accepted.
    assert game.record(DealEntry(game.next_dealer, pegging=(6, 3))).winner == 0


def test_a_game_can_end_mid_show_and_later_shows_and_the_crib_are_refused() -> None:
    game = game_at(PARTNERSHIP, (100, 112))
    dealer = game.next_dealer
    order = PARTNERSHIP.show_order(dealer)
    going_out = next(seat for seat in order if PARTNERSHIP.side_of(seat) == 1)
    later = order[order.index(going_out) + 1 :]
    shows = {seat: 6 for seat in order[: order.index(going_out)]}
    shows[going_out] = 12  # 112 + 12 = 124 (side 1 pegged nothing)
    for seat in later:
        refused(
            game,
            DealEntry(dealer, pegging=(0, 0), shows={**shows, seat: 0}),
            f"shows.{seat}",
            f"on seat {going_out}'s show",
        )
    refused(game, DealEntry(dealer, pegging=(0, 0), shows=shows, crib=0), "crib")
    result = game.record(DealEntry(dealer, pegging=(0, 0), shows=shows))
    assert result.ended_at == Step(Stage.SHOW, side=1, points=12, seat=going_out)
    assert game.winner == 1
    assert game.scores[1] == 124


def test_the_first_to_count_wins_even_if_the_dealer_would_have_counted_more() -> None:
    # Singles: seat 1 deals, so seat 0 counts first.
    game = dealing(game_at(SINGLES, (118, 110)), 1)
    refused(game, DealEntry(1, pegging=(0, 0), shows={0: 4, 1: 29}), "shows.1")
    result = game.record(DealEntry(1, pegging=(0, 0), shows={0: 4}))
    assert result.winner == 0


def test_the_crib_can_win_the_game() -> None:
    game = game_at(SINGLES, (110, 110))
    dealer = game.next_dealer
    result = game.record(DealEntry(dealer, pegging=(0, 0), shows={0: 0, 1: 0}, crib=12))
    assert result.ended_at is not None and result.ended_at.stage is Stage.CRIB
    assert game.winner == SINGLES.side_of(dealer)


def test_nothing_is_recorded_after_the_game_is_over() -> None:
    game = game_at(SINGLES, (115, 100))
    game.record(DealEntry(game.next_dealer, pegging=(6, 0)))
    before = snapshot(game)
    with pytest.raises(GameOverError, match="The game is over: side 0 reached 121"):
        game.record(quiet_deal(game))
    assert snapshot(game) == before


def test_outcome_before_the_end_is_refused() -> None:
    game = game_at(SINGLES, (100, 100))
    with pytest.raises(InvalidScoresError, match="isn't over"):
        game.outcome()


def test_outcome_uses_the_leagues_skunk_margins() -> None:
    game = game_at(PARTNERSHIP, (115, 91))
    game.record(DealEntry(game.next_dealer, pegging=(6, 0)))
    assert game.outcome().skunk_level is SkunkLevel.NONE
    assert game.outcome(skunk_margin=30).skunk_level is SkunkLevel.SKUNK


# --- variants -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first_dealer", "scores"), [(0, (0, 3)), (1, (3, 0))])
def test_five_card_game_gives_the_first_non_dealer_three_for_last(
    first_dealer: int, scores: tuple[int, int]
) -> None:
    game = Game(FIVE, first_dealer=first_dealer)
    assert game.scores == game.starting_scores == scores
    game.record(quiet_deal(game))
    game.record(quiet_deal(game))
    assert game.scores == scores  # only once, before the first deal


def test_five_card_game_to_61() -> None:
    game = Game(FIVE)
    advance(game, (55, 50))
    result = game.record(DealEntry(game.next_dealer, pegging=(6, 0)))
    assert result.winner == 0
    assert game.outcome().margin == 11


def test_five_card_hands_of_three_can_never_show_16_to_19() -> None:
    game = Game(FIVE)
    for points in (16, 17, 18, 19, 21):
        refused(game, quiet_deal(game, shows={0: 0, 1: points}), "shows.1", f"never score {points}")
    game.record(quiet_deal(game, shows={0: 20, 1: 15}, crib=29))  # the crib has four cards
    assert game.scores == (49, 18)


def test_seven_card_game_to_181() -> None:
    game = Game(SEVEN)
    for points in (35, 41, 45, 47):
        refused(game, quiet_deal(game, shows={0: 0, 1: points}), "shows.1", f"never score {points}")
    game.record(quiet_deal(game, shows={0: 46, 1: 40}))
    advance(game, (170, 150))
    result = game.record(DealEntry(game.next_dealer, pegging=(11, 3)))
    assert result.winner == 0
    assert game.scores == (181, 153)
    assert game.outcome().target == 181


def test_a_league_can_play_to_its_own_target() -> None:
    game = Game(PARTNERSHIP, target=61)
    advance(game, (55, 20))
    game.record(DealEntry(game.next_dealer, pegging=(6, 0)))
    assert game.finished
    assert game.outcome().margin == 41
    assert entry_rules(PARTNERSHIP, target=61)["target"] == 61


# --- refusals, each with the game left unchanged --------------------------------------------------


@pytest.mark.parametrize("points", [19, 25, 26, 27, 30, 31, 100, -1])
def test_a_hand_can_never_score_impossible_totals(points: int) -> None:
    game = game_at(PARTNERSHIP, (30, 40))
    error = refused(game, quiet_deal(game, shows={0: 0, 1: 0, 2: points, 3: 0}), "shows.2")
    assert str(error).startswith(f"A hand can never score {points}")


def test_impossible_hand_message_is_a_plain_sentence() -> None:
    game = Game(PARTNERSHIP)
    error = refused(game, quiet_deal(game, shows={0: 0, 1: 0, 2: 19, 3: 0}), "shows.2")
    assert str(error) == "A hand can never score 19."
    error = refused(game, quiet_deal(game, shows={0: 0, 1: 0, 2: 30, 3: 0}), "shows.2")
    assert str(error) == "A hand can never score 30: the most it can make is 29."


@pytest.mark.parametrize("points", [19, 25, 26, 27, 30, -2])
def test_a_crib_can_never_score_impossible_totals(points: int) -> None:
    game = Game(SINGLES)
    error = refused(game, quiet_deal(game, crib=points), "crib")
    assert str(error).startswith(f"A crib can never score {points}")


@pytest.mark.parametrize("bad", [True, False, "8", 8.0, None])
def test_a_show_must_be_a_whole_number_and_not_yes_or_no(bad: object) -> None:
    game = Game(PARTNERSHIP)
    refused(game, quiet_deal(game, shows={0: 0, 1: 0, 2: bad, 3: 0}), "shows.2", "whole number")


@pytest.mark.parametrize("bad", [True, "3", 3.0])
def test_pegging_and_crib_must_be_whole_numbers(bad: object) -> None:
    game = Game(SINGLES)
    refused(game, quiet_deal(game, pegging=(0, bad)), "pegging.1", "whole number")
    refused(game, quiet_deal(game, crib=bad), "crib", "whole number")


def test_pegging_can_not_be_negative() -> None:
    game = Game(PARTNERSHIP)
    refused(game, quiet_deal(game, pegging=(0, -1)), "pegging.1", "can't be negative")


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_pegging_above_what_a_side_can_peg_is_refused(variant: Variant) -> None:
    game = Game(variant)
    dealer_side = variant.side_of(game.next_dealer)
    other_side = (dealer_side + 1) % variant.sides
    most_dealer = max_pegging(variant, dealer=True)
    most_other = max_pegging(variant, dealer=False)

    pegging = [0] * variant.sides
    pegging[dealer_side] = most_dealer + 1
    refused(game, quiet_deal(game, pegging=tuple(pegging)), f"pegging.{dealer_side}", "at most")
    pegging = [0] * variant.sides
    pegging[other_side] = most_other + 1
    refused(game, quiet_deal(game, pegging=tuple(pegging)), f"pegging.{other_side}", "at most")

    pegging = [0] * variant.sides
    pegging[dealer_side] = most_dealer
    assert game.check(quiet_deal(game, pegging=tuple(pegging))).points[dealer_side] == most_dealer


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_pegging_of_all_sides_together_is_bounded(variant: Variant) -> None:
    total = max_pegging_total(variant)
    game = Game(variant)
    dealer_side = variant.side_of(game.next_dealer)
    caps = [max_pegging(variant, dealer=side == dealer_side) for side in range(variant.sides)]
    if sum(caps) <= total:
        pytest.skip("every side at its own most is still within the total")
    pegging = list(caps)
    refused(game, quiet_deal(game, pegging=tuple(pegging)), "pegging", "together")


def test_pegging_needs_one_number_per_side() -> None:
    game = Game(PARTNERSHIP)
    refused(game, quiet_deal(game, pegging=(1, 2, 3)), "pegging", "both sides")
    refused(game, quiet_deal(game, pegging=()), "pegging", "both sides")
    three = Game(THREE)
    refused(three, quiet_deal(three, pegging=(1, 2)), "pegging", "each of the 3 sides")


def test_heels_when_the_starter_is_not_a_jack_is_refused() -> None:
    game = Game(SINGLES)
    error = refused(game, quiet_deal(game, starter=C("7H"), heels=True), "heels")
    assert str(error) == "The starter is 7H, not a Jack: there is no two for his heels."


def test_no_heels_when_the_starter_is_a_jack_is_refused() -> None:
    game = Game(SINGLES)
    refused(game, quiet_deal(game, starter=C("JH"), heels=False), "heels", "two for his heels")


def test_heels_must_be_yes_or_no() -> None:
    game = Game(SINGLES)
    refused(game, quiet_deal(game, heels=1), "heels", "yes or no")


def test_a_show_above_what_the_cards_score_is_refused() -> None:
    game = Game(SINGLES)
    hands = {1: parse_cards("5H 5D 5S JC")}
    actual = score_show(hands[1], C("4C")).total
    error = refused(
        game,
        quiet_deal(game, starter=C("4C"), hands=hands, shows={0: 0, 1: actual + 1}),
        "shows.1",
        f"make {actual}, so {actual + 1} can't be claimed",
    )
    assert str(error).startswith("Seat 1's hand: 5H 5D 5S JC with 4C turned make")


def test_a_crib_above_what_its_cards_score_is_refused() -> None:
    game = Game(SINGLES)
    crib_cards = parse_cards("2H 4H 6H 8H")  # a four-card flush counts nothing in the crib
    refused(
        game,
        quiet_deal(game, starter=C("KS"), crib_cards=crib_cards, crib=4),
        "crib",
        "make 0, so 4 can't be claimed",
    )


def test_a_card_entered_twice_is_refused() -> None:
    game = Game(PARTNERSHIP)
    starter = C("5C")
    refused(
        game,
        quiet_deal(game, starter=starter, hands={2: parse_cards("5C 6C 7C 8C")}),
        "hands.2",
        "5C is entered twice (the starter and seat 2's hand)",
    )
    refused(
        game,
        quiet_deal(
            game,
            starter=starter,
            hands={0: parse_cards("AH 2H 3H 4H"), 3: parse_cards("4H 6H 7H 8H")},
        ),
        "hands.3",
        "4H is entered twice (seat 0's hand and seat 3's hand)",
    )
    refused(
        game,
        quiet_deal(
            game,
            starter=starter,
            hands={1: parse_cards("AH 2H 3H 4H")},
            crib_cards=parse_cards("KD QD 2H 9S"),
        ),
        "crib_cards",
        "2H is entered twice (seat 1's hand and the crib)",
    )


def test_the_wrong_number_of_cards_is_refused() -> None:
    game = Game(PARTNERSHIP)
    refused(
        game,
        quiet_deal(game, starter=C("5C"), hands={1: parse_cards("AH 2H 3H 4H 6H")}),
        "hands.1",
        "Each player keeps 4 cards for the show: seat 1's hand has 5.",
    )
    refused(
        game,
        quiet_deal(game, starter=C("5C"), crib_cards=parse_cards("AH 2H 3H")),
        "crib_cards",
        "The crib has 4 cards, not 3.",
    )
    five = Game(FIVE)
    refused(
        five,
        quiet_deal(five, starter=C("5C"), hands={0: parse_cards("AH 2H 3H 4H")}),
        "hands.0",
        "keeps 3 cards",
    )


def test_cards_without_a_starter_are_refused() -> None:
    game = Game(SINGLES)
    refused(
        game,
        quiet_deal(game, hands={0: parse_cards("AH 2H 3H 4H")}),
        "starter",
        "Enter the starter too",
    )


def test_something_that_is_not_a_card_is_refused() -> None:
    game = Game(SINGLES)
    refused(
        game,
        quiet_deal(game, starter=C("5C"), hands={0: ("AH", C("2H"), C("3H"), C("4H"))}),
        "hands.0",
        "is not a card",
    )
    refused(game, quiet_deal(game, starter="5C"), "starter", "must be a card")


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_the_wrong_dealer_is_refused(first_dealer: int) -> None:
    game = Game(PARTNERSHIP, first_dealer=first_dealer)
    game.record(quiet_deal(game))
    expected = (first_dealer + 1) % 4
    wrong = (expected + 2) % 4
    error = refused(game, DealEntry(wrong, pegging=(0, 0), shows={}, crib=0), "dealer")
    assert str(error) == (
        f"The deal passes clockwise: seat {expected} deals this hand, not seat {wrong}."
    )


@pytest.mark.parametrize("dealer", [4, -1, True, "0"])
def test_a_dealer_who_is_not_at_the_table_is_refused(dealer: object) -> None:
    game = Game(PARTNERSHIP)
    refused(game, DealEntry(dealer, pegging=(0, 0)), "dealer")  # type: ignore[arg-type]


def test_a_missing_show_is_refused_while_the_game_goes_on() -> None:
    game = Game(PARTNERSHIP)
    error = refused(game, quiet_deal(game, shows={0: 4, 1: 4, 3: 4}), "shows.2")
    assert str(error) == "Seat 2's show is missing: the game wasn't over yet."


def test_a_missing_crib_is_refused_while_the_game_goes_on() -> None:
    game = Game(PARTNERSHIP)
    refused(game, quiet_deal(game, crib=None), "crib", "The crib's count is missing")


@pytest.mark.parametrize("seat", [4, 7, -1])
def test_a_show_for_a_seat_that_does_not_exist_is_refused(seat: int) -> None:
    game = Game(PARTNERSHIP)
    refused(
        game,
        quiet_deal(game, shows={0: 0, 1: 0, 2: 0, 3: 0, seat: 4}),
        f"shows.{seat}",
        f"There is no seat {seat} at this table",
    )


def test_a_hand_for_a_seat_that_does_not_exist_is_refused() -> None:
    game = Game(SINGLES)
    refused(
        game,
        quiet_deal(game, starter=C("5C"), hands={2: parse_cards("AH 2H 3H 4H")}),
        "hands.2",
        "There is no seat 2",
    )


def test_containers_of_the_wrong_shape_are_refused_when_the_entry_is_made() -> None:
    with pytest.raises(InvalidDealError) as info:
        DealEntry(0, pegging=5)  # type: ignore[arg-type]
    assert info.value.field == "pegging"
    with pytest.raises(InvalidDealError) as info:
        DealEntry(0, shows=[4, 5])  # type: ignore[arg-type]
    assert info.value.field == "shows"
    with pytest.raises(InvalidDealError) as info:
        DealEntry(0, hands={0: "AH 2H 3H 4H"})  # type: ignore[dict-item]
    assert info.value.field == "hands.0"
    with pytest.raises(InvalidDealError) as info:
        DealEntry(0, crib_cards="AH 2H 3H 4H")  # type: ignore[arg-type]
    assert info.value.field == "crib_cards"


def test_a_game_can_not_start_with_a_dealer_who_is_not_at_the_table() -> None:
    with pytest.raises(InvalidDealError) as info:
        Game(SINGLES, first_dealer=2)
    assert info.value.field == "first_dealer"
    with pytest.raises(ScoringError):
        Game(SINGLES, target=0)


def test_replay_says_which_deal_was_refused() -> None:
    game = Game(SINGLES)
    ok = quiet_deal(game)
    bad = DealEntry(1, pegging=(0, 0), shows={0: 19, 1: 0}, crib=0)
    with pytest.raises(InvalidDealError) as info:
        Game.replay(SINGLES, [ok, bad])
    assert info.value.field == "shows.0"
    assert "(in deal 2 of the game)" in info.value.__notes__


# --- checking without recording -------------------------------------------------------------------


def test_checking_a_deal_changes_nothing() -> None:
    game = game_at(PARTNERSHIP, (50, 60))
    before = snapshot(game)
    entry = quiet_deal(game, pegging=(3, 4))
    checked = game.check(entry)
    assert snapshot(game) == before
    assert checked.scores_after == (53, 64)
    assert validate_deal(game, entry) == checked
    assert game.record(entry) == checked


def test_a_league_can_check_a_deal_from_stored_scores_alone() -> None:
    state = GameState(PARTNERSHIP, (100, 118), first_dealer=1, deals=5)
    assert state.next_dealer == 2
    result = validate_deal(state, DealEntry(2, pegging=(0, 3)))
    assert result.winner == 1
    assert result.after.deals == 6
    with pytest.raises(InvalidDealError):
        validate_deal(state, DealEntry(1, pegging=(0, 3)))


def test_game_state_refuses_impossible_stored_scores() -> None:
    with pytest.raises(ScoringError):
        GameState(PARTNERSHIP, (121, 125))
    with pytest.raises(ScoringError):
        GameState(PARTNERSHIP, (1, 2, 3))
    with pytest.raises(ScoringError):
        GameState(PARTNERSHIP, (-1, 0))


def test_entry_rules_tell_the_page_what_can_be_typed() -> None:
    rules = entry_rules("partnership-121")
    json.dumps(rules)
    assert rules["target"] == 121
    assert rules["side_of_seat"] == [0, 1, 0, 1]
    assert set(range(30)) - set(rules["show_totals"]) == {19, 25, 26, 27}
    assert set(range(30)) - set(rules["crib_totals"]) == {19, 25, 26, 27}
    assert rules["pegging_max"]["dealer"] == max_pegging(PARTNERSHIP, dealer=True)
    assert rules["pegging_max"]["non_dealer"] == max_pegging(PARTNERSHIP, dealer=False)
    assert rules["pegging_max"]["total"] == max_pegging_total(PARTNERSHIP)
    assert rules["three_for_last_points"] == 0
    five = entry_rules(FIVE)
    assert max(five["show_totals"]) == 20
    assert max(five["crib_totals"]) == 29
    assert five["three_for_last_points"] == 3
    assert max(entry_rules(SEVEN)["show_totals"]) == 46


# --- the value types ------------------------------------------------------------------------------


def test_a_deal_entry_never_changes_once_made() -> None:
    shows = {0: 4, 1: 6}
    pegging = [1, 2]
    entry = DealEntry(0, pegging=pegging, shows=shows, crib=2)  # type: ignore[arg-type]
    shows[0] = 29
    pegging.append(5)
    assert entry.shows == {0: 4, 1: 6}
    assert entry.pegging == (1, 2)
    with pytest.raises(TypeError):
        entry.shows[0] = 29  # type: ignore[index]
    assert hash(entry) == hash(DealEntry(0, pegging=(1, 2), shows={1: 6, 0: 4}, crib=2))


def test_a_deal_entry_repr_is_its_constructor() -> None:
    entry = DealEntry(
        1,
        starter=C("JH"),
        pegging=(3, 5),
        shows={0: 8, 1: 6},
        crib=4,
        hands={0: parse_cards("5H 5D 5S JC")},
        crib_cards=parse_cards("2D 3D 4D 6D"),
    )
    assert eval(repr(entry), {"DealEntry": DealEntry, "Card": Card}) == entry


def test_a_deal_entry_round_trips_through_json() -> None:
    entry = DealEntry(
        1,
        starter=C("JH"),
        heels=True,
        pegging=(3, 5),
        shows={0: 8, 1: 6},
        crib=4,
        hands={0: parse_cards("5H 5D 5S JC")},
        crib_cards=parse_cards("2D 3D 4D 6D"),
    )
    assert DealEntry.from_dict(json.loads(json.dumps(entry.as_dict()))) == entry


def test_a_bad_card_in_a_json_deal_names_its_field() -> None:
    with pytest.raises(InvalidDealError) as info:
        DealEntry.from_dict({"dealer": 0, "hands": {"1": ["5H", "5X", "2C", "3C"]}})
    assert info.value.field == "hands.1"
    with pytest.raises(InvalidDealError) as info:
        DealEntry.from_dict({"dealer": 0, "shows": {"north": 4}})
    assert info.value.field == "shows.north"


def test_game_repr_says_where_it_stands() -> None:
    game = Game(SINGLES)
    assert repr(game) == "<Game singles-121, 0 deals, scores 0-0, seat 0 deals next>"
    assert repr(GameState.start("five-card-61")) == (
        "GameState(get_variant('five-card-61'), scores=(0, 3), first_dealer=0, deals=0)"
    )


# --- whole games from real deals ------------------------------------------------------------------


@dataclass
class FullDeal:
    """Every number of a deal as if nobody went out: what the table would count."""

    dealer: int
    starter: Card
    hands: dict[int, tuple[Card, ...]]
    crib_cards: tuple[Card, ...]
    pegs: list[tuple[int, int]]  # (side, points) for each score of the play, in order
    shows: dict[int, int]
    crib: int


def deal_cards(variant: Variant, dealer: int, rng: random.Random) -> FullDeal:
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {}
    for seat in range(variant.players):
        hands[seat] = tuple(deck[: variant.hand_size])
        del deck[: variant.hand_size]
    crib_cards = tuple(deck[: variant.crib_size])
    del deck[: variant.crib_size]
    starter = deck.pop()
    shows = {seat: score_show(cards, starter).total for seat, cards in hands.items()}
    crib = score_show(crib_cards, starter, crib=True).total
    # The play, card by card, by the pegging module (each player lays what pegs most at once).
    play = play_out(variant, [hands[seat] for seat in range(variant.players)], dealer=dealer)
    pegs = [(variant.side_of(event.seat), event.points) for event in play.events]
    return FullDeal(dealer, starter, hands, crib_cards, pegs, shows, crib)


def count_out(variant: Variant, scores: list[int], deal: FullDeal) -> tuple[DealEntry, str | None]:
    """The entry a captain writes for ``deal``, stopping where a side reaches the target.

    Independent of the engine: the table's own arithmetic, written out the long way.
    Returns the entry and where the game ended ("heels", "pegging", "shows.N", "crib" or None).
    """
    target = variant.target
    dealer_side = variant.side_of(deal.dealer)
    cards = {"starter": deal.starter, "hands": deal.hands, "crib_cards": deal.crib_cards}
    if deal.starter.rank == 11:
        scores[dealer_side] += 2
        if scores[dealer_side] >= target:
            return DealEntry(deal.dealer, **cards), "heels"  # type: ignore[arg-type]
    pegging = [0] * variant.sides
    for side, points in deal.pegs:
        pegging[side] += points
        scores[side] += points
        if scores[side] >= target:  # the play stops here: later pegs never happen
            return DealEntry(deal.dealer, pegging=tuple(pegging), **cards), "pegging"  # type: ignore[arg-type]
    shows: dict[int, int] = {}
    for i in range(1, variant.players + 1):
        seat = (deal.dealer + i) % variant.players
        shows[seat] = deal.shows[seat]
        scores[seat % variant.sides] += deal.shows[seat]
        if scores[seat % variant.sides] >= target:
            entry = DealEntry(deal.dealer, pegging=tuple(pegging), shows=shows, **cards)  # type: ignore[arg-type]
            return entry, f"shows.{seat}"
    scores[dealer_side] += deal.crib
    entry = DealEntry(deal.dealer, pegging=tuple(pegging), shows=shows, crib=deal.crib, **cards)  # type: ignore[arg-type]
    return entry, ("crib" if scores[dealer_side] >= target else None)


def play_game(variant: Variant, seed: int, first_dealer: int = 0) -> tuple[Game, list[int], str]:
    rng = random.Random(seed)
    game = Game(variant, first_dealer=first_dealer)
    scores = list(game.starting_scores)
    dealer = first_dealer
    for _ in range(200):
        deal = deal_cards(variant, dealer, rng)
        entry, ended = count_out(variant, scores, deal)
        result = game.record(entry)
        assert result.scores_after == tuple(scores)
        if ended is None:
            assert not result.finished
            dealer = (dealer + 1) % variant.players
            continue
        assert result.ended_at is not None
        assert result.ended_at.field.split(".")[0] == ended.split(".")[0]
        if ended.startswith("shows."):
            assert result.ended_at.field == ended
        return game, scores, ended
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("seed", range(8))
def test_a_partnership_game_from_real_deals_ends_at_exactly_the_right_moment(seed: int) -> None:
    game, scores, _ = play_game(PARTNERSHIP, seed, first_dealer=seed % 4)
    assert game.finished
    assert game.scores == tuple(scores)
    winner = game.winner
    assert winner is not None and scores[winner] >= 121
    assert all(s < 121 for side, s in enumerate(scores) if side != winner)
    outcome = game.outcome(skunk_margin=30)
    assert outcome.margin == 121 - max(s for side, s in enumerate(scores) if side != winner)
    # Nothing more can be recorded, and a replay of the same deals lands in the same place.
    with pytest.raises(GameOverError):
        game.record(DealEntry(game.next_dealer, pegging=(0, 0)))
    again = Game.replay(PARTNERSHIP, game.entries, first_dealer=seed % 4)
    assert again.scores == game.scores
    assert again.deals == game.deals


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_every_variant_plays_to_its_target_from_real_deals(variant: Variant) -> None:
    game, scores, _ = play_game(variant, 2026)
    assert game.winner is not None
    assert scores[game.winner] >= variant.target


def test_games_end_in_every_way_over_many_seeds() -> None:
    seen = set()
    for seed in range(60):
        _, _, ended = play_game(SINGLES, seed)
        seen.add(ended.split(".")[0])
    assert {"pegging", "shows", "crib"} <= seen


# --- properties -----------------------------------------------------------------------------------

small_points = st.integers(-2, 35) | st.sampled_from([True, "4", 4.5, None])


@st.composite
def any_entry(draw: st.DrawFn, variant: Variant) -> DealEntry:
    """Entries a careless or mischievous captain might send: often legal, often not."""
    dealer = draw(st.integers(-1, variant.players))
    pegging = tuple(draw(st.lists(st.integers(-1, 40), min_size=0, max_size=variant.sides + 1)))
    seats = st.integers(-1, variant.players)
    shows = draw(st.dictionaries(seats, small_points, max_size=variant.players + 1))
    crib = draw(st.none() | small_points)
    starter = draw(st.none() | st.sampled_from(DECK))
    heels = draw(st.none() | st.booleans())
    return DealEntry(
        dealer,
        starter=starter,
        heels=heels,
        pegging=pegging,
        shows=shows,  # type: ignore[arg-type]
        crib=crib,  # type: ignore[arg-type]
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_refused_deal_never_changes_the_game(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from([SINGLES, PARTNERSHIP, THREE, FIVE]))
    start = data.draw(st.lists(st.integers(0, 120), min_size=variant.sides, max_size=variant.sides))
    target = variant.target
    start = [min(s, target - 1) for s in start]
    game = Game(variant)
    start = [max(s, b) for s, b in zip(start, game.starting_scores, strict=True)]
    advance(game, start)
    for _ in range(3):
        before = snapshot(game)
        entry = data.draw(any_entry(variant))
        try:
            result = game.record(entry)
        except InvalidDealError:
            assert snapshot(game) == before
            continue
        assert isinstance(result, DealResult)
        assert result.scores_before == before[1]
        assert all(a >= b for a, b in zip(result.scores_after, result.scores_before, strict=True))
        assert sum(result.points) == sum(step.points for step in result.steps)
        assert game.deals[-1] == result
        if result.finished:
            assert result.ended_at == result.steps[-1]
            break


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([SINGLES, PARTNERSHIP, THREE, FIVE]))
def test_random_real_games_end_once_with_one_winner(seed: int, variant: Variant) -> None:
    game, _, _ = play_game(variant, seed, first_dealer=seed % variant.players)
    assert sum(1 for s in game.scores if s >= variant.target) == 1
    assert game.outcome().winner == game.winner
    # every deal but the last left the game going
    assert [d.finished for d in game.deals] == [False] * (len(game.deals) - 1) + [True]


def test_replay_is_the_same_as_recording_one_by_one() -> None:
    game, _, _ = play_game(THREE, 7)
    replayed = Game.replay(THREE, game.entries)
    assert replayed.scores == game.scores
    assert replayed.deals == game.deals
    assert replayed.ended_at == game.ended_at


# --- score limits without counting on a captain's request ---------------------------------------


@pytest.mark.parametrize("key", sorted(KNOWN_TOTALS))
def test_the_stored_show_totals_are_the_counted_ones(key: tuple[int, bool]) -> None:
    cards, crib = key
    assert possible_totals(cards, crib=crib) == frozenset(show_distribution(cards, crib=crib))


def test_no_variant_counts_its_show_totals_on_its_first_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fresh web worker checks its first deal of every variant from the stored table: the
    0.25 to 0.9 s enumeration of every hand never runs on a captain's request."""

    def counted(*args: object, **kwargs: object) -> dict[int, int]:
        raise AssertionError("show totals were counted, not read from KNOWN_TOTALS")

    monkeypatch.setattr(distribution_module, "show_distribution", counted)
    game_module._limits.cache_clear()
    try:
        for variant in VARIANTS.values():
            rules = entry_rules(variant)
            assert (19 in rules["show_totals"]) == (variant.hand_size == 5)
    finally:
        game_module._limits.cache_clear()
