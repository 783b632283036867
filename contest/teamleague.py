"""Team leagues' maths, pure: the fixture list, a board's and a match's result from its legs,
a division's table with its tie-breaks, and promotion and relegation between divisions.

A team league (the English pubs', the Legion's) plays matches of several boards, singles or
pairs, each of a few legs (games) to 121. A format says how many legs a board has (all played,
or the best of them), what a leg, a board and the match are worth, and what decides the match.

>>> fmt = MatchRules(legs=3, best_of=True, per_leg=1, per_board=0, win=2, draw=1,
...                  decided_by="legs")
>>> board_result(["home", "away", "home"], rules=fmt).winner
'home'
>>> [len(r) for r in double_round_robin(["A", "B", "C", "D"])]
[2, 2, 2, 2, 2, 2]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from contest import tiebreaks
from contest.tiebreaks import TieBreak, Value, gettext_noop

T = TypeVar("T", bound=Hashable)
Side = Literal["home", "away"]
SIDES: tuple[Side, Side] = ("home", "away")


def other(side: Side) -> Side:
    """The other side.

    >>> other("home")
    'away'
    """
    return "away" if side == "home" else "home"


# -- The fixture list -------------------------------------------------------------------------


def single_round_robin(teams: Sequence[T]) -> list[list[tuple[T, T]]]:
    """Rounds of the circle method, each team meeting every other once (an odd field gets a
    rest each round, left out). The home side alternates so no team is home much more than
    away; the first team stays put and the others turn.

    >>> single_round_robin(["A", "B", "C", "D"])
    [[('A', 'D'), ('C', 'B')], [('C', 'A'), ('B', 'D')], [('A', 'B'), ('D', 'C')]]
    """
    field_: list[T | None] = list(teams)
    if len(field_) % 2:
        field_.insert(0, None)  # the rest stays put; the teams turn around it
    n = len(field_)
    rounds: list[list[tuple[T, T]]] = []
    for r in range(n - 1):
        pairs: list[tuple[T, T]] = []
        for i in range(n // 2):
            a, b = field_[i], field_[n - 1 - i]
            if a is None or b is None:
                continue
            # The fixed team alternates home and away; the other pairs by their place.
            if (r % 2 == 1) if i == 0 else (i % 2 == 1):
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        field_ = [field_[0], field_[-1], *field_[1:-1]]
    return rounds


def double_round_robin(teams: Sequence[T]) -> list[list[tuple[T, T]]]:
    """Home and away: the single round robin, then again with home and away turned, so every
    team is at home to every other exactly once.

    >>> rounds = double_round_robin(["A", "B", "C"])
    >>> sorted(p for r in rounds for p in r)  # doctest: +NORMALIZE_WHITESPACE
    [('A', 'B'), ('A', 'C'), ('B', 'A'), ('B', 'C'), ('C', 'A'), ('C', 'B')]
    """
    first = single_round_robin(teams)
    return [*first, *[[(b, a) for a, b in r] for r in first]]


# -- A board and a match ----------------------------------------------------------------------


@dataclass(frozen=True)
class MatchRules:
    """A match format's numbers. ``legs``: legs a board has; ``best_of``: a board ends when a
    side has won most of them (else all are played). Points: ``per_leg`` for each leg won,
    ``per_board`` for each board won, ``win`` and ``draw`` for the match. ``decided_by``:
    what wins the match, "boards", "legs" or "points" (the leg and board points together);
    level is a draw."""

    legs: int
    best_of: bool
    per_leg: int
    per_board: int
    win: int
    draw: int
    decided_by: str = "boards"

    @property
    def legs_to_win(self) -> int:
        """Legs a side needs to take a board: a majority when the best of, else all played."""
        return self.legs // 2 + 1


@dataclass(frozen=True)
class BoardResult:
    """A board's legs won each side, whether it is over, its winner (None: level or going on)."""

    home_legs: int
    away_legs: int
    over: bool
    winner: Side | None
    forfeited_by: Side | None = None


