"""Reads: an event's results package, the schedule in force on a day, the national and regional
tables and a member's career, each summed from the stored points rows (query counts pinned)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum

import tournaments.selectors as tournament_selectors
from federation.models import PointsRow, PointsSchedule, Region, Submission, SubmissionStatus
from tournaments.models import ClubMember, PlayoffMatch, Tournament


def event_day(tournament: Tournament) -> date:
    """The day an event counts on: its date, else the day it was created."""
    return tournament.date or tournament.created_at.date()


def results_package(tournament: Tournament) -> dict[str, Any]:
    """Everything the federation keeps of an event's results, one row per player in final
    standings order: the event, then each player's place, ACC number, game points, record,
    whether they qualified and their playoff match wins (byes not counted)."""
    data = tournament_selectors.standings_for_tournament(tournament)
    entrants = {
        e.name: [r.player for r in e.roster.all()]
        for e in tournament.entrants.prefetch_related("roster__player")
    }
    player_ids = [p.pk for players in entrants.values() for p in players]
    numbers: dict[int, str] = {}
    for player_id, number, club_id in (
        ClubMember.objects.filter(player_id__in=player_ids)
        .exclude(acc_number="")
        .values_list("player_id", "acc_number", "club_id")
    ):
        if player_id not in numbers or club_id == tournament.club_id:  # the event's club first
            numbers[player_id] = number
    wins = Counter(
        PlayoffMatch.objects.filter(
            tournament=tournament, winner__isnull=False, top__isnull=False, bottom__isnull=False
        ).values_list("winner__name", flat=True)
    )
    qualifiers = set(data["qualifiers"])
    rows = []
    for row in data["standings"]:
        name = row["entrant"]
        for player in entrants.get(name, []):
            rows.append(
                {
                    "entrant": name,
                    "player": player.pk,
                    "name": player.name,
                    "acc_number": numbers.get(player.pk, ""),
                    "rank": row["rank"],
                    "game_points": row["game_points"],
                    "won": row["won"],
                    "lost": row["lost"],
                    "spread": row["spread"],
                    "qualified": name in qualifiers,
                    "playoff_wins": wins.get(name, 0),
                }
            )
    return {
        "event": tournament.name,
        "date": event_day(tournament).isoformat(),
        "kind": tournament.kind,
        "games": tournament.games_per_entrant,
        "club": tournament.club.name if tournament.club else "",
        "entrants": len(data["standings"]),
        "qualifiers": len(qualifiers),
        "rows": rows,
    }


def schedule_on(day: date) -> PointsSchedule | None:
    """The stored schedule in force on ``day`` (the latest dated on or before it), with its
    minimums read (two queries)."""
    return (
        PointsSchedule.objects.filter(effective_from__lte=day)
        .prefetch_related("minimums")
        .order_by("-effective_from")
        .first()
    )


def submission_of(tournament: Tournament) -> Submission | None:
    return Submission.objects.filter(tournament=tournament).first()


def review_queue() -> QuerySet[Submission]:
    """Results waiting for a statistician, oldest first."""
    return (
        Submission.objects.filter(status=SubmissionStatus.SENT)
        .select_related("tournament__club", "sent_by")
        .order_by("sent_at")
    )


@dataclass(frozen=True)
class TableRow:
    rank: int
    acc_number: str
    name: str
    points: int
    events: int


def _table(rows: QuerySet[PointsRow]) -> list[TableRow]:
    # Only the rows that earned points: a table lists who has points, and the club nights and
    # the players who did not qualify (most rows) are skipped by the index (bench/federation.py).
    summed = (
        rows.filter(points__gt=0)
        .exclude(acc_number="")
        .values("acc_number")
        .annotate(total=Sum("points"), events=Count("tournament", distinct=True), name=Max("name"))
        .order_by("-total", "name", "acc_number")
    )
    out: list[TableRow] = []
    previous: tuple[int, int] | None = None
    for i, r in enumerate(summed, start=1):
        rank = previous[1] if previous and previous[0] == r["total"] else i  # ties share a rank
        previous = (r["total"], rank)
        out.append(TableRow(rank, r["acc_number"], r["name"], r["total"], r["events"]))
    return out


def national_table(season: int) -> list[TableRow]:
    """The season's points of every member with an ACC number who earned some, most first,
    with the events they earned them at (one query)."""
    return _table(PointsRow.objects.filter(season=season))


def regional_table(region: Region, season: int) -> list[TableRow]:
    """The same, counting only the events of the region's clubs (one query)."""
    return _table(PointsRow.objects.filter(season=season, region=region))


def seasons() -> list[int]:
    """The seasons with points, latest first (one query, read from the points' index)."""
    rows = PointsRow.objects.filter(points__gt=0).values_list("season", flat=True)
    return list(rows.distinct().order_by("-season"))


@dataclass(frozen=True)
class Career:
    acc_number: str
    name: str
    rows: list[PointsRow]
    points: int
    events: int
    clubs: list[str]
    by_season: list[tuple[int, int]]


def career(acc_number: str) -> Career | None:
    """A member's events across clubs, latest first, with totals (one query)."""
    rows = list(
        PointsRow.objects.filter(acc_number=acc_number)
        .select_related("tournament__club", "region")
        .order_by("-date", "tournament_id")
    )
    if not rows:
        return None
    seasons_: Counter[int] = Counter()
    for r in rows:
        seasons_[r.season] += r.points
    clubs = sorted({r.tournament.club.name for r in rows if r.tournament.club})
    return Career(
        acc_number=acc_number,
        name=rows[0].name,
        rows=rows,
        points=sum(r.points for r in rows),
        events=len({r.tournament_id for r in rows}),
        clubs=clubs,
        by_season=sorted(seasons_.items(), reverse=True),
    )


def regions() -> QuerySet[Region]:
    return Region.objects.annotate(club_count=Count("clubs", filter=Q(clubs__isnull=False)))
