"""The tie-break chain, pure: each tie-break is a small named metric picked by configuration.

After Tabbycat's standings metrics: a tie-break has a ``key`` (stored in the league's settings and
in computed standings), the ``field`` of :class:`TeamRecord` it reads, a translatable ``name`` and
``abbr``, and one :meth:`~TieBreak.values` giving each tied team a value; higher is better. Teams
are ordered by league points, then each group still level is split by the next tie-break of the
chain, applied to that group alone (so head-to-head counts only games among the tied teams).
Standings stop before the draw: teams still level share a rank. Seeding always ends with the draw,
so it is a strict order anyone can recompute from the season's published seed.

What placed a team is kept as the metric's key; pages translate its name when they draw it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


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


Value = float | int | str


class TieBreak:
    """A metric: ``key``, the record ``field`` it reads, a translatable ``name`` and ``abbr``."""

    key = ""
    field = ""
    name: Promise | str = ""
    abbr: Promise | str = ""

    def values(self, group: Sequence[TeamRecord], *, draw_seed: int) -> dict[int, Value]:
        """Each team's value among ``group`` (higher ranks first)."""
        return {r.team_id: getattr(r, self.field) for r in group}

    @cached_property
    def english(self) -> str:
        """The name untranslated: the value the API has always given for what placed a team."""
        with translation.override(None):
            return str(self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class LeaguePoints(TieBreak):
    """Not a tie-break: what every team is ranked by first."""

    key, field, name, abbr = "points", "points", _("league points"), _("Pts")


class WeeksWon(TieBreak):
    key, field, name, abbr = "weeks_won", "weeks_won", _("weeks won"), _("WW")


class HeadToHead(TieBreak):
    key, field, name, abbr = "head_to_head", "h2h_points", _("head-to-head points"), _("H2H")

    def values(self, group: Sequence[TeamRecord], *, draw_seed: int) -> dict[int, Value]:
        ids = {r.team_id for r in group}
        return {r.team_id: sum(p for opp, p in r.h2h_points.items() if opp in ids) for r in group}


class Spread(TieBreak):
    key, field, name, abbr = "spread", "spread", _("spread"), _("SPR")


class Wins(TieBreak):
    key, field, name, abbr = "wins", "won", _("games won"), _("W")


class Skunks(TieBreak):
    key, field, name, abbr = "skunks", "skunks", _("skunks"), _("SK")


class Draw(TieBreak):
    """A draw anyone can repeat: sha256 of "seed:team name", highest first."""

    key, field, name, abbr = "draw", "name", _("drawn lots"), _("DRAW")

    def values(self, group: Sequence[TeamRecord], *, draw_seed: int) -> dict[int, Value]:
        return {r.team_id: draw_ticket(draw_seed, r.name) for r in group}


def draw_ticket(seed: int, team_name: str) -> str:
    """The team's ticket in the season's draw: higher wins.

    >>> draw_ticket(2026, "Nobs")[:12]
    '6457b8b78b8e'
    """
    return hashlib.sha256(f"{seed}:{team_name}".encode()).hexdigest()


POINTS = LeaguePoints()
TIEBREAKS: dict[str, TieBreak] = {
    tb.key: tb for tb in (WeeksWon(), HeadToHead(), Spread(), Wins(), Skunks(), Draw())
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
    for r in group:
        buckets.setdefault(values[r.team_id], []).append(r)
    if len(buckets) > 1:
        for r in group:
            decided[r.team_id] = tb.key
    blocks: list[list[TeamRecord]] = []
    for value in sorted(buckets, reverse=True):  # type: ignore[type-var]
        blocks.extend(_order(buckets[value], rest, draw_seed, decided))
    return blocks


def chain_of(keys: Iterable[str]) -> list[TieBreak]:
    """The configured tie-breaks, unknown keys refused."""
    chain = []
    for key in keys:
        if key not in TIEBREAKS:
            raise ValueError(f"Unknown tie-break {key!r}; known: {', '.join(TIEBREAKS)}.")
        chain.append(TIEBREAKS[key])
    return chain


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
