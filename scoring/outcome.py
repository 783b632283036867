"""How a finished game came out: who won, by how much, and whether it was a skunk.

The winner's score counts as the target (a side that pegs out at 124 in a game to 121 won
"at 121"), so the margin is the target minus the runner-up's score. The skunk thresholds are
options, not constants: the ACC calls a win by 31 or more a skunk, many league sheets say
"win by 30+", and the double skunk is usually 61 or more.

>>> outcome_for((121, 90), target=121)
Outcome(winner=0, scores=(121, 90), target=121, margin=31, skunk_level=SkunkLevel.SKUNK)
>>> outcome_for((121, 91), target=121).skunk_level
SkunkLevel.NONE
>>> outcome_for((121, 91), target=121, skunk_margin=30).skunk_level
SkunkLevel.SKUNK
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import ScoringError

DEFAULT_SKUNK_MARGIN = 31
"""The ACC's skunk: a win by 31 or more (the loser at 90 or below in a game to 121)."""

DEFAULT_DOUBLE_SKUNK_MARGIN = 61
"""The ACC's double skunk: a win by 61 or more (the loser at 60 or below in a game to 121)."""


class InvalidScoresError(ScoringError):
    """Final scores that are not the end of a game: nobody at the target, or two sides there."""


class SkunkLevel(enum.IntEnum):
    """How badly the runner-up lost: an ``IntEnum``, so a league can add it to its points.

    >>> SkunkLevel.DOUBLE > SkunkLevel.SKUNK > SkunkLevel.NONE
    True
    """

    NONE = 0
    SKUNK = 1
    DOUBLE = 2

    def __repr__(self) -> str:
        return f"SkunkLevel.{self.name}"

    def __str__(self) -> str:
        return _SKUNK_WORDS[self]


_SKUNK_WORDS = {
    SkunkLevel.NONE: "no skunk",
    SkunkLevel.SKUNK: "a skunk",
    SkunkLevel.DOUBLE: "a double skunk",
}


def skunk_level(
    margin: int,
    *,
    skunk_margin: int = DEFAULT_SKUNK_MARGIN,
    double_skunk_margin: int = DEFAULT_DOUBLE_SKUNK_MARGIN,
) -> SkunkLevel:
    """The skunk level of a win by ``margin`` points.

    A win by ``skunk_margin`` or more is a skunk, by ``double_skunk_margin`` or more a double skunk.

    >>> skunk_level(30), skunk_level(31), skunk_level(60), skunk_level(61)
    (SkunkLevel.NONE, SkunkLevel.SKUNK, SkunkLevel.SKUNK, SkunkLevel.DOUBLE)
    >>> skunk_level(30, skunk_margin=30)
    SkunkLevel.SKUNK
    """
    _check_margins(skunk_margin, double_skunk_margin)
    if margin >= double_skunk_margin:
        return SkunkLevel.DOUBLE
    if margin >= skunk_margin:
        return SkunkLevel.SKUNK
    return SkunkLevel.NONE


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game; make one with :func:`outcome_for`.

    ``winner`` and ``runner_up`` are side indexes (side 0 is the first dealer's side in a game
    to which seats are assigned that way; the engine does not care). ``scores`` are the final
    scores as pegged, the winner's possibly past the target. ``margin`` is the target minus
    the runner-up's score, and ``skunk_level`` judges that margin. With three sides the third-placed
    side lost by more; :meth:`margin_over` and :func:`skunk_level` answer for each side.

    >>> o = outcome_for((98, 122, 57), target=121)
    >>> o.winner, o.runner_up, o.margin, o.skunk_level, o.margin_over(2)
    (1, 0, 23, SkunkLevel.NONE, 64)
    >>> print(o)
    Side 1 won 121-98 (a margin of 23, no skunk).
    """

    winner: int
    scores: tuple[int, ...]
    target: int
    margin: int
    skunk_level: SkunkLevel

    @property
    def runner_up(self) -> int:
        """The losing side with the highest score (the lowest index among equals)."""
        losers = [side for side in range(len(self.scores)) if side != self.winner]
        return max(losers, key=lambda side: (self.scores[side], -side))

    @property
    def losers(self) -> tuple[int, ...]:
        """Every side but the winner, in side order."""
        return tuple(side for side in range(len(self.scores)) if side != self.winner)

    def margin_over(self, side: int) -> int:
        """How many points the winner beat ``side`` by (0 for the winner itself)."""
        if side == self.winner:
            return 0
        return self.target - self.scores[side]

    def __str__(self) -> str:
        loser_score = self.scores[self.runner_up]
        return (
            f"Side {self.winner} won {self.target}-{loser_score} "
            f"(a margin of {self.margin}, {self.skunk_level})."
        )

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the API sends this)."""
        return {
            "winner": self.winner,
            "runner_up": self.runner_up,
            "scores": list(self.scores),
            "target": self.target,
            "margin": self.margin,
            "skunk_level": self.skunk_level.name.lower(),
        }


