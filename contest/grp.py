"""Above the club, the rest of the federation's arithmetic, every number handed in as data:
Grass Roots points per club night, lifetime titles, the special-hand bonus and the Q pools'
shares. Pure (no Django): the federation stores the dated rows and hands them here.

Semantics chosen where the sources are silent:

- A Grass Roots night earns ``at_threshold + per_game_point x (game points - threshold)`` to a
  player who reaches the threshold, nothing below it (the shipped rates, 12 / 12 / 1, are the
  club's own default: the night's game points from 12 up).
- A Q pool is shared among the qualifiers who bought in, in final standings order, by weights;
  cents left over by the division go one each to the highest places, so the pool is paid out to
  the cent.

>>> grass_roots_points(GrassRootsRates(12, 12, 1), game_points=15)
15
>>> pool_shares(1000, 3, PoolStyle(1, 0, 2))
[500, 250, 250]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GrassRootsRates:
    """A Grass Roots schedule's numbers."""

    threshold: int
    at_threshold: int
    per_game_point: int


def grass_roots_points(rates: GrassRootsRates, *, game_points: int) -> int:
    """One night's Grass Roots points.

    >>> rates = GrassRootsRates(threshold=12, at_threshold=5, per_game_point=2)
    >>> [grass_roots_points(rates, game_points=gp) for gp in (11, 12, 16)]
    [0, 5, 13]
    """
    if game_points < rates.threshold:
        return 0
    return rates.at_threshold + rates.per_game_point * (game_points - rates.threshold)


@dataclass(frozen=True, slots=True)
class PoolStyle:
    """Place ``i`` of ``n`` (from 0) weighs ``base + step x (n - 1 - i)``; the first place's
    weight is multiplied by ``lead``."""

    base: int
    step: int
    lead: int


def pool_shares(amount: int, qualifiers: int, style: PoolStyle) -> list[int]:
    """``amount`` cents shared among ``qualifiers`` places, highest first.

    >>> pool_shares(1000, 4, PoolStyle(1, 0, 1))  # equal
    [250, 250, 250, 250]
    >>> pool_shares(1000, 4, PoolStyle(1, 1, 1))  # graduated: 4, 3, 2, 1
    [400, 300, 200, 100]
    >>> pool_shares(100, 3, PoolStyle(1, 0, 1))  # the odd cent to the top
    [34, 33, 33]
    >>> pool_shares(500, 0, PoolStyle(1, 0, 1))
    []
    """
    if qualifiers <= 0:
        return []
    weights = [style.base + style.step * (qualifiers - 1 - i) for i in range(qualifiers)]
    weights[0] *= style.lead
    total = sum(weights)
    if total <= 0:
        raise ValueError("A payout style must give the places some weight.")
    shares = [amount * w // total for w in weights]
    for i in range(amount - sum(shares)):
        shares[i % qualifiers] += 1
    return shares


@dataclass(frozen=True, slots=True)
class TitleStep:
    """A title and the lifetime points that earn it."""

    name: str
    points: int


@dataclass(frozen=True, slots=True)
class TitleProgress:
    """Where a member stands: the title held (if any), the next and the points still to go."""

    held: TitleStep | None
    next: TitleStep | None
    to_go: int
    percent: int  # of the way from the title held (or 0) to the next


def title_progress(points: int, titles: Sequence[TitleStep]) -> TitleProgress:
    """A member's title progress from their lifetime points.

    >>> steps = [TitleStep("Master", 2000), TitleStep("Grand Master", 4000)]
    >>> p = title_progress(2500, steps)
    >>> p.held.name, p.next.name, p.to_go, p.percent
    ('Master', 'Grand Master', 1500, 25)
    >>> title_progress(4000, steps).next is None
    True
    """
    ordered = sorted(titles, key=lambda t: t.points)
    held = None
    for title in ordered:
        if points >= title.points:
            held = title
    nxt = next((t for t in ordered if t.points > points), None)
    if nxt is None:
        return TitleProgress(held, None, 0, 100)
    start = held.points if held else 0
    percent = (points - start) * 100 // (nxt.points - start)
    return TitleProgress(held, nxt, nxt.points - points, percent)
