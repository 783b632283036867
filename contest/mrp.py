"""Master Rating Points: what a sanctioned event's qualifiers earn, from a schedule held as data.

The schedule is numbers with a date and a source, never code: a minimum of game points for each
qualifying game count and event kind, and three rates per kind (the factor of a top-half
qualifier, the flat points of a bottom-half one, the factor of the playoffs). The federation
stores schedules as dated rows and hands the one in force on an event's date to these functions.

- A top-half qualifier earns ``factor x (game points - minimum + 1)``: 5 in a main, 3 in a
  consolation.
- A bottom-half qualifier earns a flat 5 in a main, 3 in a consolation.
- The playoffs add ``playoff factor x w(w+1)/2`` for ``w`` playoff matches won (7 in a main, 4
  in a consolation): nothing more for losing the first match, 7, 21, 42 ... in a main.

Semantics chosen where the source is silent:

- The qualifiers come in the event's final standings order; the top half is the first
  ``len(qualifiers) // 2`` of them (with an odd number of qualifiers the middle one is in the
  bottom half).
- A top-half qualifier never earns less than a bottom-half one (the flat points are a floor),
  so a top-half qualifier with fewer game points than the minimum still earns the flat points.
- A game count the schedule has no row for is refused (:class:`UnknownGameCount`), never
  guessed.

>>> event_points(DEFAULT_SCHEDULE, kind=EventKind.MAIN, games=12, qualifiers=[
...     Qualifier("Ann", game_points=22, playoff_wins=3), Qualifier("Bob", game_points=15),
... ])
[Award(name='Ann', qualifying=45, playoff=42), Award(name='Bob', qualifying=5, playoff=0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum


class EventKind(StrEnum):
    """The sanctioned events that earn Master Rating Points."""

    MAIN = "main"
    CONSOLATION = "consolation"


class UnknownGameCount(ValueError):
    """The schedule has no minimum for this many qualifying games of this kind."""

    def __init__(self, kind: EventKind, games: int) -> None:
        self.kind = kind
        self.games = games
        super().__init__(f"The points schedule has no row for a {kind} of {games} games.")


class NoScheduleInForce(ValueError):
    """No schedule was in force on the event's date."""


@dataclass(frozen=True, slots=True)
class KindRates:
    """One kind's rates and its minimum game points per qualifying game count.

    >>> DEFAULT_SCHEDULE.rates(EventKind.MAIN).minimum(12)
    14
    """

    qualifier_factor: int
    bottom_flat: int
    playoff_factor: int
    minimums: tuple[tuple[int, int], ...]  # (qualifying games, minimum game points), ascending

    def minimum(self, games: int) -> int | None:
        """The minimum game points for ``games`` qualifying games, or ``None`` without a row."""
        for count, minimum in self.minimums:
            if count == games:
                return minimum
        return None


