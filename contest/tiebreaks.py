"""The tie-break metrics: each a small class with a ``key`` and the record ``field`` it reads.

After Tabbycat's standings metrics. A metric gives each record of a group still level its value,
higher first. Most read one field of a record; head-to-head reads only the games among the
group, and the draw reads each name's ticket (:func:`contest.draw.draw_ticket`). The keys are
what settings, computed standings and archives store; a competition offers some of them
(:data:`LEAGUE_TIEBREAKS`, :data:`TOURNAMENT_TIEBREAKS`).

Each metric also carries its words, in English and marked for the catalogues
(:func:`gettext_noop`): its ``name`` and ``abbr`` (a standings column, what placed a team), how
a rules sheet describes it (``described``) and the mark beside a competitor it placed
(``placed``). Nothing here is translated: each app translates the words where it shows them, so
a new metric is named once, here, for every competition.

>>> from dataclasses import dataclass
>>> @dataclass
... class Row:
...     name: str
...     won: int
>>> METRICS["games_won"].values([Row("A", 3), Row("B", 5)], draw_seed=0)
[3, 5]
>>> [m.key for m in chain_of(["spread", "draw"], known=TOURNAMENT_TIEBREAKS)]
['spread', 'draw']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from contest.draw import draw_ticket

Value = float | int | str


def gettext_noop(message: str) -> str:
    """``message`` unchanged: the call marks it for the translation catalogues (makemessages
    finds it), and the app that shows it translates it then.

    >>> gettext_noop("spread")
    'spread'
    """
    return message


class TieBreak:
    """A metric: its ``key`` and the record ``field`` it reads; higher values rank first. Its
    words (English, translated where shown): ``name`` and ``abbr``; ``described``, how a rules
    sheet names it; ``placed``, the mark beside a competitor it placed (empty: not shown)."""

    key: ClassVar[str] = ""
    field: ClassVar[str] = ""
    name: ClassVar[str] = ""
    abbr: ClassVar[str] = ""
    described: ClassVar[str] = ""
    placed: ClassVar[str] = ""

    def value(self, record: Any) -> Value:
        """One record's value, where it depends on the record alone."""
        value: Value = getattr(record, self.field)
        return value

    def values(self, group: Sequence[Any], *, draw_seed: int) -> list[Value]:
        """Each record's value among ``group``, in the group's order."""
        return [self.value(r) for r in group]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Points(TieBreak):
    """Not a tie-break: what every competitor is ranked by first (the league's points)."""

    key, field = "points", "points"
    name, abbr = gettext_noop("league points"), gettext_noop("Pts")


class WeeksWon(TieBreak):
    key, field = "weeks_won", "weeks_won"
    name, abbr = gettext_noop("weeks won"), gettext_noop("WW")


class HeadToHead(TieBreak):
    """Points earned in games among the group only (``h2h_points``: opponent id -> points;
    a record's own id is its ``team_id``: a league team's id, a tournament entrant's name)."""

    key, field = "head_to_head", "h2h_points"
    name, abbr = gettext_noop("head-to-head points"), gettext_noop("H2H")
    described = gettext_noop(
        "head to head (game points earned in games against the others still level)"
    )
    placed = gettext_noop("placed head to head")

    def values(self, group: Sequence[Any], *, draw_seed: int) -> list[Value]:
        ids = {r.team_id for r in group}
        out: list[Value] = []
        for r in group:
            points: dict[int, int] = r.h2h_points
            out.append(sum(p for opp, p in points.items() if opp in ids))
        return out


class Spread(TieBreak):
    key, field = "spread", "spread"
    name, abbr = gettext_noop("spread"), gettext_noop("SPR")
    described = gettext_noop("spread (points scored minus points conceded)")
    placed = gettext_noop("placed by spread")


class Wins(TieBreak):
    key, field = "wins", "won"
    name, abbr = gettext_noop("games won"), gettext_noop("W")
    described = gettext_noop("games won")
    placed = gettext_noop("placed by games won")


