"""Standings kept fresh in the background and correct without it.

A write marks the season stale and bumps ``results_version`` in its own transaction; after
commit a Celery task recomputes and caches the standings. A read asks the cache, then the stored
snapshot (if it is of the current version), and otherwise computes from the games itself. Redis
or the worker being down only costs speed, never correctness.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import transaction

from league.models import Season, StandingsSnapshot
from league.selectors.standings import compute_standings

log = logging.getLogger(__name__)


VERSION_TTL = 5  # seconds a cached results version may be trusted without asking the database


def version_key(season_id: int) -> str:
    return f"results-version:{season_id}"


def cached_results_version(season_id: int) -> int | None:
    """The season's results version as last seen, if the cache has it (it is dropped on every
    result change after commit, and expires after a few seconds in any case)."""
    value = cache_get(version_key(season_id))
    return value if isinstance(value, int) else None


def remember_results_version(season_id: int, version: int) -> None:
    try:
        cache.set(version_key(season_id), version, timeout=VERSION_TTL)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)


def forget_results_version(season_id: int) -> None:
    try:
        cache.delete(version_key(season_id))
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)


def cache_key(season_id: int, version: int) -> str:
    return f"standings:{season_id}:{version}"


def cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # Redis down: the database still answers
        log.warning("standings cache unavailable", exc_info=True)
        return None


def cache_set(key: str, value: Any, timeout: int = 60 * 60 * 24) -> None:
    try:
        cache.set(key, value, timeout=timeout)
    except Exception:
        log.warning("standings cache unavailable", exc_info=True)


def standings_for_season(season: Season) -> dict[str, Any]:
    """Current standings: from the cache, the stored snapshot, or computed from the games."""
    key = cache_key(season.pk, season.results_version)
    data = cache_get(key)
    if data is not None:
        return data
    snapshot = StandingsSnapshot.objects.filter(
        season=season, results_version=season.results_version
    ).first()
    if snapshot is not None:
        data = snapshot.data
    else:
        data = compute_standings(season)
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
    cache_set(cache_key(season.pk, version), data)
    if season.playoff_seeding:
        from league.services.playoffs import playoffs_advance

        playoffs_advance(season=season)
    return data


def schedule_recompute(season_id: int) -> None:
    """Queue the recompute; if the broker is unreachable, the next read computes instead."""
    from league.tasks import recompute_standings

    forget_results_version(season_id)
    try:
        recompute_standings.delay(season_id)
    except Exception:
        log.warning(
            "could not queue the standings recompute for season %s", season_id, exc_info=True
        )
