"""Cards: parsing every spelling the design accepts, refusing what it must, and round trips.

DESIGN.md: "rank A,2..10,J,Q,K (accept ``T`` for ten) and suit S,H,D,C (accept the symbols
♠♥♦♣). Immutable, hashable, cheap. Parsing errors say which token was bad."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    DECK,
    Card,
    DuplicateCardError,
    InvalidCardError,
    ScoringError,
    format_cards,
    parse_cards,
    score_show,
)
from scoring.cards import check_distinct

RANK_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
SUIT_NAMES = {0: ("S", "♠"), 1: ("H", "♥"), 2: ("D", "♦"), 3: ("C", "♣")}


def card(rank: int, suit: int) -> Card:
    return Card(rank, suit)


# --- parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("5H", 5, 1),
        ("10H", 10, 1),
        ("TH", 10, 1),
        ("th", 10, 1),
        ("Th", 10, 1),
        ("10h", 10, 1),
        ("5♥", 5, 1),
        ("5♠", 5, 0),
        ("5♦", 5, 2),
        ("5♣", 5, 3),
        ("Q♠", 12, 0),
        ("10♦", 10, 2),
        ("AS", 1, 0),
        ("as", 1, 0),
        ("KC", 13, 3),
        ("jd", 11, 2),
        ("2c", 2, 3),
        ("9S", 9, 0),
        (" 5H ", 5, 1),
    ],
)
def test_from_str_accepts_every_spelling(token: str, rank: int, suit: int) -> None:
    assert Card.from_str(token) == Card(rank, suit)


@pytest.mark.parametrize("suit", range(4))
@pytest.mark.parametrize("rank", range(1, 14))
def test_every_card_in_letters_and_symbols(rank: int, suit: int) -> None:
    letter, symbol = SUIT_NAMES[suit]
    rank_text = RANK_NAMES.get(rank, str(rank))
    expected = Card(rank, suit)
    spellings = {
        rank_text + letter,
        rank_text + symbol,
        rank_text.lower() + letter.lower(),
        rank_text.lower() + symbol,
    }
    if rank == 10:
        spellings |= {"10" + letter, "10" + letter.lower(), "10" + symbol}
    for text in spellings:
        assert Card.from_str(text) == expected, text


def test_outline_suit_symbols_too() -> None:
    """The white suit symbols some fonts and keyboards produce mean the same suits."""
    assert parse_cards("5♤ 5♡ 5♢ 5♧") == parse_cards("5S 5H 5D 5C")


@pytest.mark.parametrize(
    "token",
    ["5X", "XH", "11H", "0H", "H5", "5", "H", "", "  ", "5HH", "1OH", "ZZ", "15S", "♥5", "J♥♥"],
)
def test_invalid_card_names_the_bad_token(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.from_str(token)
    assert info.value.token == token
    assert repr(token) in str(info.value)
    assert "\n" not in str(info.value)


def test_invalid_card_is_a_scoring_error_and_a_value_error() -> None:
    with pytest.raises(ScoringError):
        Card.from_str("5X")
    with pytest.raises(ValueError):
        Card.from_str("5X")


@pytest.mark.parametrize("token", [None, 5, 5.0, b"5H", ("5", "H")])
def test_non_string_is_refused(token: object) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.from_str(token)  # type: ignore[arg-type]
    assert info.value.token == repr(token)


def test_parse_cards_names_the_bad_token_among_good_ones() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("5H 5D 5Z JC")
    assert info.value.token == "5Z"
    assert "'5Z'" in str(info.value)


def test_parse_cards_separators_and_iterables() -> None:
    expected = (Card(5, 1), Card(10, 2), Card(11, 3))
    assert parse_cards("5H 10D JC") == expected
    assert parse_cards("5H,10D,JC") == expected
    assert parse_cards("5H, 10D ,  JC") == expected
    assert parse_cards(["5H", "TD", "jc"]) == expected
    assert parse_cards([Card(5, 1), "TD", Card(11, 3)]) == expected
    assert parse_cards("") == ()


# --- duplicates -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["5H 5H", "5H 5h", "10H TH", "th 10♥", "5♥ 5H", "AS 2S AS"])
def test_duplicates_refused(text: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        parse_cards(text)
    assert "twice" in str(info.value)


def test_duplicate_error_names_the_card() -> None:
    with pytest.raises(DuplicateCardError, match="TH appears twice"):
        parse_cards("10H 5D TH")


def test_check_distinct() -> None:
    check_distinct(DECK)
    with pytest.raises(DuplicateCardError):
        check_distinct([*DECK, DECK[7]])


def test_score_show_refuses_duplicates() -> None:
    with pytest.raises(DuplicateCardError):
        score_show("5H 5D 5S 5H", "JC")
    with pytest.raises(DuplicateCardError, match="5C appears twice"):
        score_show("5H 5D 5S 5C", "5C")  # the starter is also in the hand


# --- the value type -------------------------------------------------------------------------------


@pytest.mark.parametrize("c", DECK, ids=str)
def test_repr_round_trips(c: Card) -> None:
    assert eval(repr(c)) == c
    assert repr(c) == f"Card.from_str({str(c)!r})"
    assert Card.from_str(str(c)) == c
    assert Card.from_str(str(c).lower()) == c


def test_str_is_two_characters() -> None:
    assert str(Card.from_str("10H")) == "TH"
    assert {len(str(c)) for c in DECK} == {2}


def test_deck() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert DECK[0] == Card.from_str("AS")
    assert DECK[-1] == Card.from_str("KC")
    assert list(DECK) == sorted(DECK)
    for i, c in enumerate(DECK):
        assert c.id == i


def test_values_and_symbols() -> None:
    assert [Card(r, 0).value for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert Card.from_str("QD").rank_symbol == "Q"
    assert Card.from_str("QD").suit_symbol == "D"


def test_cards_are_immutable_and_hashable() -> None:
    c = Card.from_str("5H")
    with pytest.raises(AttributeError):
        c.rank = 6  # type: ignore[misc]
    assert {c: 1}[Card.from_str("5♥")] == 1
    assert Card.from_str("5H") is Card.from_str("5h")  # parsing hands out the deck's own objects


def test_format_cards() -> None:
    assert format_cards(parse_cards("5♥ 10d jc")) == "5H TD JC"
    assert format_cards([]) == ""


@given(st.sampled_from(DECK), st.lists(st.booleans(), min_size=3, max_size=3))
def test_any_letter_case_parses(c: Card, upper: list[bool]) -> None:
    text = str(c) if c.rank != 10 else "10" + str(c)[1]
    mixed = "".join(ch.upper() if upper[i % 3] else ch.lower() for i, ch in enumerate(text))
    assert Card.from_str(mixed) == c


@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=10, unique=True))
def test_format_then_parse_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
