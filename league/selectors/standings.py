"""Standings and seeding computed from the games of a season: two queries, tallied in SQL.

Only confirmed games count. Games finished and waiting for a team to vouch, and disputed games,
are counted apart (``pending``, ``disputed``) so the table can say they exist without counting
them as results.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils import timezone

from league.models import Game, GameStatus, Match, Season, Week
from league.models.games import OVER_STATUSES
from league.ranking import METRICS, TeamRecord, rank_teams
from league.standings_row import ROW_KEYS, standings_row

CONFIRMED = GameStatus.CONFIRMED
FINISHED = GameStatus.FINISHED
DISPUTED = GameStatus.DISPUTED
# The games the standings count: every game that is over, confirmed or still pending (the
# aggregate's WHERE below). A write that moves a game into or out of these changes the standings.
COUNTED_STATUSES = OVER_STATUSES

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


# One row per regular-season match: what its games add up to, tallied by the database.
# Written as SQL rather than through the ORM, by measurement (bench/standings.py, 3,200 games):
# compiling these eleven filtered aggregates and converting the 640 x 11 values it returns cost
# the ORM more than the query itself. Plain SQL that SQLite (3.30+) and PostgreSQL both run;
# the table names come from the models. Grouped by week then match, the order SQLite reads them
# in through the indexes, so it aggregates as it reads instead of sorting first.
_TALLY_SQL = """
SELECT m.home_id, m.away_id, m.week_id,
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id),
  SUM(g.home_points) FILTER (WHERE g.status = %(confirmed)s),
  SUM(g.away_points) FILTER (WHERE g.status = %(confirmed)s),
  SUM(CASE WHEN g.winner_id = m.home_id THEN g.margin
           WHEN g.winner_id = m.away_id THEN -g.margin ELSE 0 END)
    FILTER (WHERE g.status = %(confirmed)s),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id
                   AND g.skunk_level >= 1),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id
                   AND g.skunk_level >= 1),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id
                   AND g.skunk_level >= 2),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id
                   AND g.skunk_level >= 2),
  COUNT(*) FILTER (WHERE g.status = %(finished)s),
  COUNT(*) FILTER (WHERE g.status = %(disputed)s)
FROM {game} g
  JOIN {match} m ON g.match_id = m.id
  JOIN {week} w ON m.week_id = w.id
WHERE w.season_id = %(season)s AND NOT w.is_playoff
  AND g.status IN (%(confirmed)s, %(finished)s, %(disputed)s)
GROUP BY w.id, m.id
"""


def _match_tallies(season: Season) -> list[tuple[int, ...]]:
    """``(home, away, week, home wins, away wins, home points, away points, home's net margin,
    home skunks, away skunks, home double skunks, away double skunks, waiting, disputed)`` for
    each match of the regular season: both a head-to-head tally (the pair) and a week's balance
    (the week), so a 3,200-game season comes back as its 640 matches."""
    sql = _TALLY_SQL.format(
        game=Game._meta.db_table, match=Match._meta.db_table, week=Week._meta.db_table
    )
    params = {
        "season": season.pk,
        "confirmed": str(CONFIRMED),
        "finished": str(FINISHED),
        "disputed": str(DISPUTED),
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def season_records(season: Season) -> list[TeamRecord]:
    """Every team's record from confirmed, non-playoff games (and its games not yet counted)."""
    records = {
        pk: TeamRecord(team_id=pk, name=name) for pk, name in season.teams.values_list("pk", "name")
    }
    week_balance: dict[tuple[int, int], int] = {}  # (team, week) -> games won minus games lost
    for row in _match_tallies(season):
        home_id, away_id, week, h_won, a_won, h_pts, a_pts, spread = row[:8]
        h_sk, a_sk, h_dsk, a_dsk, pending, disputed = row[8:]
        home, away = records[home_id], records[away_id]
        if pending or disputed:
            home.pending += pending
            away.pending += pending
            home.disputed += disputed
            away.disputed += disputed
        played = h_won + a_won
        if not played:
            continue
        h_pts, a_pts, spread = h_pts or 0, a_pts or 0, spread or 0
        home.played += played
        home.won += h_won
        home.lost += a_won
        home.points += h_pts
        home.spread += spread
        home.skunks += h_sk
        home.skunks_against += a_sk
        home.double_skunks += h_dsk
        home.h2h_points[away_id] = home.h2h_points.get(away_id, 0) + h_pts
        away.played += played
        away.won += a_won
        away.lost += h_won
        away.points += a_pts
        away.spread -= spread
        away.skunks += a_sk
        away.skunks_against += h_sk
        away.double_skunks += a_dsk
        away.h2h_points[home_id] = away.h2h_points.get(home_id, 0) + a_pts
        if h_won != a_won:
            winner = home_id if h_won > a_won else away_id
            week_balance[(winner, week)] = week_balance.get((winner, week), 0) + abs(h_won - a_won)
            loser = away_id if winner == home_id else home_id
            week_balance[(loser, week)] = week_balance.get((loser, week), 0) - abs(h_won - a_won)
    for (team, _week), balance in week_balance.items():
        if balance > 0:
            records[team].weeks_won += 1
    return list(records.values())


def compute_standings(season: Season) -> dict[str, Any]:
    """The standings and seeding of ``season`` as a JSON-ready dict, computed from the games.

    Rows follow :data:`league.standings_row.STANDINGS_ROW`; what placed a team is kept as the
    tie-break's key (``decided_by_key``) beside the English name the API has always given. The
    season's own tie-breaks rank it: changing the league's defaults never re-ranks a season."""
    standings, seeding = rank_teams(
        season_records(season), tiebreaks=season.tiebreaks, draw_seed=season.draw_seed
    )
    return {
        "season": season.name,
        "season_id": season.pk,
        "results_version": season.results_version,
        "computed_at": timezone.now().isoformat(),
        "tiebreaks": list(season.tiebreaks),
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
