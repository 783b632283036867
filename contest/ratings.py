"""Ratings' bookkeeping, pure: which results are rated, in which order, and when a rating is
still provisional. The rating maths itself (openskill's Plackett-Luce) is applied by
``league.ratings``; this module holds what both competitions must agree on to replay history.

A **rated result** is one game that stands (a league game confirmed, a tournament table
verified): the players of each side, the winners first, and the time it came to stand. Results
are replayed by that time; results at the **same** time (a match's games closed together, an
import) are put in a canonical order read from what they are, not from the order their rows
were written: the winners' player ids, then the losers', then the result's own reference. Two
results that tie on everything before the reference have the same players on the same sides, so
exchanging them changes nothing; the order of equal-time updates therefore never changes what a
full replay gives.

Information only: nothing in the standings, seeding or results reads a rating.

>>> from datetime import datetime, timezone
>>> at = datetime(2026, 12, 1, 20, tzinfo=timezone.utc)
>>> a = RatedResult("game", 9, at, winners=(4, 2), losers=(3, 1))
>>> b = RatedResult("game", 7, at, winners=(1, 3), losers=(2, 4))
>>> [r.ref for r in canonical_order([a, b])], a.winners, a.pair_of_winners
([7, 9], (2, 4), (2, 4))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

# The rating shown is the mean on openskill's scale (25 for a new player, sigma 25/3) times
# this, so ratings read like the common 1000-point scales: a new player shows 1000 +/- 333.
SCALE = 40


@dataclass(frozen=True, order=False)
class RatedResult:
    """One game that stands, as the ratings read it."""

    source: str  # "game" (a league game) or "table" (a tournament table)
    ref: int  # the row's id in its source
    at: datetime  # when it came to stand (confirmed, verified)
    winners: tuple[int, ...] = field(default=())  # player ids, sorted by __post_init__
    losers: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "winners", tuple(sorted(self.winners)))
        object.__setattr__(self, "losers", tuple(sorted(self.losers)))

    @property
    def key(self) -> tuple[str, int]:
        return (self.source, self.ref)

    @property
    def fingerprint(self) -> str:
        """What the result says, as text: a stored result whose fingerprint changed (a judge's
        correction of a confirmed game, say) calls for a full replay."""
        winners = ",".join(map(str, self.winners))
        losers = ",".join(map(str, self.losers))
        return f"{self.at.isoformat()}|{winners}|{losers}"

    @property
    def pair_of_winners(self) -> tuple[int, int] | None:
        return pair_of(self.winners)

    @property
    def pair_of_losers(self) -> tuple[int, int] | None:
        return pair_of(self.losers)

    @property
    def rateable(self) -> bool:
        """Two sides of players, none on both (a bye or a result with a side unknown is not)."""
        return bool(self.winners and self.losers) and not set(self.winners) & set(self.losers)


def pair_of(players: tuple[int, ...]) -> tuple[int, int] | None:
    """The pair a side of two players makes (lower id first); a single player makes none.

    >>> pair_of((7, 3)), pair_of((5,))
    ((3, 7), None)
    """
    if len(players) != 2:
        return None
    low, high = sorted(players)
    return (low, high)


def canonical_key(
    result: RatedResult,
) -> tuple[datetime, tuple[int, ...], tuple[int, ...], str, int]:
    """The replay order: the time, then what the result is, its reference last."""
    return (result.at, result.winners, result.losers, result.source, result.ref)


def canonical_order(results: Iterable[RatedResult]) -> list[RatedResult]:
    """``results`` in the one order every replay uses."""
    return sorted(results, key=canonical_key)


def is_provisional(games: int, *, threshold: int) -> bool:
    """A rating on fewer than ``threshold`` rated games is provisional.

    >>> is_provisional(9, threshold=10), is_provisional(10, threshold=10)
    (True, False)
    """
    return games < threshold


def shown(value: float) -> int:
    """A rating's mean, or its uncertainty, on the scale shown (``SCALE``).

    >>> shown(25.0), shown(25 / 3)
    (1000, 333)
    """
    return round(value * SCALE)
