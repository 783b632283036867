"""Standings kept fresh in the background and correct without it.

A write calls :func:`league.services.results.results_changed`: the season is marked stale and,
after commit, gets a new ``results_version`` and a queued recompute (the task recomputes here,
then renders the visitors' pages, then advances the playoffs). A read
(:func:`league.selectors.standings.standings_for_season`) asks the cache, then the stored
snapshot, and otherwise computes from the games itself. Redis or the worker being down only
costs speed, never correctness.

This module imports neither the playoffs, the tasks nor the page rendering: they call it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from league.kernel.cache import cache_set
from league.models import Season, StandingsSnapshot
from league.selectors.standings import compute_standings
from league.services.tallies import mend_tallies
from league.standings_cache import standings_key


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
