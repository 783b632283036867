"""The cache as a speed-up only.

Every helper answers as a miss (or does nothing) when the cache is down: Redis being away costs
speed, never correctness, because the database can always answer. Every key is built from ids,
versions and values checked against fixed lists, so no key, and nothing cached under it, holds
text a visitor typed: the shared keys here, the league's standings keys beside the pages they
keep (``league.standings_cache``, a language of settings.LANGUAGES and a sort of the standings'
sortable columns checked there).
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)

DAY = 60 * 60 * 24


# After a failure the cache is left alone for this long, in this process: a Redis that never
# answers costs one socket timeout per process per interval, not one per cache call.
PAUSE_AFTER_FAILURE = 10.0
_paused_until = 0.0


def cache_paused() -> bool:
    """True while the cache is being left alone after a failure."""
    return time.monotonic() < _paused_until


def cache_failed() -> None:
    """Note a failure of the cache: leave it alone for :data:`PAUSE_AFTER_FAILURE` seconds."""
    global _paused_until
    log.warning("cache unavailable", exc_info=True)
    _paused_until = time.monotonic() + PAUSE_AFTER_FAILURE


def cache_resume() -> None:
    """Use the cache again at once (tests that switch caches)."""
    global _paused_until
    _paused_until = 0.0


def cache_get(key: str) -> Any:
    if cache_paused():
        return None
    try:
        return cache.get(key)
    except Exception:  # Redis down: the database still answers
        cache_failed()
        return None


def cache_set(key: str, value: Any, timeout: int = DAY) -> None:
    if cache_paused():
        return
    try:
        cache.set(key, value, timeout=timeout)
    except Exception:
        cache_failed()


def cache_delete(key: str) -> None:
    if cache_paused():
        return
    try:
        cache.delete(key)
    except Exception:
        cache_failed()


# --- Change counters that live pages poll ----------------------------------------------------


def tournament_version_key(tournament_id: int) -> str:
    """A tournament's change counter: bumped after every change its public pages show."""
    return f"tournament:{int(tournament_id)}:version"


def _seed() -> int:
    # A counter that went missing (Redis restarted, the key evicted) starts again from the
    # clock, never from 0 or 1, so a page that saw the old value still sees a change.
    return time.time_ns() // 1000


def bump_counter(key: str) -> None:
    """Add one to the counter under ``key`` (after a commit); nothing when the cache is down."""
    if cache_paused():
        return
    try:
        try:
            cache.incr(key)
        except ValueError:  # missing
            cache.set(key, _seed(), None)
    except Exception:
        cache_failed()


def read_counter(key: str) -> int | None:
    """The counter under ``key``, started from the clock when missing; None when the cache is
    down (the caller must then assume that something changed)."""
    if cache_paused():
        return None
    try:
        value = cache.get(key)
        if value is None:
            cache.add(key, _seed(), None)
            value = cache.get(key)
    except Exception:
        cache_failed()
        return None
    return value if isinstance(value, int) else None


# --- Win probability ---------------------------------------------------------------------------


def winprob_key(variant: str, target: int, version: int) -> str:
    """The per-deal distributions of one game and target, as the recorded games stood at
    ``version`` (how many games were over)."""
    from scoring.variants import VARIANTS

    if variant not in VARIANTS:
        raise ValueError(f"not a game: {variant!r}")
    return f"winprob:{variant}:{int(target)}:{int(version)}"


def win_chances_key(digest: str) -> str:
    """The ratings' chances for a night's games, as the rated results stood (``digest``: a
    hex digest of the night's start, its games and the rated results' state)."""
    if not re.fullmatch(r"[0-9a-f]{40}", digest):
        raise ValueError("not a digest")
    return f"win-chances:{digest}"
