"""The tie-break chain, pure: each tie-break is a small named metric picked by configuration.

The metrics are ``contest.tiebreaks``' (a ``key``, stored in the league's settings and in
computed standings; the ``field`` of :class:`TeamRecord` it reads; values giving each tied team
a value, higher is better; its ``name`` and ``abbr``), translated here where shown. Teams
are ordered by league points, then each group still level is split by the next tie-break of the
chain, applied to that group alone (so head-to-head counts only games among the tied teams).
Standings stop before the draw: teams still level share a rank. Seeding always ends with the draw,
so it is a strict order anyone can recompute from the season's published seed.

What placed a team is kept as the metric's key; pages translate its name when they draw it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from contest import tiebreaks
from contest.tiebreaks import Value


@dataclass
class TeamRecord:
    """One team's season so far: results from confirmed games only, and how many of its games
    wait for a confirmation or a ruling (shown, never counted)."""

    team_id: int
    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    points: int = 0
    skunks: int = 0
    skunks_against: int = 0
    double_skunks: int = 0
    weeks_won: int = 0
    spread: int = 0
    pending: int = 0  # finished, waiting for a team to vouch
    disputed: int = 0  # waiting for a judge
    h2h_points: dict[int, int] = field(default_factory=dict)  # opponent id -> points earned


class TieBreak:
    """A contest metric (``key``, the ``field`` it reads, its values) as the league shows it:
    its ``name`` and ``abbr`` (the metric's own words) translated in the reader's language."""

    def __init__(self, metric: tiebreaks.TieBreak) -> None:
        self.metric = metric
        self.key = metric.key
        self.field = metric.field
        self.name: Promise = _(metric.name)
        self.abbr: Promise = _(metric.abbr)

    def values(self, group: Sequence[TeamRecord], *, draw_seed: int) -> list[Value]:
        """Each team's value among ``group``, in the group's order (higher ranks first)."""
        return self.metric.values(group, draw_seed=draw_seed)

    @cached_property
    def english(self) -> str:
        """The name untranslated: the value the API has always given for what placed a team."""
        with translation.override(None):
            return str(self.name)

    def __repr__(self) -> str:
        return f"TieBreak({self.metric!r})"


POINTS = TieBreak(tiebreaks.POINTS)  # not a tie-break: what ranks first
TIEBREAKS: dict[str, TieBreak] = {
    key: TieBreak(tiebreaks.METRICS[key]) for key in tiebreaks.LEAGUE_TIEBREAKS
}
METRICS: dict[str, TieBreak] = {POINTS.key: POINTS, **TIEBREAKS}  # what may have placed a team


@dataclass
class RankedTeam:
    record: TeamRecord
    rank: int
    decided_by: str  # the key of the metric that placed the team against those level with it


def _order(
    group: list[TeamRecord], chain: Sequence[TieBreak], draw_seed: int, decided: dict[int, str]
) -> list[list[TeamRecord]]:
    """Split ``group`` (level so far) by the chain; returns the still-level blocks in order."""
    if len(group) == 1 or not chain:
        return [group]
    tb, rest = chain[0], chain[1:]
    values = tb.values(group, draw_seed=draw_seed)
    buckets: dict[Value, list[TeamRecord]] = {}
    for r, value in zip(group, values, strict=True):
        buckets.setdefault(value, []).append(r)
    if len(buckets) > 1:
        for r in group:
            decided[r.team_id] = tb.key
    blocks: list[list[TeamRecord]] = []
    for value in sorted(buckets, reverse=True):  # type: ignore[type-var]
        blocks.extend(_order(buckets[value], rest, draw_seed, decided))
    return blocks


def chain_of(keys: Iterable[str]) -> list[TieBreak]:
    """The configured tie-breaks, unknown keys refused."""
    return [TIEBREAKS[m.key] for m in tiebreaks.chain_of(keys, known=tiebreaks.LEAGUE_TIEBREAKS)]


def rank_teams(
    records: Iterable[TeamRecord], *, tiebreaks: Sequence[str], draw_seed: int
) -> tuple[list[RankedTeam], list[RankedTeam]]:
    """``(standings, seeding)``: standings share ranks where the chain (less the draw) cannot
    separate teams; seeding is strict, ending with the draw."""
    chain = chain_of(tiebreaks)
    standings_chain = [tb for tb in chain if tb.key != "draw"]
    seeding_chain = [*standings_chain, TIEBREAKS["draw"]]
    by_points: dict[int, list[TeamRecord]] = {}
    for r in records:
        by_points.setdefault(r.points, []).append(r)

    def build(ch: Sequence[TieBreak]) -> list[RankedTeam]:
        out: list[RankedTeam] = []
        position = 1
        for points in sorted(by_points, reverse=True):
            group = sorted(by_points[points], key=lambda r: r.name)
            decided: dict[int, str] = {r.team_id: POINTS.key for r in group}
            for block in _order(group, ch, draw_seed, decided):
                for r in block:
                    out.append(RankedTeam(r, position, decided[r.team_id]))
                position += len(block)
        return out

    standings = build(standings_chain)
    seeding = build(seeding_chain)
    return standings, seeding
