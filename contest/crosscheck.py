"""Cross-checking two scorecards of one game by ACC Rule 12.2, pure (no Django).

The American Cribbage Congress settles two cards that disagree without asking the players
("Resolving Scorecard Discrepancies during Cross-Checking"). A card records, for its own
player, a win or a loss in the game-points column and the spread in the plus or the minus
column. The clauses this module applies:

- (a) disadvantage is always to the apparent qualifier: a qualifier claiming a 21-point win
  against an opponent's 16-point loss gets a 16-point win;
- (b) both apparent qualifiers take the worse figure: a 17-point win against a 16-point loss
  becomes a 16-point win and a 17-point loss;
- (c) a spread marked on one card only is copied to the blank one;
- (d) both cards claim a win (or a loss), one spread in the plus column and one in the minus:
  the one in the plus column wins;
- (e) both claim a win (or a loss) with the spreads in the same column: a loss for both, the
  spreads moved to the minus column;
- (f) one card claims the win but both spreads sit in the same column: the win stands and the
  wrong card's spread moves to its proper column;
- (g) the totals follow (the standings recompute from the resolved cards);
- (h) "no harm, no foul": when the apparent qualifier's own card already holds the figure worse
  for them, both card entries stand (each side keeps what its own card says). The rule's text
  at hand stops after "if an apparent qualifier's"; the rest is the reading secondary sources
  give, so it is a setting (``no_harm``, on by default) and (a) or (b) apply when it is off;
- (i) the apparent qualifiers whose card the ruling changed are told
  (:func:`qualifiers_to_tell`; the caller tells them). Also a secondary source's reading.

A resolution is one game's result (one win, one loss, one spread) or, for (b) with two
different spreads, for (e) and for (h), a figure for each side (``Outcome.signed``), which the
caller stores side by side.

What the rule does not settle is returned as :class:`Unsettled` (the checkers decide): two
different spreads when neither player is an apparent qualifier, a blank win/loss column, no
spread on either card.

>>> resolve(Claim(True, 21), Claim(False, 16), first_qualifies=True, second_qualifies=False)
Resolution(first=Outcome(won=True, spread=16), second=Outcome(won=False, spread=16), clauses=('a',))
>>> resolve(Claim(True, 17), Claim(False, 16), first_qualifies=True, second_qualifies=True)
Resolution(first=Outcome(won=True, spread=16), second=Outcome(won=False, spread=17), clauses=('b',))
>>> resolve(Claim(True, 16), Claim(False, 21), first_qualifies=True, second_qualifies=False)
Resolution(first=Outcome(won=True, spread=16), second=Outcome(won=False, spread=21), clauses=('h',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Column = Literal["plus", "minus"]


@dataclass(frozen=True)
class Claim:
    """One player's card of the game: ``won`` (the game-points column: True a win, False a
    loss, None left blank), ``spread`` (the points in the spread column, None left blank) and
    the ``column`` the spread was written in (by default the one that goes with ``won``)."""

    won: bool | None
    spread: int | None
    column: Column | None = None

    @property
    def written_column(self) -> Column | None:
        if self.spread is None:
            return None
        if self.column is not None:
            return self.column
        if self.won is None:
            return None
        return "plus" if self.won else "minus"


@dataclass(frozen=True)
class Outcome:
    """A player's resolved figures: a win or a loss and the spread, plus for a win and minus
    for a loss."""

    won: bool
    spread: int

    @property
    def signed(self) -> int:
        """The spread as the standings add it: plus for a win, minus for a loss."""
        return self.spread if self.won else -self.spread


@dataclass(frozen=True)
class Resolution:
    """Both players' resolved figures and the clauses of Rule 12.2 applied (empty when the
    cards agreed)."""

    first: Outcome
    second: Outcome
    clauses: tuple[str, ...]

    @property
    def one_result(self) -> bool:
        """Whether the two sides end as one game's result: one win, one loss, one spread
        (otherwise each side keeps its own figure: 12.2(b) with two spreads, 12.2(e))."""
        return self.first.won != self.second.won and self.first.spread == self.second.spread

    @property
    def clause(self) -> str:
        """The clauses as the rule cites them: "12.2(a)", "12.2(d, a)"."""
        return "12.2(" + ", ".join(self.clauses) + ")" if self.clauses else ""


@dataclass(frozen=True)
class Unsettled:
    """Rule 12.2 cannot settle these cards: ``reason`` is a code the caller words."""

    reason: Literal["no_win_column", "no_spread", "no_qualifier"]


def resolve(
    first: Claim,
    second: Claim,
    *,
    first_qualifies: bool,
    second_qualifies: bool,
    no_harm: bool = True,
) -> Resolution | Unsettled:
    """The two cards of a game resolved by Rule 12.2, or :class:`Unsettled`.

    ``first_qualifies``/``second_qualifies``: whether each player is an apparent qualifier
    (inside the cut on the cards so far). ``no_harm``: whether clause (h) applies."""
    if first.won is None or second.won is None:
        return Unsettled("no_win_column")
    clauses: list[str] = []
    cols = (first.written_column, second.written_column)
    if first.won == second.won:
        if None in cols:
            return Unsettled("no_spread")
        if cols[0] != cols[1]:
            # (d): the card with its spread in the plus column takes the win.
            first_wins = cols[0] == "plus"
            clauses.append("d")
        else:
            # (e): a loss for both, each spread moved to the minus column.
            assert first.spread is not None and second.spread is not None
            return Resolution(Outcome(False, first.spread), Outcome(False, second.spread), ("e",))
    else:
        first_wins = first.won
        if cols[0] is not None and cols[0] == cols[1]:
            clauses.append("f")  # the win stands; the wrong card's column is corrected
    return _spread(first, second, first_wins, first_qualifies, second_qualifies, clauses, no_harm)


def _spread(
    first: Claim,
    second: Claim,
    first_wins: bool,
    first_qualifies: bool,
    second_qualifies: bool,
    clauses: list[str],
    no_harm: bool,
) -> Resolution | Unsettled:
    a, b = first.spread, second.spread
    if a is None and b is None:
        return Unsettled("no_spread")
    if a is None or b is None:
        clauses.append("c")  # the one marked spread is recorded on the blank card
        one = a if a is not None else b
        assert one is not None
        return _done(first_wins, one, one, clauses)
    if a == b:
        return _done(first_wins, a, b, clauses)
    low, high = min(a, b), max(a, b)
    # Each card's figure is worse for its own player when the winner's card holds the smaller
    # spread (so the loser's the larger): then no qualifier's error helped them.
    own_worse = (a if first_wins else b) == low
    if no_harm and (first_qualifies or second_qualifies) and own_worse:
        # (h): both card entries stand, each side its own card's figure.
        clauses.append("h")
        return _done(first_wins, a, b, clauses)
    if first_qualifies and second_qualifies:
        # (b): the winner takes the smaller win, the loser the larger loss.
        clauses.append("b")
        return _done(first_wins, low if first_wins else high, high if first_wins else low, clauses)
    if first_qualifies or second_qualifies:
        # (a): the figure that is worse for the one apparent qualifier, on both cards.
        clauses.append("a")
        qualifier_wins = first_wins if first_qualifies else not first_wins
        spread = low if qualifier_wins else high
        return _done(first_wins, spread, spread, clauses)
    return Unsettled("no_qualifier")


def _done(
    first_wins: bool, first_spread: int, second_spread: int, clauses: list[str]
) -> Resolution:
    return Resolution(
        Outcome(first_wins, first_spread), Outcome(not first_wins, second_spread), tuple(clauses)
    )


Side = Literal["first", "second"]


def qualifiers_to_tell(
    first: Claim,
    second: Claim,
    resolution: Resolution,
    *,
    first_qualifies: bool,
    second_qualifies: bool,
) -> tuple[Side, ...]:
    """12.2(i): the apparent qualifiers whose card the ruling changed (its win or loss, its
    spread or the column it sits in), whom the checkers tell. A qualifier whose card stands
    as written, as under (h), is not told.

    >>> a = resolve(Claim(True, 21), Claim(False, 16), first_qualifies=True, second_qualifies=False)
    >>> qualifiers_to_tell(Claim(True, 21), Claim(False, 16), a, first_qualifies=True,
    ...                    second_qualifies=False)
    ('first',)
    """
    out: list[Side] = []
    sides: tuple[tuple[Side, Claim, Outcome, bool], ...] = (
        ("first", first, resolution.first, first_qualifies),
        ("second", second, resolution.second, second_qualifies),
    )
    for side, claim, outcome, qualifies in sides:
        column = "plus" if outcome.won else "minus"
        same = (claim.won, claim.spread, claim.written_column) == (
            outcome.won,
            outcome.spread,
            column,
        )
        if qualifies and not same:
            out.append(side)
    return tuple(out)
