"""Pages rendered ahead of time: the visitors' standings page, kept per language and results
version in the cache and in the database (StandingsPage), so a league night's spectators are
served without rendering. Only presentation lives here; the numbers come from services."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from league.kernel.cache import cache_delete, cache_get, cache_set
from league.models import League, Season, StandingsPage, StandingsSnapshot
from league.ranking import TIEBREAKS
from league.selectors.standings import standings_for_season
from league.standings_cache import (
    asked_language_key,
    cached_results_version,
    note_language_asked,
    recent_page_key,
    remember_results_version,
    standings_page_key,
)
from league.tables import sort_rows, standings_header_html, standings_rows_html


def _render_tag() -> str:
    """A fingerprint of what draws the page: a deploy that changes it never serves old pages."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha1()
    for name in (
        "templates/base.html",
        "templates/league/standings.html",
        "templates/league/_standings_table.html",
        "templates/league/_season_nav.html",
        "league/tables.py",
        "league/rendering.py",
        "league/ranking.py",
        "contest/tiebreaks.py",
        "league/standings_row.py",
        "locale/fr/LC_MESSAGES/django.mo",
    ):
        path = root / name
        digest.update(path.read_bytes() if path.exists() else name.encode())
    return digest.hexdigest()[:12]


RENDER_TAG = _render_tag()


def standings_page_html(
    *, request: HttpRequest, season: Season, data: dict[str, Any], sort: str
) -> str:
    """The whole standings page of ``season`` for ``request``, rows in ``sort`` order (a valid
    sort: see ``league.standings_row.valid_sort``)."""
    rows = data["standings"]
    return render_to_string(
        "league/standings.html",
        {
            "season": season,
            # read with the season by _shown_season, else from its league
            "league_name": getattr(season, "league_name", None) or season.league.name,
            "data": data,
            "tiebreak_names": [TIEBREAKS[k].name for k in data["tiebreaks"] if k in TIEBREAKS],
            "header_html": standings_header_html(sort),
            "rows_html": standings_rows_html(sort_rows(rows, sort)),
            # every game is in two teams' rows
            "pending": sum(r["pending"] for r in rows) // 2,
            "disputed": sum(r["disputed"] for r in rows) // 2,
        },
        request=request,
    )