@dataclass(frozen=True, slots=True)
class Schedule:
    """A points schedule in force from ``effective_from``, with where its numbers come from."""

    effective_from: date
    source: str
    main: KindRates
    consolation: KindRates

    def rates(self, kind: EventKind) -> KindRates:
        return self.main if kind == EventKind.MAIN else self.consolation

    def minimum(self, kind: EventKind, games: int) -> int:
        """The minimum game points, or :class:`UnknownGameCount`.

        >>> DEFAULT_SCHEDULE.minimum(EventKind.CONSOLATION, 30)
        Traceback (most recent call last):
        ...
        contest.mrp.UnknownGameCount: The points schedule has no row for a consolation of 30 games.
        """
        minimum = self.rates(kind).minimum(games)
        if minimum is None:
            raise UnknownGameCount(kind, games)
        return minimum


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A qualifier of an event: their game points in the qualifying games and playoff wins."""

    name: str
    game_points: int
    playoff_wins: int = 0


@dataclass(frozen=True, slots=True)
class Award:
    """What one qualifier earned: the qualifying points and the playoff points."""

    name: str
    qualifying: int
    playoff: int

    @property
    def total(self) -> int:
        return self.qualifying + self.playoff


def qualifying_points(rates: KindRates, *, minimum: int, game_points: int, top_half: bool) -> int:
    """A qualifier's points for qualifying (the flat points are a top-half qualifier's floor).

    >>> main = DEFAULT_SCHEDULE.main
    >>> [qualifying_points(main, minimum=14, game_points=gp, top_half=True) for gp in (13, 14, 20)]
    [5, 5, 35]
    >>> qualifying_points(main, minimum=14, game_points=20, top_half=False)
    5
    """
    if not top_half:
        return rates.bottom_flat
    return max(rates.bottom_flat, rates.qualifier_factor * (game_points - minimum + 1))


def playoff_points(rates: KindRates, *, wins: int) -> int:
    """``playoff factor x w(w+1)/2`` for ``wins`` playoff matches won.

    >>> [playoff_points(DEFAULT_SCHEDULE.main, wins=w) for w in range(5)]
    [0, 7, 21, 42, 70]
    >>> [playoff_points(DEFAULT_SCHEDULE.consolation, wins=w) for w in range(4)]
    [0, 4, 12, 24]
    """
    if wins < 0:
        raise ValueError(f"Playoff wins cannot be negative, not {wins}.")
    return rates.playoff_factor * wins * (wins + 1) // 2


def event_points(
    schedule: Schedule, *, kind: EventKind, games: int, qualifiers: Sequence[Qualifier]
) -> list[Award]:
    """Every qualifier's award, in the order given (the final standings)."""
    minimum = schedule.minimum(kind, games)
    rates = schedule.rates(kind)
    top = len(qualifiers) // 2
    return [
        Award(
            name=q.name,
            qualifying=qualifying_points(
                rates, minimum=minimum, game_points=q.game_points, top_half=i < top
            ),
            playoff=playoff_points(rates, wins=q.playoff_wins),
        )
        for i, q in enumerate(qualifiers)
    ]


def schedule_in_force(schedules: Iterable[Schedule], on: date) -> Schedule:
    """The schedule with the latest ``effective_from`` on or before ``on``.

    >>> later = Schedule(date(2027, 1, 1), "test", DEFAULT_SCHEDULE.main, DEFAULT_SCHEDULE.main)
    >>> schedule_in_force([DEFAULT_SCHEDULE, later], date(2026, 12, 31)).source[:12]
    'ACC schedule'
    >>> schedule_in_force([DEFAULT_SCHEDULE, later], date(2027, 1, 1)).source
    'test'
    """
    best: Schedule | None = None
    for schedule in schedules:
        if schedule.effective_from <= on and (
            best is None or schedule.effective_from > best.effective_from
        ):
            best = schedule
    if best is None:
        raise NoScheduleInForce(f"No points schedule was in force on {on.isoformat()}.")
    return best


def _rows(pairs: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(pairs.items()))


# The shipped default. Its ends (main 12 -> 14, 22 -> 27; consolation 7 -> 9, 12 -> 16) and the
# rates are the 1 Aug 2016 schedule as another project encodes it; the rows between are drawn
# on a straight line between those ends (rounded half up). To be checked against the ACC's
# chart: the federation admin edits the stored copy, with a date, and this constant only seeds
# it.
DEFAULT_SCHEDULE = Schedule(
    effective_from=date(2016, 8, 1),
    source=(
        "ACC schedule effective 1 Aug 2016, as another project encodes it; rows between the "
        "ends interpolated. To be checked against the ACC's chart."
    ),
    main=KindRates(
        qualifier_factor=5,
        bottom_flat=5,
        playoff_factor=7,
        minimums=_rows(
            {12: 14, 13: 15, 14: 17, 15: 18, 16: 19, 17: 21, 18: 22, 19: 23, 20: 24, 21: 26, 22: 27}
        ),
    ),
    consolation=KindRates(
        qualifier_factor=3,
        bottom_flat=3,
        playoff_factor=4,
        minimums=_rows({7: 9, 8: 10, 9: 12, 10: 13, 11: 15, 12: 16}),
    ),
)
