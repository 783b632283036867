"""A game's result as points: the one skunk ladder, from a margin to what each side earns.

The margin's rung (none, skunk, double skunk) is :func:`scoring.outcome.skunk_level`'s; what a
rung pays is a competition's setting, here. The league writes its settings as a win plus
bonuses (one point a win, one more for a skunk), a tournament as the points of each rung (ACC:
2 a win, 3 a skunk, 3 a double skunk); both become one :class:`GamePoints`.

>>> ladder = Ladder(GamePoints(win=2, skunk=3, double_skunk=3))
>>> [ladder.earned(won=True, margin=m) for m in (30, 31, 61)]
[2, 3, 3]
>>> ladder.earned(won=False, margin=61)
0
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.outcome import (
    DEFAULT_DOUBLE_SKUNK_MARGIN,
    DEFAULT_SKUNK_MARGIN,
    SkunkLevel,
    skunk_level,
)


@dataclass(frozen=True, slots=True)
class GamePoints:
    """What one side earns from one game, by the rung its result stands on.

    >>> GamePoints.with_bonuses(win=1, skunk_bonus=1, double_skunk_bonus=1)
    GamePoints(win=1, skunk=2, double_skunk=3, loss=0)
    >>> GamePoints(win=2, skunk=3, double_skunk=3).earned(won=True, level=SkunkLevel.DOUBLE)
    3
    """

    win: int
    skunk: int
    double_skunk: int
    loss: int = 0

    @classmethod
    def with_bonuses(cls, *, win: int, skunk_bonus: int, double_skunk_bonus: int) -> GamePoints:
        """The league's way of writing the ladder: the skunk bonus is added for a skunk and for
        a double skunk, the double-skunk bonus on top for a double skunk; a loss earns 0."""
        skunk = win + skunk_bonus
        return cls(win=win, skunk=skunk, double_skunk=skunk + double_skunk_bonus)

    def earned(self, *, won: bool, level: int) -> int:
        """The points of a side that ``won`` (or lost) a game of skunk ``level``
        (a :class:`~scoring.outcome.SkunkLevel`, or the number a database stores for one)."""
        if not won:
            return self.loss
        if level >= SkunkLevel.DOUBLE:
            return self.double_skunk
        if level >= SkunkLevel.SKUNK:
            return self.skunk
        return self.win


@dataclass(frozen=True, slots=True)
class Ladder:
    """From a game's margin to its rung (the skunk margins) and to each side's points."""

    points: GamePoints
    skunk_margin: int = DEFAULT_SKUNK_MARGIN
    double_skunk_margin: int = DEFAULT_DOUBLE_SKUNK_MARGIN

    def __post_init__(self) -> None:
        """Refuse margins the scorer cannot judge (a :class:`~scoring.errors.ScoringError`:
        ``bad_margin``, ``double_skunk_below_skunk``), when the ladder is set, not mid-count.

        >>> Ladder(GamePoints(win=2, skunk=3, double_skunk=3), skunk_margin=0)
        Traceback (most recent call last):
        ...
        scoring.errors.ScoringError: skunk_margin must be a positive whole number, not 0.
        """
        self.level(self.skunk_margin)

    def level(self, margin: int) -> SkunkLevel:
        """The rung of a win by ``margin`` points.

        >>> Ladder(GamePoints(win=1, skunk=2, double_skunk=2), skunk_margin=30).level(30)
        SkunkLevel.SKUNK
        """
        return skunk_level(
            margin, skunk_margin=self.skunk_margin, double_skunk_margin=self.double_skunk_margin
        )

    def earned(self, *, won: bool, margin: int) -> int:
        """What a side earns from a game decided by ``margin`` points."""
        if not won:
            return self.points.loss
        return self.points.earned(won=True, level=self.level(margin))


# --- The skunk margins a new season or event starts from -----------------------------------------


@dataclass(frozen=True, slots=True)
class SkunkDefaults:
    """The margins a competition playing to ``target`` starts from, and where they come from:
    ``source`` is ``"acc"`` where the ACC speaks for that game, ``"house"`` where it does not
    (the rule then follows the ACC's proportions at 121, stated as our convention).

    >>> skunk_defaults(121)
    SkunkDefaults(target=121, skunk_margin=31, double_skunk_margin=61, source='acc')
    """

    target: int
    skunk_margin: int
    double_skunk_margin: int
    source: str

    @property
    def skunk_line(self) -> int:
        """The highest losing score that is still a skunk."""
        return self.target - self.skunk_margin


ACC_TARGETS = (61, 121)
"""The games the ACC names ("The game of Cribbage can end at either 121 points or 61 points")
and whose skunk its glossary defines: "To win by 31 or more points", a double skunk "by 61 or
more" (``seeds/acc-scoring-and-terms.txt``). At 61 its double skunk is a shut-out: the loser
still at 0."""


def skunk_defaults(target: int) -> SkunkDefaults:
    """The one table of default skunk margins, for leagues and tournaments alike.

    Where the ACC speaks (games to 61 and 121) its margins hold as written: 31 and 61. For any
    other target (seven-card's 181) no document speaks, and the house convention keeps the
    ACC's proportions at 121: a skunk is a win by a quarter of the target and one more, a
    double skunk by half of it and one more.

    >>> [(d.skunk_margin, d.double_skunk_margin, d.source) for d in map(skunk_defaults, (61, 181))]
    [(31, 61, 'acc'), (46, 91, 'house')]
    """
    if target in ACC_TARGETS:
        return SkunkDefaults(target, DEFAULT_SKUNK_MARGIN, DEFAULT_DOUBLE_SKUNK_MARGIN, "acc")
    return SkunkDefaults(target, target // 4 + 1, target // 2 + 1, "house")


def other_skunk_reading(target: int) -> tuple[int, int]:
    """The margins of the reading a competition playing to ``target`` does not start from:
    the proportional house reading where the ACC speaks, the ACC's 31/61 as written where it
    does not.

    >>> other_skunk_reading(61), other_skunk_reading(121), other_skunk_reading(181)
    ((16, 31), (30, 61), (31, 61))
    """
    if target == 121:  # the proportions give the ACC's own numbers: the other is the sheet's
        return (30, DEFAULT_DOUBLE_SKUNK_MARGIN)
    if target in ACC_TARGETS:
        return (target // 4 + 1, target // 2 + 1)
    return (DEFAULT_SKUNK_MARGIN, DEFAULT_DOUBLE_SKUNK_MARGIN)
