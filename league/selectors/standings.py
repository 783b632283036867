"""Standings and seeding computed from the games of a season, read from each match's tally.

Only confirmed games count. Games finished and waiting for a team to vouch, and disputed games,
are counted apart (``pending``, ``disputed``) so the table can say they exist without counting
them as results. :func:`standings_for_season` is the read every page and the API ask: the cache,
then the snapshot ``league.services.standings`` stored, and only then computed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import connection
from django.utils import timezone

from league.kernel.cache import cache_get, cache_set
from league.models import MatchTally, Season, StandingsSnapshot, Team
from league.models.games import OVER_STATUSES
from league.ranking import METRICS, TeamRecord, rank_teams
from league.standings_cache import standings_key
from league.standings_row import ROW_KEYS, standings_row

# The games the standings count: every game that is over, confirmed or still pending (the
# match tallies' statement, league.services.tallies). A write that moves a game into or out of
# these changes the standings.
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


# The season's teams, then one row per regular-season match: what its games add up to, as the
# match's tally keeps it (``league.services.tallies``: rebuilt from the games in every
# transaction that changes one). Reading 640 tallies instead of summing 3,200 games is most of
# what a request that finds no stored standings saves (bench/standings.py, "computed"); one
# statement instead of two saves a round trip to the database. Written as SQL rather than
# through the ORM, by measurement: building the query cost the ORM more than running it. Plain
# SQL that SQLite and PostgreSQL both run; the table names come from the models.
_TEAMS_AND_TALLIES_SQL = """
SELECT id, name, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
FROM {team}
WHERE season_id = %(season)s
UNION ALL
SELECT home_id, NULL, away_id, week_id, home_won, away_won, home_points, away_points, spread,
  home_skunks, away_skunks, home_double_skunks, away_double_skunks, waiting, disputed, forfeits
