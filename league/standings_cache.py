"""The standings' cache keys and the results version as last seen, beside the pages they keep
(``league.rendering``): built from ids, versions, a language of settings.LANGUAGES and a sort of
the standings' sortable columns (``league.standings_row``), so no key holds text a visitor
typed. The cache itself, a speed-up only, is the kernel's (``league.kernel.cache``)."""

from __future__ import annotations

from django.conf import settings

from league.kernel.cache import cache_delete, cache_get, cache_set
from league.standings_row import ROW_SHAPE, SORT_KEYS

VERSION_TTL = 5  # seconds a cached results version may be trusted without asking the database


# --- Keys ----------------------------------------------------------------------------------------


def _checked(language: str, sort: str) -> tuple[str, str]:
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"not a language of the site: {language!r}")
    if sort and sort.removeprefix("-") not in SORT_KEYS:
        raise ValueError(f"not a standings column: {sort!r}")
    return language, sort


def results_version_key(season_id: int) -> str:
    return f"results-version:{int(season_id)}"


def standings_key(season_id: int, version: int) -> str:
    """Computed standings of one results version (and of today's row shape)."""
    return f"standings:{ROW_SHAPE}:{int(season_id)}:{int(version)}"


def standings_page_key(season_id: int, language: str, sort: str, *, tag: str) -> str:
    """A visitor's whole standings page, stored as ``(results version, html)``; ``tag`` is the
    fingerprint of the code and templates that drew it."""
    language, sort = _checked(language, sort)
    return f"standings-page:{tag}:{int(season_id)}:{language}:{sort}"


def recent_page_key(season_id: int, language: str, sort: str, *, tag: str) -> str:
    """The same page as served in the last few seconds, whatever its version."""
    language, sort = _checked(language, sort)
    return f"standings-recent:{tag}:{int(season_id)}:{language}:{sort}"


def asked_language_key(season_id: int, language: str) -> str:
    """Set while visitors ask for the season's standings in ``language``: the recompute
    renders the pages of the languages asked for since the last change, not every language."""
    language, _sort = _checked(language, "")
    return f"standings-asked:{int(season_id)}:{language}"


def note_language_asked(season_id: int, language: str) -> None:
    """Mark ``language`` as asked for (one cache write, nothing when the cache is down)."""
    cache_set(asked_language_key(season_id, language), 1)


# --- The results version, as last seen -----------------------------------------------------------


def cached_results_version(season_id: int) -> int | None:
    """The season's results version as last seen, if the cache has it (it is dropped after every
    result change, and expires after a few seconds in any case)."""
    value = cache_get(results_version_key(season_id))
    return value if isinstance(value, int) else None


def remember_results_version(season_id: int, version: int) -> None:
    cache_set(results_version_key(season_id), version, VERSION_TTL)


def forget_results_version(season_id: int) -> None:
    cache_delete(results_version_key(season_id))
