"""The tie-break chain, pure: each tie-break is a small named piece picked by configuration.

After Tabbycat's standings metrics: a tie-break has a ``key`` (stored in the league's
settings), a ``name`` and a short ``abbr``, and gives each tied team a value; higher is better.
Teams are ordered by league points, then each group still level is split by the next tie-break
of the chain, applied to that group alone (so head-to-head counts only games among the tied
teams). Standings stop before the draw: teams still level share a rank. Seeding always ends with
the draw, so it is a strict order anyone can recompute from the season's published seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class TeamRecord:
    """One team's season so far, from confirmed games."""

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
    h2h_points: dict[int, int] = field(default_factory=dict)  # opponent id -> points earned


class TieBreak:
    key = ""
    name = ""
    abbr = ""

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        """Each team's value among ``group`` (higher ranks first)."""
        raise NotImplementedError


class WeeksWon(TieBreak):
    key, name, abbr = "weeks_won", "weeks won", "WW"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        return {r.team_id: r.weeks_won for r in group}


class HeadToHead(TieBreak):
    key, name, abbr = "head_to_head", "head-to-head points", "H2H"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        ids = {r.team_id for r in group}
        return {r.team_id: sum(p for opp, p in r.h2h_points.items() if opp in ids) for r in group}


class Spread(TieBreak):
    key, name, abbr = "spread", "spread", "SPR"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        return {r.team_id: r.spread for r in group}


class Wins(TieBreak):
    key, name, abbr = "wins", "games won", "W"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        return {r.team_id: r.won for r in group}


class Skunks(TieBreak):
    key, name, abbr = "skunks", "skunks", "SK"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        return {r.team_id: r.skunks for r in group}


class Draw(TieBreak):
    """A draw anyone can repeat: sha256 of "seed:team name", highest first."""

    key, name, abbr = "draw", "drawn lots", "DRAW"

    def values(
        self, group: Sequence[TeamRecord], *, draw_seed: int
    ) -> dict[int, float | int | str]:
        return {r.team_id: draw_ticket(draw_seed, r.name) for r in group}


def draw_ticket(seed: int, team_name: str) -> str:
    """The team's ticket in the season's draw: higher wins.

    >>> draw_ticket(2026, "Nobs")[:12]
    '6457b8b78b8e'
    """
    return hashlib.sha256(f"{seed}:{team_name}".encode()).hexdigest()


TIEBREAKS: dict[str, TieBreak] = {
    tb.key: tb for tb in (WeeksWon(), HeadToHead(), Spread(), Wins(), Skunks(), Draw())
}
POINTS = "league points"


@dataclass
class RankedTeam:
    record: TeamRecord
    rank: int
    decided_by: str  # the name of what placed the team against the teams level with it


def _order(
    group: list[TeamRecord], chain: Sequence[TieBreak], draw_seed: int, decided: dict[int, str]
) -> list[list[TeamRecord]]:
    """Split ``group`` (level so far) by the chain; returns the still-level blocks in order."""
    if len(group) == 1 or not chain:
        return [group]
    tb, rest = chain[0], chain[1:]
    values = tb.values(group, draw_seed=draw_seed)
    buckets: dict[float | int | str, list[TeamRecord]] = {}
    for r in group:
        buckets.setdefault(values[r.team_id], []).append(r)
    if len(buckets) > 1:
        for r in group:
            decided[r.team_id] = tb.name
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
            decided: dict[int, str] = {r.team_id: POINTS for r in group}
            for block in _order(group, ch, draw_seed, decided):
                for r in block:
                    out.append(RankedTeam(r, position, decided[r.team_id]))
                position += len(block)
        return out

    standings = build(standings_chain)
    seeding = build(seeding_chain)
    return standings, seeding