class GamesWon(Wins):
    """Games won, under the key the tournaments (and their archive format) store."""

    key = "games_won"


class Skunks(TieBreak):
    key, field = "skunks", "skunks"
    name, abbr = gettext_noop("skunks"), gettext_noop("SK")
    described = gettext_noop("skunks won")
    placed = gettext_noop("placed by skunks")


class PlusPoints(TieBreak):
    """The ACC's plus points: the spreads of the games won added up (the plus column alone,
    where the net spread also takes the losses' away)."""

    key, field = "plus_points", "plus_spread"
    name, abbr = gettext_noop("plus points"), gettext_noop("PLUS")
    described = gettext_noop("plus points (the spreads of the games won, added up)")
    placed = gettext_noop("placed by plus points")


class Playoff(TieBreak):
    """A one-game playoff among the group, scheduled rather than drawn: games won in the
    tie-break playoffs against the others of the group (``playoff_wins``: opponent id -> wins).
    A group that has not played stays level, which the competition reads as a playoff due."""

    key, field = "playoff", "playoff_wins"
    name, abbr = gettext_noop("tie-break playoff"), gettext_noop("PO")
    described = gettext_noop("a one-game playoff among those still level")
    placed = gettext_noop("placed by a playoff")

    def values(self, group: Sequence[Any], *, draw_seed: int) -> list[Value]:
        ids = {r.team_id for r in group}
        out: list[Value] = []
        for r in group:
            wins: dict[Any, int] = r.playoff_wins
            out.append(sum(n for opp, n in wins.items() if opp in ids))
        return out


class Draw(TieBreak):
    """A draw anyone can repeat: each name's ticket, highest first."""

    key, field = "draw", "name"
    name, abbr = gettext_noop("drawn lots"), gettext_noop("DRAW")
    placed = gettext_noop("placed by the draw")

    def values(self, group: Sequence[Any], *, draw_seed: int) -> list[Value]:
        return [draw_ticket(draw_seed, r.name) for r in group]


POINTS = Points()
METRICS: dict[str, TieBreak] = {
    m.key: m
    for m in (
        POINTS,
        WeeksWon(),
        HeadToHead(),
        Spread(),
        Wins(),
        Skunks(),
        Draw(),
        GamesWon(),
        PlusPoints(),
        Playoff(),
    )
}
"""Every metric by key (what may have placed a competitor)."""

LEAGUE_TIEBREAKS = ("weeks_won", "head_to_head", "spread", "wins", "skunks", "draw")
"""The tie-breaks a league season may chain, in the order its settings offer them."""

TOURNAMENT_TIEBREAKS = (
    "games_won",
    "spread",
    "skunks",
    "plus_points",
    "head_to_head",
    "playoff",
    "draw",
)
"""The tie-breaks a tournament may chain (its records keep no weeks)."""

TOURNAMENT_CHAINS: dict[str, tuple[str, ...]] = {
    "house": ("games_won", "spread", "draw"),
    "acc": ("games_won", "spread", "plus_points", "head_to_head", "playoff"),
}
"""Named chains a director picks from: ``house`` (Pegboard's default) and ``acc``, the order
others read in the ACC's current rulebook (after game points: games won, net spread, plus
points, head to head, then a one-game playoff)."""


def chain_of(keys: Iterable[str], *, known: Sequence[str]) -> list[TieBreak]:
    """The configured tie-breaks, a key not in ``known`` refused.

    >>> chain_of(["luck"], known=TOURNAMENT_TIEBREAKS)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown tie-break 'luck'; known: games_won, spread, skunks, plus_points, ...
    """
    chain = []
    for key in keys:
        if key not in known:
            raise ValueError(f"Unknown tie-break {key!r}; known: {', '.join(known)}.")
        chain.append(METRICS[key])
    return chain
