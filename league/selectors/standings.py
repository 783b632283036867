"""Standings and seeding computed from the games of a season: two queries, the tally in SQL.

Only confirmed games count. Games finished and waiting for a team to vouch, and disputed games,
are counted apart (``pending``, ``disputed``) so the table can say they exist without counting
them as results.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from league.models import Game, GameStatus, Season
from league.ranking import METRICS, TeamRecord, rank_teams
from league.standings_row import ROW_KEYS, standings_row

CONFIRMED = GameStatus.CONFIRMED
FINISHED = GameStatus.FINISHED
DISPUTED = getattr(GameStatus, "DISPUTED", "disputed")  # the lifecycle's new status

DOCUMENT_KEYS = (
    "season",
    "season_id",
    "results_version",
    "computed_at",
    "tiebreaks",
    "draw_seed",
    "playoff_teams",
    "standings",
    "seeding",
    "seeding_decided_by",
    "seeding_decided_by_key",
)


def _match_tallies(season: Season) -> Any:
    """One row per (home, away, week) of the regular season: what its games add up to.

    Aggregated by the database (GROUP BY), so a 3,200-game season comes back as its 640 matches;
    each row is both a head-to-head tally (the pair) and a week's balance (the week)."""
    confirmed = Q(status=CONFIRMED)
    home_won = confirmed & Q(winner_id=F("match__home_id"))
    away_won = confirmed & Q(winner_id=F("match__away_id"))
    tallies = {
        "home_won": Count("pk", filter=home_won),
        "away_won": Count("pk", filter=away_won),
        "home_pts": Sum("home_points", filter=confirmed),
        "away_pts": Sum("away_points", filter=confirmed),
        "home_margin": Sum("margin", filter=home_won),
        "away_margin": Sum("margin", filter=away_won),
        "home_skunks": Count("pk", filter=home_won & Q(skunk_level__gte=1)),
        "away_skunks": Count("pk", filter=away_won & Q(skunk_level__gte=1)),
        "home_doubles": Count("pk", filter=home_won & Q(skunk_level__gte=2)),
        "away_doubles": Count("pk", filter=away_won & Q(skunk_level__gte=2)),
        "pending": Count("pk", filter=Q(status=FINISHED)),
        "disputed": Count("pk", filter=Q(status=DISPUTED)),
    }
    group = ("match__home_id", "match__away_id", "match__week_id")
    return (
        Game.objects.filter(
            match__week__season=season,
            match__week__is_playoff=False,
            status__in=[CONFIRMED, FINISHED, DISPUTED],
        )
        .order_by()
        .values(*group)
        .annotate(**tallies)
        .values_list(*group, *tallies)
    )


def season_records(season: Season) -> list[TeamRecord]:
    """Every team's record from confirmed, non-playoff games (and its games not yet counted)."""
    records = {
        pk: TeamRecord(team_id=pk, name=name) for pk, name in season.teams.values_list("pk", "name")
    }
    week_balance: dict[tuple[int, int], int] = {}  # (team, week) -> games won minus games lost
    for row in _match_tallies(season):
        home_id, away_id, week, h_won, a_won, h_pts, a_pts = row[:7]
        h_margin, a_margin, h_sk, a_sk, h_dsk, a_dsk, pending, disputed = row[7:]
        home, away = records[home_id], records[away_id]
        h_pts, a_pts = h_pts or 0, a_pts or 0
        spread = (h_margin or 0) - (a_margin or 0)
        home.played += h_won + a_won
        away.played += h_won + a_won
        home.won += h_won
        home.lost += a_won
        away.won += a_won
        away.lost += h_won
        home.points += h_pts
        away.points += a_pts
        home.spread += spread
        away.spread -= spread
        home.skunks += h_sk
        away.skunks += a_sk
        home.skunks_against += a_sk
        away.skunks_against += h_sk
        home.double_skunks += h_dsk
        away.double_skunks += a_dsk
        home.pending += pending
        away.pending += pending
        home.disputed += disputed
        away.disputed += disputed
        if h_won or a_won:
            home.h2h_points[away_id] = home.h2h_points.get(away_id, 0) + h_pts
            away.h2h_points[home_id] = away.h2h_points.get(home_id, 0) + a_pts
            week_balance[(home_id, week)] = week_balance.get((home_id, week), 0) + h_won - a_won
            week_balance[(away_id, week)] = week_balance.get((away_id, week), 0) + a_won - h_won
    for (team, _week), balance in week_balance.items():
        if balance > 0:
            records[team].weeks_won += 1
    return list(records.values())


def compute_standings(season: Season) -> dict[str, Any]:
    """The standings and seeding of ``season`` as a JSON-ready dict, computed from the games.

    Rows follow :data:`league.standings_row.STANDINGS_ROW`; what placed a team is kept as the
    tie-break's key (``decided_by_key``) beside the English name the API has always given."""
    league = season.league
    standings, seeding = rank_teams(
        season_records(season), tiebreaks=league.tiebreaks, draw_seed=season.draw_seed
    )
    return {
        "season": season.name,
        "season_id": season.pk,
        "results_version": season.results_version,
        "computed_at": timezone.now().isoformat(),
        "tiebreaks": list(league.tiebreaks),
        "draw_seed": season.draw_seed,
        "playoff_teams": season.playoff_teams,
        "standings": [standings_row(row) for row in standings],
        "seeding": [row.record.name for row in seeding],
        "seeding_decided_by": [METRICS[row.decided_by].english for row in seeding],
        "seeding_decided_by_key": [row.decided_by for row in seeding],
    }


def is_current_shape(data: Any) -> bool:
    """Whether stored standings have today's shape (a snapshot from before a deploy that
    changed the row is recomputed, not served)."""
    if not isinstance(data, dict) or data.keys() != set(DOCUMENT_KEYS):
        return False
    rows = data["standings"]
    return not rows or rows[0].keys() == set(ROW_KEYS)  # (PostgreSQL's jsonb reorders keys)
