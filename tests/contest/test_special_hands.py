"""The special hands named from a game's cards: 24, 28 and 29 and four of a kind."""

import pytest

from contest.special_hands import SpecialHand, special_hands


def deal(hands, starter, dealer=1):
    return {"dealer": dealer, "starter": starter, "cards": hands}


@pytest.mark.parametrize(
    ("hands", "starter", "want"),
    [
        (
            {"0": ["5H", "5D", "5C", "JS"]},
            "5S",
            [SpecialHand(1, 0, False, 29, ("29", "four_of_a_kind"))],
        ),
        (
            {"1": ["5H", "5D", "5C", "KS"]},
            "5S",
            [SpecialHand(1, 1, False, 28, ("28", "four_of_a_kind"))],
        ),
        ({"0": ["7H", "7D", "8C", "8S"]}, "9H", [SpecialHand(1, 0, False, 24, ("24",))]),
        (
            {"0": ["2H", "2D", "2C", "2S"]},
            "KH",
            [SpecialHand(1, 0, False, 12, ("four_of_a_kind",))],
        ),
        # The crib is the dealer's (seat 1 here).
        (
            {"crib": ["5H", "5D", "5C", "JS"]},
            "5S",
            [SpecialHand(1, 1, True, 29, ("29", "four_of_a_kind"))],
        ),
        # An ordinary hand, and a hand of six before the discard: nothing.
        ({"0": ["AH", "3D", "9C", "QS"]}, "6S", []),
        ({"0": ["5H", "5D", "5C", "JS", "2H", "3H"]}, "5S", []),
    ],
)
def test_each_special_hand_is_named(hands, starter, want):
    assert special_hands([deal(hands, starter)]) == want


def test_deals_without_cards_are_passed_over_and_deals_are_numbered_from_one():
    plain = {"dealer": 0, "starter": None, "cards": None}
    found = special_hands([plain, deal({"0": ["7H", "7D", "8C", "8S"]}, "9H")])
    assert [(h.deal, h.points) for h in found] == [(2, 24)]
