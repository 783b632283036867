"""The special hands of a game entered with its cards, for a night's special-hand pots: a
hand or crib counting 24, 28 or 29, and four of a kind (four cards of one rank among the hand
and the starter). Pure: the deals' normalised shape in (``league/kernel/entries.py``: a
``starter`` and ``cards`` per seat and for the ``crib``), the hands found out.

>>> deal = {"dealer": 1, "starter": "5S", "cards": {"0": ["5H", "5D", "5C", "JS"]}}
>>> [(h.seat, h.points, h.kinds) for h in special_hands([deal])]
[(0, 29, ('29', 'four_of_a_kind'))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card
from scoring.show import show_total

BIG_HANDS = (24, 28, 29)
KINDS = ("24", "28", "29", "four_of_a_kind")


@dataclass(frozen=True)
class SpecialHand:
    """``deal`` (from 1), the ``seat`` that held it (the dealer's seat for a crib), whether it
    is the ``crib``, what it counted, and its ``kinds`` ("24", "28", "29", "four_of_a_kind")."""

    deal: int
    seat: int
    crib: bool
    points: int
    kinds: tuple[str, ...]


def _special(hand: list[Card], starter: Card, *, crib: bool) -> tuple[int, tuple[str, ...]]:
    points = show_total(hand, starter, crib=crib)
    kinds: list[str] = [str(points)] if points in BIG_HANDS else []
    if max(Counter(c.rank for c in [*hand, starter]).values()) == 4:
        kinds.append("four_of_a_kind")
    return points, tuple(kinds)


def special_hands(deals: Iterable[Mapping[str, Any]]) -> list[SpecialHand]:
    """Every special hand of ``deals`` whose four cards and starter were entered, in order."""
    found: list[SpecialHand] = []
    for number, deal in enumerate(deals, start=1):
        cards = deal.get("cards") or {}
        if not deal.get("starter") or not cards:
            continue
        starter = Card.from_str(deal["starter"])
        for who, raw in cards.items():
            if len(raw) != 4:
                continue  # a hand of six before the discard: not a show
            hand = [Card.from_str(c) for c in raw]
            crib = who == "crib"
            points, kinds = _special(hand, starter, crib=crib)
            if kinds:
                seat = int(deal["dealer"]) if crib else int(who)
                found.append(SpecialHand(number, seat, crib, points, kinds))
    return found
