"""Luck of the cut, exact: a show's total beside its average over every starter it could have had.

With the cards of a hand (or crib) entered, its **luck of the cut** is its shown total minus the
average of its totals over every starter that could have been cut: the 52 cards less the hand's
own and any others its player saw (``seen``: in the six-card game a player's two discards, so
46 starters; the league's deals record the crib as a whole, so the league passes none and the
average is over the 48 cards not in the hand). Without cards, a show's **percentile** in the
variant's exact distribution (``scoring.distribution``) says how rare it was.

Where the cards a player was **dealt** are known too, the show splits in two (:func:`luck_split`):
the **luck of the cut** (the show against its kept cards' own average over the starters the
player could not see, their discards among the seen) and the **discard skill** (the kept cards'
exact expected points, hand and crib, against the best discard of the same cards,
``scoring.discard``: 0 for the best, negative otherwise). "Points above expectation" sets the
chosen hand against a random one, so it mostly measures discarding; these two do not.

Information only: nothing here changes a result.

>>> from scoring.cards import Card
>>> hand = [Card.from_str(c) for c in ("5H", "5D", "5C", "JS")]
>>> round(cut_average(hand), 3)
16.542
>>> round(cut_luck(hand, Card.from_str("5S")), 3)   # the 29 hand
12.458
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.cards import Card
from scoring.discard import analyse_discards
from scoring.distribution import show_distribution
from scoring.errors import InvalidHandError
from scoring.show import show_total

DECK: tuple[Card, ...] = tuple(Card.from_str(r + s) for s in "SHDC" for r in "A23456789TJQK")


def starters_for(cards: Sequence[Card], *, seen: Iterable[Card] = ()) -> list[Card]:
    """Every card the starter could have been: the deck less ``cards`` and ``seen``.

    >>> len(starters_for(DECK[:4])), len(starters_for(DECK[:4], seen=DECK[4:6]))
    (48, 46)
    """
    out = set(cards) | set(seen)
    return [c for c in DECK if c not in out]


def cut_average(cards: Sequence[Card], *, crib: bool = False, seen: Iterable[Card] = ()) -> float:
    """The average total of ``cards`` over every possible starter (see :func:`starters_for`)."""
    starters = starters_for(cards, seen=seen)
    return sum(show_total(cards, s, crib=crib) for s in starters) / len(starters)


def cut_luck(
    cards: Sequence[Card], starter: Card, *, crib: bool = False, seen: Iterable[Card] = ()
) -> float:
    """What the cut gave: the shown total minus :func:`cut_average` (positive: a lucky cut)."""
    return show_total(cards, starter, crib=crib) - cut_average(cards, crib=crib, seen=seen)


@functools.cache
def _cumulative(hand_size: int, crib: bool) -> tuple[dict[int, float], dict[int, float], float]:
    dist = show_distribution(hand_size, crib=crib)
    total = sum(dist.values())
    below: dict[int, float] = {}
    share: dict[int, float] = {}
    acc = 0
    for k in sorted(dist):
        below[k] = acc / total
        share[k] = dist[k] / total
        acc += dist[k]
    mean = sum(k * n for k, n in dist.items()) / total
    return below, share, mean


def show_percentile(total: int, *, hand_size: int = 4, crib: bool = False) -> float:
    """Where ``total`` stands among every hand and starter, 0 to 100: the share of shows below
    it plus half the share equal to it (so the middle show is at 50).

    >>> round(show_percentile(29), 4), round(show_percentile(0), 1)
    (100.0, 3.9)
    """
    below, share, _ = _cumulative(hand_size, crib)
    if total in below:
        return 100 * (below[total] + share[total] / 2)
    return 100 * sum(s for k, s in share.items() if k < total)


def expected_show(*, hand_size: int = 4, crib: bool = False) -> float:
    """The average show over every hand and starter (the exact distribution's mean).

    >>> round(expected_show(), 3)
    4.769
    """
    return _cumulative(hand_size, crib)[2]


@dataclass(frozen=True, slots=True)
class DiscardSkill:
    """What a discard was worth beside the best one of the same dealt cards (exact expectations,
    hand and signed crib; pegging left out)."""

    chosen: float  # expected points of the discard made
    best: float  # expected points of the best discard
    best_discard: tuple[Card, ...]

    @property
    def cost(self) -> float:
        """Points a deal the discard gave up against the best: 0 for the best, else positive."""
        return self.best - self.chosen


def discard_skill(
    dealt: Sequence[Card], kept: Sequence[Card], *, variant: str, own_crib: bool
) -> DiscardSkill:
    """The kept cards' expected points against the best discard of ``dealt``.

    >>> d = [Card.from_str(c) for c in "5H 5D JS 4C KD 9S".split()]
    >>> best = discard_skill(d, d[:3] + d[4:5], variant="singles-121", own_crib=True)
    >>> best.cost, [str(c) for c in best.best_discard]
    (0.0, ['4C', '9S'])
    >>> round(discard_skill(d, d[2:], variant="singles-121", own_crib=True).cost, 3)
    5.545
    """
    rows = analyse_discards(dealt, variant=variant, own_crib=own_crib)
    wanted = frozenset(kept)
    chosen = next((r for r in rows if frozenset(r.keep) == wanted), None)
    if chosen is None:
        raise InvalidHandError(
            f"{len(kept)} cards were kept from {len(dealt)} dealt: "
            f"keep {len(rows[0].keep)} of the cards dealt.",
            code="show_hand_cards",
            params={"least": len(rows[0].keep), "most": len(rows[0].keep), "count": len(kept)},
        )
    return DiscardSkill(chosen.total, rows[0].total, rows[0].discard)


@dataclass(frozen=True, slots=True)
class LuckSplit:
    """A show split into what the cut gave and what the discard cost (None: dealt unknown)."""

    cut: float  # the show minus its kept cards' average over the unseen starters
    discard: float | None  # minus the discard's cost: 0 for the best discard, else negative


def luck_split(
    kept: Sequence[Card],
    starter: Card,
    *,
    dealt: Sequence[Card] | None = None,
    variant: str = "singles-121",
    own_crib: bool = False,
) -> LuckSplit:
    """Luck of the cut and, where the cards ``dealt`` are known, discard skill.

    >>> kept = [Card.from_str(c) for c in "5H 5D JS KD".split()]
    >>> dealt = kept + [Card.from_str("4C"), Card.from_str("9S")]
    >>> split = luck_split(kept, Card.from_str("5S"), dealt=dealt, own_crib=True)
    >>> round(split.cut, 3), split.discard
    (8.587, 0.0)
    >>> luck_split(kept, Card.from_str("5S")).discard is None
    True
    """
    if dealt is None:
        return LuckSplit(cut_luck(kept, starter), None)
    discards = [c for c in dealt if c not in kept]
    cut = cut_luck(kept, starter, seen=discards)
    skill = discard_skill(dealt, kept, variant=variant, own_crib=own_crib)
    return LuckSplit(cut, 0.0 - skill.cost if skill.cost else 0.0)