def visitor_request(path: str, language: str, *, sort: str = "") -> HttpRequest:
    """A request as a visitor without cookies makes it, for pages every visitor shares: the
    page's own path and (validated) sort are all it carries of any real request."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "QUERY_STRING": f"sort={sort}" if sort else "",
    }
    request.user = AnonymousUser()
    request.LANGUAGE_CODE = language
    return request


def visitor_standings_page(*, season_id: int, language: str, sort: str) -> str | None:
    """The standings page every visitor (no session) sees, from the cheapest layer that has
    it; None if there is no such season. ``sort`` must be valid (``valid_sort``).

    1. The copy served in the last ``STANDINGS_RECENT_SECONDS`` (2 s with a worker, none
       without), whatever results it shows: a league night's spectators share one answer
       instead of all recomputing after every deal. No query.
    2. The page of the season's current results version from the cache. The version itself is
       cached for 5 s and dropped after every result change. No query.
    3. The page the recompute stored (``StandingsPage``) for this language, if it shows the
       current results version and was drawn by this code; default order only. One query.
    4. Drawn now: the season row (one query), then its standings through
       ``standings_for_season``'s own layers (5. cached by results version, 6. the stored
       snapshot, 7. computed from the games), rendered as a visitor with no cookies whose
       query string is only the validated sort.

    What 3 and 4 give is kept in 1 and 2. Keys hold only the season id, the language, the
    sort and the render tag; pages hold nothing of the request but its path and sort. Past 1,
    the language is noted as asked for, so the next recompute renders its page ahead of time
    (``store_standings_pages``); a language nobody asked for is drawn here, once, when asked.
    """
    recent_seconds = _recent_seconds()
    recent_key = recent_page_key(season_id, language, sort, tag=RENDER_TAG)
    if recent_seconds:
        html = cache_get(recent_key)
        if html is not None:
            return html
    if language != settings.LANGUAGE_CODE:
        note_language_asked(season_id, language)
    page_key = standings_page_key(season_id, language, sort, tag=RENDER_TAG)
    version = cached_results_version(season_id)
    page = cache_get(page_key) if version is not None else None
    if page is None or page[0] != version:
        page = stored_standings_page(season_id, language) if not sort else None
        if page is not None:
            remember_results_version(season_id, page[0])
        else:
            season = _shown_season(season_id)
            if season is None:
                return None
            remember_results_version(season.pk, season.results_version)
            path = reverse("league:standings", args=[season.pk])
            html = standings_page_html(
                request=visitor_request(path, language, sort=sort),
                season=season,
                data=standings_for_season(season),
                sort=sort,
            )
            page = (season.results_version, html)
        cache_set(page_key, page)
    if recent_seconds:
        cache_set(recent_key, page[1], recent_seconds)
    return page[1]


def _recent_seconds() -> int:
    """How old a visitor's standings page may be. With a worker keeping the standings fresh,
    2 s: on a league night with a deal saved every few hundred milliseconds, every save would
    otherwise send all spectators to recompute at once. Without a worker (tasks in-process) the
    page follows each result immediately. STANDINGS_RECENT_SECONDS overrides it."""
    default = 0 if settings.CELERY_TASK_ALWAYS_EAGER else 2
    return int(getattr(settings, "STANDINGS_RECENT_SECONDS", default))


def standings_up_to_date(season_id: int) -> bool:
    """Whether the season's stored standings and visitors' pages already show its current
    results: not stale, and the snapshot and the page of every language to store
    (``languages_to_store``) at its results version. A burst of results (the last deals at a
    venue's tables, a minute apart) queues a recompute each; the first to run computes the
    latest version and the rest find nothing to do."""
    season = Season.objects.filter(pk=season_id, standings_stale=False).first()
    if season is None:
        return False
    version = season.results_version
    if not StandingsSnapshot.objects.filter(season=season, results_version=version).exists():
        return False
    languages = languages_to_store(season_id)
    pages = StandingsPage.objects.filter(
        season=season, results_version=version, render_tag=RENDER_TAG, language__in=languages
    ).count()
    return pages == len(languages)


def languages_to_store(season_id: int) -> list[str]:
    """The languages whose visitors' page a recompute renders ahead of time: the site's own
    language always, and every other one some visitor asked for since the last recompute
    (``note_language_asked``). Another language's page is drawn on its first request after a
    change (``visitor_standings_page``, layer 4): a league whose visitors all read English
    never renders French. With the cache down, only the site's language."""
    others = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
    asked = [code for code in others if cache_get(asked_language_key(season_id, code))]
    return [settings.LANGUAGE_CODE, *asked]


def store_standings_pages(season_id: int) -> int:
    """Render the visitors' standings page in each language to store (``languages_to_store``)
    and store it; returns how many were rendered. Safe to run twice: a page is tagged with the
    results version it shows, and a stale one is never served. The marks of the languages
    asked for are taken down: a language must be asked for again to be rendered after the next
    change (its spectators, still watching, mark it again within seconds)."""
    season = Season.objects.public().select_related("league").filter(pk=season_id).first()
    if season is None:
        return 0
    path = reverse("league:standings", args=[season.pk])
    data = standings_for_season(season)
    languages = languages_to_store(season.pk)
    for language in languages:
        with translation.override(language):
            html = standings_page_html(
                request=visitor_request(path, language), season=season, data=data, sort=""
            )
        StandingsPage.objects.update_or_create(
            season=season,
            language=language,
            defaults={
                "results_version": season.results_version,
                "render_tag": RENDER_TAG,
                "html": html,
            },
        )
        cache_set(
            standings_page_key(season.pk, language, "", tag=RENDER_TAG),
            (season.results_version, html),
        )
        if language != settings.LANGUAGE_CODE:
            cache_delete(asked_language_key(season.pk, language))
    return len(languages)


# The stored page's lookup, written as SQL: it is what every visitor's standings request costs
# when the cache cannot answer, and building this query through the ORM took ten times as long
# as running it (bench/standings.py, "stored"). Plain SQL both databases run; the table names
# come from the models.
_STORED_PAGE_SQL = """
SELECT p.results_version, p.html
FROM {page} p JOIN {season} s ON s.id = p.season_id
WHERE p.season_id = %s AND p.language = %s AND p.render_tag = %s
  AND p.results_version = s.results_version
"""


# The season of a visitor's standings page that is drawn now, read in SQL: building the ORM's
# query (the season with its league) cost four times running it (bench/standings.py,
# "computed"). A raw query still gives a whole Season, its fields converted as the ORM does.
_SEASON_SQL = """
SELECT s.*, l.name AS league_name
FROM {season} s JOIN {league} l ON l.id = s.league_id
WHERE s.id = %s AND NOT s.importing AND s.state <> 'draft'
"""


def _shown_season(season_id: int) -> Season | None:
    """The season (if shown to visitors: not being imported, not a draft), with its league's
    name as ``league_name``."""
    sql = _SEASON_SQL.format(season=Season._meta.db_table, league=League._meta.db_table)
    seasons = list(Season.objects.raw(sql, [season_id]))
    return seasons[0] if seasons else None


def stored_standings_page(season_id: int, language: str) -> tuple[int, str] | None:
    """The stored page if it shows the season's current results (one query), else None."""
    sql = _STORED_PAGE_SQL.format(page=StandingsPage._meta.db_table, season=Season._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql, [season_id, language, RENDER_TAG])
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None