def board_result(winners: Sequence[Side], *, rules: MatchRules) -> BoardResult:
    """A board from its legs' winners in order.

    >>> r = MatchRules(legs=3, best_of=False, per_leg=1, per_board=0, win=2, draw=1)
    >>> board_result(["home", "home"], rules=r)
    BoardResult(home_legs=2, away_legs=0, over=False, winner=None, forfeited_by=None)
    """
    home = sum(1 for w in winners if w == "home")
    away = len(winners) - home
    if rules.best_of:
        need = rules.legs_to_win
        over = home >= need or away >= need or len(winners) >= rules.legs
    else:
        over = len(winners) >= rules.legs
    winner: Side | None = None
    if over and home != away:
        winner = "home" if home > away else "away"
    return BoardResult(home, away, over, winner)


def forfeited_board(by: Side, *, rules: MatchRules) -> BoardResult:
    """A board one side could not play: the other side takes it and the legs it takes to win
    (a majority when the best of, else every leg).

    >>> r = MatchRules(legs=3, best_of=True, per_leg=1, per_board=0, win=2, draw=1)
    >>> forfeited_board("away", rules=r)
    BoardResult(home_legs=2, away_legs=0, over=True, winner='home', forfeited_by='away')
    """
    legs = rules.legs_to_win if rules.best_of else rules.legs
    winner = other(by)
    home, away = (legs, 0) if winner == "home" else (0, legs)
    return BoardResult(home, away, True, winner, forfeited_by=by)


@dataclass(frozen=True)
class MatchResult:
    """A match: legs and boards each side, points each side, the result ("home", "away",
    "draw"), or ``over`` False while a board goes on."""

    home_legs: int
    away_legs: int
    home_boards: int
    away_boards: int
    home_points: int
    away_points: int
    over: bool
    result: str | None


def match_result(boards: Iterable[BoardResult], *, rules: MatchRules) -> MatchResult:
    """A match from its boards. Each side's points: its legs and boards as the rules price
    them, plus the match's points for a win or a draw.

    >>> r = MatchRules(legs=3, best_of=True, per_leg=1, per_board=0, win=2, draw=1,
    ...                decided_by="legs")
    >>> b = [BoardResult(2, 1, True, "home"), BoardResult(0, 2, True, "away")]
    >>> match_result(b, rules=r)  # doctest: +NORMALIZE_WHITESPACE
    MatchResult(home_legs=2, away_legs=3, home_boards=1, away_boards=1, home_points=2,
                away_points=5, over=True, result='away')
    """
    boards = list(boards)
    hl = sum(b.home_legs for b in boards)
    al = sum(b.away_legs for b in boards)
    hb = sum(1 for b in boards if b.winner == "home")
    ab = sum(1 for b in boards if b.winner == "away")
    over = all(b.over for b in boards)
    hp = hl * rules.per_leg + hb * rules.per_board
    ap = al * rules.per_leg + ab * rules.per_board
    result: str | None = None
    if over:
        measure = {"boards": (hb, ab), "legs": (hl, al), "points": (hp, ap)}[rules.decided_by]
        if measure[0] > measure[1]:
            result = "home"
        elif measure[1] > measure[0]:
            result = "away"
        else:
            result = "draw"
        hp += {"home": rules.win, "draw": rules.draw}.get(result, 0)
        ap += {"away": rules.win, "draw": rules.draw}.get(result, 0)
    return MatchResult(hl, al, hb, ab, hp, ap, over, result)


# -- A division's table -----------------------------------------------------------------------


@dataclass
class TableRow:
    """One team's line of a division's table (only finished matches count)."""

    team_id: int
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    legs_for: int = 0
    legs_against: int = 0
    boards_for: int = 0
    boards_against: int = 0
    points: int = 0
    h2h_points: dict[int, int] = field(default_factory=dict)
    position: int = 0
    placed_by: str = ""

    @property
    def legs_difference(self) -> int:
        return self.legs_for - self.legs_against

    @property
    def boards_difference(self) -> int:
        return self.boards_for - self.boards_against


class LegsDifference(TieBreak):
    key, field = "legs_difference", "legs_difference"
    name, abbr = gettext_noop("legs difference"), gettext_noop("LD")
    described = gettext_noop("legs difference (legs won minus legs lost)")
    placed = gettext_noop("placed by legs difference")


class LegsFor(TieBreak):
    key, field = "legs_for", "legs_for"
    name, abbr = gettext_noop("legs won"), gettext_noop("LF")
    described = gettext_noop("legs won")
    placed = gettext_noop("placed by legs won")