FROM {tally}
WHERE season_id = %(season)s AND NOT is_playoff
"""


def _teams_and_tallies(season: Season) -> tuple[list[tuple[int, str]], list[tuple[int, ...]]]:
    """The season's teams ``(id, name)``, and ``(home, away, week, home wins, away wins, home
    points, away points, home's net margin, home skunks, away skunks, home double skunks, away
    double skunks, waiting, disputed, games won by forfeit)`` for each match of the regular
    season: both a head-to-head tally (the pair) and a week's balance (the week), so a
    3,200-game season comes back as its 640 matches."""
    sql = _TEAMS_AND_TALLIES_SQL.format(team=Team._meta.db_table, tally=MatchTally._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql, {"season": season.pk})
        rows = cursor.fetchall()
    teams = [(row[0], row[1]) for row in rows if row[1] is not None]
    tallies = [(row[0], *row[2:]) for row in rows if row[1] is None]
    return teams, tallies


# A team's sums while its matches are read, by position (a list per team, not a TeamRecord:
# this loop runs for every match of the season on every computed request).
_PLAYED, _WON, _LOST, _POINTS, _SPREAD, _SKUNKS, _SKUNKS_AGAINST, _DOUBLES = range(8)
_PENDING, _DISPUTED = 8, 9


def season_records(
    season: Season, *, read: tuple[list[tuple[int, str]], list[tuple[int, ...]]] | None = None
) -> list[TeamRecord]:
    """Every team's record from confirmed, non-playoff games (and its games not yet counted);
    ``read``: the season's teams and tallies already read (``records_through``)."""
    teams, tallies = read if read is not None else _teams_and_tallies(season)
    sums = {pk: [0] * 10 for pk, _name in teams}
    h2h: dict[int, dict[int, int]] = {pk: {} for pk, _name in teams}
    week_balance: dict[tuple[int, int], int] = {}  # (team, week) -> games won minus games lost
    # A week is won when its match is over (every game played and confirmed, or the match
    # forfeited), not at 1-0 while the match is still being played: a week's balance counts
    # finished matches only. A forfeit wins the week only where the season says so.
    all_games = season.games_per_match
    forfeit_wins_week = season.forfeit_wins_week
    for row in tallies:
        home_id, away_id, week, h_won, a_won, h_pts, a_pts, spread = row[:8]
        h_sk, a_sk, h_dsk, a_dsk, pending, disputed, forfeits = row[8:]
        home, away = sums[home_id], sums[away_id]
        if pending or disputed:
            home[_PENDING] += pending
            away[_PENDING] += pending
            home[_DISPUTED] += disputed
            away[_DISPUTED] += disputed
        played = h_won + a_won
        if not played:
            continue
        home[_PLAYED] += played
        home[_WON] += h_won
        home[_LOST] += a_won
        home[_POINTS] += h_pts
        home[_SPREAD] += spread
        home[_SKUNKS] += h_sk
        home[_SKUNKS_AGAINST] += a_sk
        home[_DOUBLES] += h_dsk
        away[_PLAYED] += played
        away[_WON] += a_won
        away[_LOST] += h_won
        away[_POINTS] += a_pts
        away[_SPREAD] -= spread
        away[_SKUNKS] += a_sk
        away[_SKUNKS_AGAINST] += h_sk
        away[_DOUBLES] += a_dsk
        pair = h2h[home_id]
        pair[away_id] = pair.get(away_id, 0) + h_pts
        pair = h2h[away_id]
        pair[home_id] = pair.get(home_id, 0) + a_pts
        over = played >= all_games or forfeits > 0
        if forfeits and not forfeit_wins_week:
            over = False
        if h_won != a_won and over:
            key = (home_id, week)
            week_balance[key] = week_balance.get(key, 0) + h_won - a_won
            key = (away_id, week)
            week_balance[key] = week_balance.get(key, 0) + a_won - h_won
    weeks_won = Counter(team for (team, _week), balance in week_balance.items() if balance > 0)
    return [
        TeamRecord(
            team_id=pk,
            name=name,
            played=s[_PLAYED],
            won=s[_WON],
            lost=s[_LOST],
            points=s[_POINTS],
            skunks=s[_SKUNKS],
            skunks_against=s[_SKUNKS_AGAINST],
            double_skunks=s[_DOUBLES],
            weeks_won=weeks_won[pk],
            spread=s[_SPREAD],
            pending=s[_PENDING],
            disputed=s[_DISPUTED],
            h2h_points=h2h[pk],
        )
        for pk, name in teams
        for s in (sums[pk],)
    ]


def records_through(season: Season, weeks: list[set[int]]) -> list[list[TeamRecord]]:
    """Every team's record counting only the matches of each set of ``weeks`` (week ids), one
    list per set, from one read of the tallies: the standings as they stood after a night."""
    teams, tallies = _teams_and_tallies(season)
    return [
        season_records(season, read=(teams, [row for row in tallies if row[2] in chosen]))
        for chosen in weeks
    ]


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


def standings_for_season(season: Season) -> dict[str, Any]:
    """Current standings: from the cache, the stored snapshot, or computed from the games."""
    key = standings_key(season.pk, season.results_version)
    data = cache_get(key)
    if data is not None:
        return data
    snapshot = stored_snapshot(season.pk, season.results_version)
    data = snapshot if is_current_shape(snapshot) else compute_standings(season)
    cache_set(key, data)
    return data


# The snapshot's lookup in plain SQL, as the stored page's is (league.rendering): every computed
# request asks it first, and building the query through the ORM cost fifteen times running it.
_SNAPSHOT_SQL = "SELECT data FROM {table} WHERE season_id = %s AND results_version = %s"


def stored_snapshot(season_id: int, results_version: int) -> Any:
    """The stored standings of this results version (decoded as the model's field does), or
    None."""
    with connection.cursor() as cursor:
        cursor.execute(
            _SNAPSHOT_SQL.format(table=StandingsSnapshot._meta.db_table),
            [season_id, results_version],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    if not isinstance(row[0], str):  # a driver that decodes JSON itself
        return row[0]
    data = StandingsSnapshot._meta.get_field("data")
    # No expression: a column read whole (Django only looks for a key transform).
    return data.from_db_value(row[0], None, connection)  # type: ignore[arg-type]
