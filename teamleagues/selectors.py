"""Reads of a team league: a match's result from its boards and legs, a division's table, a
team's history across divisions. The maths are ``contest.teamleague``'s; nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from contest import teamleague as tl
from teamleagues.models import (
    Board,
    BoardPlayer,
    Division,
    Entry,
    Fixture,
    Leg,
    MatchFormat,
    Member,
    Team,
    TeamSeason,
)


def fixtures_with_play(qs: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """Fixtures with their teams, boards, players and legs, read in a fixed few queries."""
    return qs.select_related("home", "away", "season__league__format").prefetch_related(
        Prefetch(
            "boards",
            queryset=Board.objects.order_by("number").prefetch_related(
                Prefetch("legs", queryset=Leg.objects.order_by("number")),
                Prefetch(
                    "players", queryset=BoardPlayer.objects.select_related("player").order_by("pk")
                ),
            ),
        )
    )


def board_result(board: Board, rules: tl.MatchRules) -> tl.BoardResult:
    """A board's result from the legs that stand (a forfeit: the other side's walkover)."""
    if board.forfeited_by:
        return tl.forfeited_board(board.forfeited_by, rules=rules)  # type: ignore[arg-type]
    winners: list[tl.Side] = []
    for leg in board.legs.all():
        if not leg.stands:
            break
        winners.append(leg.winner)  # type: ignore[arg-type]
    return tl.board_result(winners, rules=rules)


def match_result(fixture: Fixture, fmt: MatchFormat | None = None) -> tl.MatchResult:
    """A fixture's result so far (``over`` once every board is)."""
    rules = (fmt or fixture.season.league.format).rules()
    boards = [board_result(b, rules) for b in fixture.boards.all()]
    return tl.match_result(boards, rules=rules)


def winner_of(fixture: Fixture, result: tl.MatchResult) -> str | None:
    """The side through in a knockout: the result, or on a level match more legs, then more
    boards, then the organiser's decision (None: still to decide)."""
    if not result.over:
        return None
    if result.result in ("home", "away"):
        return result.result
    for mine, theirs in (
        (result.home_legs, result.away_legs),
        (result.home_boards, result.away_boards),
    ):
        if mine != theirs:
            return "home" if mine > theirs else "away"
    return fixture.decided_for or None


@dataclass
class DivisionTable:
    division: Division
    rows: list[tl.TableRow]
    chain: list[str]
    played: int
    to_play: int


def division_tables(season: TeamSeason) -> list[DivisionTable]:
    """Every division's table of ``season``, top first (only finished matches count)."""
    divisions = list(season.divisions.order_by("level"))
    entries = list(
        Entry.objects.filter(season=season).select_related("team").order_by("team__name")
    )
    fixtures = list(
        fixtures_with_play(Fixture.objects.filter(season=season, division__isnull=False))
    )
    fmt = season.league.format
    chain = list(season.tiebreaks or tl.DEFAULT_TEAM_TIEBREAKS)
    out = []
    for division in divisions:
        teams = [(e.team_id, e.team.name) for e in entries if e.division_id == division.pk]
        played: list[tl.PlayedMatch] = []
        to_play = 0
        for f in fixtures:
            if f.division_id != division.pk:
                continue
            result = match_result(f, fmt)
            if result.over:
                played.append(tl.PlayedMatch(f.home_id, f.away_id, result))
            else:
                to_play += 1
        rows = tl.table(teams, played, chain=chain, draw_seed=season.draw_seed)
        out.append(DivisionTable(division, rows, chain, len(played), to_play))
    return out


def fixture_detail(pk: int) -> Fixture:
    return fixtures_with_play(Fixture.objects.filter(pk=pk)).get()


@dataclass
class HistoryLine:
    season: TeamSeason
    division: Division
    position: int | None
    moved: str


def team_history(team: Team) -> list[HistoryLine]:
    """A team's seasons, newest first: its division, where it finished, up or down."""
    entries = Entry.objects.filter(team=team).select_related("season", "division")
    return [
        HistoryLine(e.season, e.division, e.position, e.moved)
        for e in entries.order_by("-season__pk")
    ]


def fixtures_of(season: TeamSeason, *, team_ids: Iterable[int] = ()) -> list[Fixture]:
    qs = Fixture.objects.filter(season=season).select_related("home", "away", "division")
    ids = list(team_ids)
    if ids:
        from django.db.models import Q

        qs = qs.filter(Q(home_id__in=ids) | Q(away_id__in=ids))
    return list(qs.order_by("date", "round", "pk"))


@dataclass
class Average:
    """A player's season: matches played, legs played and won, their average (legs won per
    leg played), and whether they played enough matches to qualify for the honours."""

    player_id: int
    name: str
    team: str
    matches: int
    legs: int
    won: int
    qualified: bool

    @property
    def average(self) -> float:
        return self.won / self.legs if self.legs else 0.0


def averages(season: TeamSeason) -> list[Average]:
    """Every player of the season's league matches (divisions only) with the legs they played
    that stand: the qualified first, by average, then legs won (two queries)."""
    rows: dict[int, Average] = {}
    played: dict[int, set[int]] = {}
    players = BoardPlayer.objects.filter(
        board__fixture__season=season, board__fixture__division__isnull=False
    ).select_related("player", "board__fixture__home", "board__fixture__away")
    legs: dict[int, list[str]] = {}
    for board_id, winner in Leg.objects.filter(
        board__fixture__season=season,
        board__fixture__division__isnull=False,
        state__in=["agreed", "settled"],
    ).values_list("board_id", "winner"):
        legs.setdefault(board_id, []).append(winner)
    for bp in players:
        fixture = bp.board.fixture
        team = fixture.home.name if bp.side == "home" else fixture.away.name
        row = rows.setdefault(
            bp.player_id, Average(bp.player_id, bp.player.name, team, 0, 0, 0, False)
        )
        won = legs.get(bp.board_id, [])
        row.legs += len(won)
        row.won += sum(1 for w in won if w == bp.side)
        played.setdefault(bp.player_id, set()).add(fixture.pk)
    for pid, row in rows.items():
        row.matches = len(played[pid])
        row.qualified = row.matches >= season.averages_minimum
    return sorted(rows.values(), key=lambda r: (not r.qualified, -r.average, -r.won, r.name))


def player_of_the_season(season: TeamSeason) -> Average | None:
    """The best average among the qualified (then the most legs won); None when nobody
    qualified."""
    best = averages(season)
    return best[0] if best and best[0].qualified else None


def fixture_calendar(player_ids: set[int]) -> list[dict[str, Any]]:
    """The dated fixtures of open seasons of the teams these players are on, as calendar
    items (the kernel's calendar source; one query)."""
    from urllib.parse import urlsplit

    from django.conf import settings
    from django.db.models import Q
    from django.urls import reverse

    host = urlsplit(settings.PEGBOARD_SITE_URL).hostname or "pegboard"
    teams = Member.objects.filter(player__in=player_ids).values("team_id")
    fixtures = (
        Fixture.objects.filter(Q(home__in=teams) | Q(away__in=teams), date__isnull=False)
        .filter(season__state="open")
        .select_related("home", "away", "season__league")
        .distinct()
    )
    return [
        {
            "uid": f"team-fixture-{f.pk}@{host}",
            "data": {
                "summary": f"{f.home.name} v {f.away.name}",
                "league": f.season.league.name,
                "date": f.date.isoformat() if f.date else "",
                "venue": f.home.venue,
                "time_zone": settings.TIME_ZONE,
                "path": reverse("teamleagues:fixture", args=[f.pk]),
            },
        }
        for f in fixtures
    ]
