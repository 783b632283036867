"""Records: head-to-head tallies, winning streaks and lifetime milestones, from results in the
order they were played. Pure: both competitions' selectors hand in plain numbers and keys.

>>> h = HeadToHead()
>>> h.add(scored=121, conceded=89, skunk_level=1)
>>> h.add(scored=110, conceded=121, skunk_level=0)
>>> (h.games, h.wins, h.losses, h.spread, h.skunks_given, h.skunks_taken)
(2, 1, 1, 21, 1, 0)
>>> longest_run([True, True, False, True, True, True, False])
Run(length=3, first=3, last=5)
>>> [(m.kind, m.at, m.index) for m in milestones([121, 90, 121], {"points": (200, 300)})]
[('points', 200, 1), ('points', 300, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: The lifetime milestones a player's page of records names, and why these: a league night
#: plays three games, so a regular reaches 50 games in about a season and 100 in two; a game
#: to 121 scores about 110 points for either side, so 1,000 points come in about nine games.
MILESTONES: dict[str, tuple[int, ...]] = {
    "games": (50, 100, 250, 500, 1000),
    "wins": (25, 50, 100, 250, 500),
    "points": (1000, 5000, 10000, 25000, 50000, 100000),
}


@dataclass
class HeadToHead:
    """One side's record against another: games, wins, losses, the spread (points scored
    minus points conceded) and the skunks (doubles included) each side gave the other."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    spread: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    double_skunks_given: int = 0
    double_skunks_taken: int = 0

    def add(self, *, scored: int, conceded: int, skunk_level: int) -> None:
        """One game, seen from this side: its score, the other's and the game's skunk level
        (0 none, 1 skunk, 2 double skunk), given by whoever won."""
        self.games += 1
        self.spread += scored - conceded
        won = scored > conceded
        if won:
            self.wins += 1
            self.skunks_given += skunk_level >= 1
            self.double_skunks_given += skunk_level >= 2
        else:
            self.losses += 1
            self.skunks_taken += skunk_level >= 1
            self.double_skunks_taken += skunk_level >= 2


@dataclass(frozen=True)
class Run:
    """The longest run of ``True``: its length and the indexes of its first and last items
    (``-1`` for both when there is none)."""

    length: int
    first: int
    last: int


def longest_run(flags: Sequence[bool]) -> Run:
    """The longest unbroken run of ``True`` in ``flags``; the earliest of equal runs.

    >>> longest_run([False, False])
    Run(length=0, first=-1, last=-1)
    """
    best = Run(0, -1, -1)
    start = -1
    for i, flag in enumerate(flags):
        if not flag:
            start = -1
            continue
        if start < 0:
            start = i
        if i - start + 1 > best.length:
            best = Run(i - start + 1, start, i)
    return best


@dataclass(frozen=True)
class Milestone:
    """``kind`` ("games", "wins" or "points") reached ``at`` with the item at ``index``."""

    kind: str
    at: int
    index: int


def milestones(
    points: Iterable[int],
    table: Mapping[str, Sequence[int]] = MILESTONES,
    *,
    wins: Sequence[bool] | None = None,
) -> list[Milestone]:
    """Each milestone of ``table`` reached by a career of games in order: ``points`` is what
    each game scored, ``wins`` whether each was won. A milestone is reached by the game whose
    running total first equals or passes it, in the order the games were played.

    >>> [(m.kind, m.at, m.index) for m in milestones([5, 5], {"games": (2,), "wins": (1,)},
    ...     wins=[False, True])]
    [('games', 2, 1), ('wins', 1, 1)]
    """
    found: list[Milestone] = []
    totals = {"games": 0, "wins": 0, "points": 0}
    for index, score in enumerate(points):
        before = dict(totals)
        totals["games"] += 1
        totals["points"] += score
        totals["wins"] += 1 if wins is not None and wins[index] else 0
        for kind, steps in table.items():
            found += [
                Milestone(kind, at, index) for at in steps if before[kind] < at <= totals[kind]
            ]
    return found
