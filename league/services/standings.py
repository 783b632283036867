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

from django.db import transaction

from league.cache import cache_get, cache_set, standings_key
from league.models import Season, StandingsSnapshot
from league.selectors.standings import compute_standings, is_current_shape
from league.services.results import schedule_recompute as schedule_recompute


def standings_for_season(season: Season) -> dict[str, Any]:
    """Current standings: from the cache, the stored snapshot, or computed from the games."""
    key = standings_key(season.pk, season.results_version)
    data = cache_get(key)
    if data is not None:
        return data
    snapshot = (
        StandingsSnapshot.objects.filter(season=season, results_version=season.results_version)
        .values_list("data", flat=True)
        .first()
    )
    data = snapshot if is_current_shape(snapshot) else compute_standings(season)
    cache_set(key, data)
    return data


def standings_recompute(*, season_id: int) -> dict[str, Any] | None:
    """Recompute, store and cache a season's standings. Safe to run twice or to be killed:
    the snapshot is written in one transaction, tagged with the version it was computed from."""
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        return None
    data = compute_standings(season)
    version = season.results_version
    with transaction.atomic():
        StandingsSnapshot.objects.update_or_create(
            season=season, defaults={"results_version": version, "data": data}
        )
        Season.objects.filter(pk=season.pk, results_version=version).update(standings_stale=False)
    cache_set(standings_key(season.pk, version), data)
    return data
