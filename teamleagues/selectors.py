"""Reads of a team league: a match's result from its boards and legs, a division's table, a
team's history across divisions. The maths are ``contest.teamleague``'s; nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