def outcome_for(
    scores: Sequence[int],
    *,
    target: int,
    skunk_margin: int = DEFAULT_SKUNK_MARGIN,
    double_skunk_margin: int = DEFAULT_DOUBLE_SKUNK_MARGIN,
) -> Outcome:
    """The outcome of a game whose final scores per side are ``scores``.

    Exactly one side must have reached ``target``: a game where nobody did is not over, and
    one where two sides did never happens (the game stops the instant the first gets there).

    >>> outcome_for([121, 60], target=121).skunk_level
    SkunkLevel.DOUBLE
    >>> outcome_for([121, 61], target=121).skunk_level
    SkunkLevel.SKUNK
    >>> outcome_for([118, 117], target=121)
    Traceback (most recent call last):
    ...
    scoring.outcome.InvalidScoresError: Nobody has reached 121 yet: the game isn't over.
    """
    _check_margins(skunk_margin, double_skunk_margin)
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise InvalidScoresError(
            f"A game is played to a positive number of points, not {target!r}.",
            code="bad_target",
            params={"target": repr(target)},
        )
    final = tuple(scores)
    if len(final) < 2:
        raise InvalidScoresError("A game has at least two sides.", code="too_few_sides")
    for score in final:
        if isinstance(score, bool) or not isinstance(score, int):
            raise InvalidScoresError(
                f"A score is a whole number of points, not {score!r}.",
                code="score_not_int",
                params={"score": repr(score)},
            )
        if score < 0:
            raise InvalidScoresError(
                f"A score can't be negative ({score}).",
                code="score_negative",
                params={"score": score},
            )
    winners = [side for side, score in enumerate(final) if score >= target]
    if not winners:
        raise InvalidScoresError(
            f"Nobody has reached {target} yet: the game isn't over.",
            code="not_over",
            params={"target": target},
        )
    if len(winners) > 1:
        raise InvalidScoresError(
            f"Only one side can reach {target}: the game ends the moment the first one does.",
            code="two_winners",
            params={"target": target},
        )
    winner = winners[0]
    best_loser = max(score for side, score in enumerate(final) if side != winner)
    margin = target - best_loser
    level = skunk_level(margin, skunk_margin=skunk_margin, double_skunk_margin=double_skunk_margin)
    return Outcome(winner=winner, scores=final, target=target, margin=margin, skunk_level=level)


def _check_margins(skunk_margin: int, double_skunk_margin: int) -> None:
    for name, value in (
        ("skunk_margin", skunk_margin),
        ("double_skunk_margin", double_skunk_margin),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ScoringError(
                f"{name} must be a positive whole number, not {value!r}.",
                code="bad_margin",
                params={"name": name, "value": repr(value)},
            )
    if double_skunk_margin < skunk_margin:
        raise ScoringError(
            f"A double skunk ({double_skunk_margin}) can't take a smaller margin "
            f"than a skunk ({skunk_margin}).",
            code="double_skunk_below_skunk",
            params={"skunk": skunk_margin, "double": double_skunk_margin},
        )
