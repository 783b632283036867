"""Playing cards: a small immutable value type and the parser every other module relies on."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from scoring.errors import DuplicateCardError, InvalidCardError

RANK_SYMBOLS = "A23456789TJQK"
SUIT_SYMBOLS = "SHDC"
_SUIT_ALIASES = {
    "S": 0,
    "H": 1,
    "D": 2,
    "C": 3,
    "♠": 0,
    "♥": 1,
    "♦": 2,
    "♣": 3,
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}
_RANK_ALIASES = {sym: i + 1 for i, sym in enumerate(RANK_SYMBOLS)}
_RANK_ALIASES["10"] = 10


class Card(NamedTuple):
    """A playing card: ``rank`` 1 (ace) to 13 (king), ``suit`` 0..3 for S, H, D, C.

    Cards are tuples, so they are immutable, hashable and order by rank, then suit.

    >>> Card.from_str("5H")
    Card.from_str('5H')
    >>> Card.from_str("10♥") == Card.from_str("th")
    True
    >>> Card.from_str("KD").value
    10
    """

    rank: int
    suit: int

    @classmethod
    def from_str(cls, token: str) -> Card:
        """Parse ``5H``, ``10H``, ``TH``, ``th`` or ``5♥``; raise :class:`InvalidCardError`."""
        try:
            return _PARSE_CACHE[token]
        except (KeyError, TypeError):
            pass
        if not isinstance(token, str):
            raise InvalidCardError(
                f"{token!r} is not a card.",
                code="not_a_card",
                params={"token": repr(token)},
                token=repr(token),
            )
        text = token.strip().upper()
        if len(text) < 2:
            raise InvalidCardError(
                f"{token!r} is not a card: write it like 5H, 10H, TH or 5♥.",
                code="unreadable_card",
                params={"token": token},
                token=token,
            )
        rank = _RANK_ALIASES.get(text[:-1])
        suit = _SUIT_ALIASES.get(text[-1])
        if rank is None or suit is None:
            raise InvalidCardError(
                f"{token!r} is not a card: write it like 5H, 10H, TH or 5♥.",
                code="unreadable_card",
                params={"token": token},
                token=token,
            )
        return DECK[(rank - 1) * 4 + suit]

    @property
    def value(self) -> int:
        """What the card counts toward fifteen and thirty-one: faces 10, ace 1."""
        return 10 if self.rank > 10 else self.rank

    @property
    def id(self) -> int:
        """0..51, rank-major: a compact id for tables and bitsets."""
        return (self.rank - 1) * 4 + self.suit

    @property
    def rank_symbol(self) -> str:
        return RANK_SYMBOLS[self.rank - 1]

    @property
    def suit_symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in range(4))
"""All 52 cards, ordered ace of spades first, king of clubs last."""

# Every spelling the parser accepts, computed once: parsing a season of cards is a dict lookup.
_PARSE_CACHE: dict[str, Card] = {}
for _card in DECK:
    for _rank_text in [r for r, v in _RANK_ALIASES.items() if v == _card.rank]:
        for _suit_text in [s for s, v in _SUIT_ALIASES.items() if v == _card.suit]:
            _PARSE_CACHE[_rank_text + _suit_text] = _card
            _PARSE_CACHE[_rank_text.lower() + _suit_text.lower()] = _card
del _card


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or an iterable of tokens), refusing repeats.

    >>> parse_cards("5H 5D jc")
    (Card.from_str('5H'), Card.from_str('5D'), Card.from_str('JC'))
    >>> parse_cards("5H 5H")
    Traceback (most recent call last):
    ...
    scoring.errors.DuplicateCardError: 5H appears twice; a deck has only one of each card.
    """
    tokens: Iterable[str | Card]
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    else:
        tokens = text
    cards = tuple(tok if isinstance(tok, Card) else Card.from_str(tok) for tok in tokens)
    check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`DuplicateCardError` if any card appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(
                f"{card} appears twice; a deck has only one of each card.",
                code="duplicate_card",
                params={"card": str(card)},
            )
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """``"5H JC"``: cards as a person writes them."""
    return " ".join(str(c) for c in cards)