class BoardsDifference(TieBreak):
    key, field = "boards_difference", "boards_difference"
    name, abbr = gettext_noop("boards difference"), gettext_noop("BD")
    described = gettext_noop("boards difference (boards won minus boards lost)")
    placed = gettext_noop("placed by boards difference")


class BoardsFor(TieBreak):
    key, field = "boards_for", "boards_for"
    name, abbr = gettext_noop("boards won"), gettext_noop("BF")
    described = gettext_noop("boards won")
    placed = gettext_noop("placed by boards won")


class MatchesWon(TieBreak):
    key, field = "matches_won", "won"
    name, abbr = gettext_noop("matches won"), gettext_noop("W")
    described = gettext_noop("matches won")
    placed = gettext_noop("placed by matches won")


TEAM_METRICS: dict[str, TieBreak] = {
    m.key: m
    for m in (
        LegsDifference(),
        LegsFor(),
        BoardsDifference(),
        BoardsFor(),
        MatchesWon(),
        tiebreaks.METRICS["head_to_head"],
        tiebreaks.METRICS["draw"],
    )
}
"""The tie-breaks a team league may chain, by key (stored in its season's settings)."""

DEFAULT_TEAM_TIEBREAKS = ("legs_difference", "legs_for", "head_to_head")


def team_chain(keys: Iterable[str]) -> list[TieBreak]:
    """The configured tie-breaks, an unknown key refused.

    >>> team_chain(["luck"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown tie-break 'luck'; known: legs_difference, legs_for, ...
    """
    chain = []
    for key in keys:
        if key not in TEAM_METRICS:
            known = ", ".join(TEAM_METRICS)
            raise ValueError(f"Unknown tie-break {key!r}; known: {known}.")
        chain.append(TEAM_METRICS[key])
    return chain


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match as a table reads it: the teams' ids and the result."""

    home: int
    away: int
    result: MatchResult


def table(
    teams: Sequence[tuple[int, str]],
    matches: Iterable[PlayedMatch],
    *,
    chain: Sequence[str],
    draw_seed: int = 0,
) -> list[TableRow]:
    """A division's table: every team's row, by points, then each group still level split by
    the next tie-break of ``chain`` (head to head counts only the matches among that group).
    Teams level after the whole chain share a position; ``placed_by`` names the tie-break that
    placed a team (empty: points alone, or still level).

    >>> r = MatchRules(legs=1, best_of=False, per_leg=0, per_board=0, win=2, draw=1)
    >>> m = match_result([BoardResult(1, 0, True, "home")], rules=r)
    >>> [(x.name, x.points) for x in table([(1, "A"), (2, "B")], [PlayedMatch(2, 1, m)],
    ...                                     chain=[])]
    [('B', 2), ('A', 0)]
    """
    rows = {tid: TableRow(team_id=tid, name=name) for tid, name in teams}
    for m in matches:
        res = m.result
        if not res.over:
            continue
        for tid, side in ((m.home, "home"), (m.away, "away")):
            row = rows[tid]
            opp = m.away if side == "home" else m.home
            mine = res.home_points if side == "home" else res.away_points
            row.played += 1
            if res.result == "draw":
                row.drawn += 1
            elif res.result == side:
                row.won += 1
            else:
                row.lost += 1
            lf, la = (
                (res.home_legs, res.away_legs)
                if side == "home"
                else (
                    res.away_legs,
                    res.home_legs,
                )
            )
            bf, ba = (
                (res.home_boards, res.away_boards)
                if side == "home"
                else (
                    res.away_boards,
                    res.home_boards,
                )
            )
            row.legs_for += lf
            row.legs_against += la
            row.boards_for += bf
            row.boards_against += ba
            row.points += mine
            row.h2h_points[opp] = row.h2h_points.get(opp, 0) + mine
    metrics = team_chain(chain)
    ordered = _rank(list(rows.values()), metrics, draw_seed=draw_seed)
    return ordered


def _rank(rows: list[TableRow], metrics: list[TieBreak], *, draw_seed: int) -> list[TableRow]:
    rows.sort(key=lambda r: (-r.points, r.name))
    groups: list[list[TableRow]] = []
    for row in rows:
        if groups and groups[-1][0].points == row.points:
            groups[-1].append(row)
        else:
            groups.append([row])
    out: list[TableRow] = []
    for group in groups:
        out.extend(_split(group, metrics, draw_seed=draw_seed, start=len(out) + 1))
    return out


