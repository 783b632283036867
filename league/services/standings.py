"""Standings kept fresh in the background and correct without it.

A write calls :func:`league.services.results.results_changed`: the season is marked stale and,
after commit, gets a new ``results_version`` and a queued recompute (the task recomputes here,
then renders the visitors' pages, then advances the playoffs). A read asks the cache, then the
stored snapshot (if it is of the current version and shape), and otherwise computes from the
games itself. Redis or the worker being down only costs speed, never correctness.

This module imports neither the playoffs, the tasks nor the page rendering: they call it.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from league.kernel.cache import cache_get, cache_set, standings_key
from league.models import Season, StandingsSnapshot
from league.selectors.standings import compute_standings, is_current_shape
from league.services.results import schedule_recompute as schedule_recompute
from league.services.tallies import mend_tallies


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


def standings_recompute(*, season_id: int) -> dict[str, Any] | None:
    """Recompute, store and cache a season's standings. Safe to run twice or to be killed:
    the snapshot is written in one transaction, tagged with the version it was computed from."""
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        return None
    mend_tallies(season.pk)  # a write that went around the tallies is mended here
    data = compute_standings(season)
    version = season.results_version
    with transaction.atomic():
        StandingsSnapshot.objects.update_or_create(
            season=season, defaults={"results_version": version, "data": data}
        )
        Season.objects.filter(pk=season.pk, results_version=version).update(standings_stale=False)
    cache_set(standings_key(season.pk, version), data)
    return data