def _split(
    group: list[TableRow], metrics: Sequence[TieBreak], *, draw_seed: int, start: int
) -> list[TableRow]:
    if len(group) == 1:
        group[0].position = start
        return group
    if not metrics:
        for row in group:
            row.position = start
            row.placed_by = ""
        return group
    metric, rest = metrics[0], metrics[1:]
    values: list[Value] = metric.values(group, draw_seed=draw_seed)
    keyed = sorted(zip(values, group, strict=True), key=lambda vr: _desc(vr[0]))
    subgroups: list[list[TableRow]] = []
    last: Any = object()
    for value, row in keyed:
        if subgroups and value == last:
            subgroups[-1].append(row)
        else:
            subgroups.append([row])
        last = value
    out: list[TableRow] = []
    for sub in subgroups:
        placed = _split(sub, rest, draw_seed=draw_seed, start=start + len(out))
        if len(subgroups) > 1 and len(sub) == 1:
            sub[0].placed_by = metric.key
        out.extend(placed)
    return out


def _desc(value: Value) -> tuple[int, Any]:
    """A sort key putting higher values first, for numbers and the draw's tickets alike."""
    if isinstance(value, str):
        return (0, tuple(-ord(c) for c in value))
    return (0, -value)


# -- Promotion and relegation -----------------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """Next season's divisions (top first, each a list of team ids, in this season's order)
    and who went up and down."""

    divisions: list[list[int]]
    promoted: list[int]
    relegated: list[int]


def promote_relegate(
    finals: Sequence[Sequence[int]], *, up: int, down: int, swaps: Iterable[tuple[int, int]] = ()
) -> Movement:
    """Next season's divisions from this season's final orders (``finals``: each division's team
    ids, first to last, top division first): the last ``down`` of each division but the lowest
    go down one, the first ``up`` of each but the top go up one. ``swaps``: play-off winners
    (a lower division's team, an upper's team) exchanged on top of that.

    >>> promote_relegate([[1, 2, 3], [4, 5, 6]], up=1, down=1)
    Movement(divisions=[[1, 2, 4], [3, 5, 6]], promoted=[4], relegated=[3])
    """
    if up < 0 or down < 0:
        raise ValueError("Promotion and relegation counts cannot be negative.")
    for d in finals:
        if up > len(d) or down > len(d):
            raise ValueError("More teams would move than a division holds.")
    keep: list[list[int]] = [list(d) for d in finals]
    promoted: list[int] = []
    relegated: list[int] = []
    arriving_from_below: list[list[int]] = [[] for _ in finals]
    arriving_from_above: list[list[int]] = [[] for _ in finals]
    for i, d in enumerate(finals):
        if i > 0 and up:
            ups = list(d[:up])
            promoted.extend(ups)
            arriving_from_below[i - 1].extend(ups)
            keep[i] = [t for t in keep[i] if t not in ups]
        if i < len(finals) - 1 and down:
            downs = list(d[len(d) - down :])
            relegated.extend(downs)
            arriving_from_above[i + 1].extend(downs)
            keep[i] = [t for t in keep[i] if t not in downs]
    divisions = [
        [*arriving_from_above[i], *keep[i], *arriving_from_below[i]] for i in range(len(finals))
    ]
    for winner, loser in swaps:
        wi = next(i for i, d in enumerate(divisions) if winner in d)
        li = next(i for i, d in enumerate(divisions) if loser in d)
        divisions[wi] = [loser if t == winner else t for t in divisions[wi]]
        divisions[li] = [winner if t == loser else t for t in divisions[li]]
        if li < wi:
            promoted.append(winner)
            relegated.append(loser)
    return Movement(divisions, promoted, relegated)


__all__ = [
    "DEFAULT_TEAM_TIEBREAKS",
    "SIDES",
    "TEAM_METRICS",
    "BoardResult",
    "MatchResult",
    "MatchRules",
    "Movement",
    "PlayedMatch",
    "TableRow",
    "board_result",
    "double_round_robin",
    "forfeited_board",
    "match_result",
    "other",
    "promote_relegate",
    "single_round_robin",
    "table",
    "team_chain",
]
