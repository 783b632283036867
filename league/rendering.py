"""Pages rendered ahead of time: the visitors' standings page, kept per language and results
version in the cache and in the database (StandingsPage), so a league night's spectators are
served without rendering. Only presentation lives here; the numbers come from services."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from league.models import Season, StandingsPage
from league.ranking import TIEBREAKS
from league.services.standings import cache_get, cache_set, standings_for_season
from league.tables import sort_rows, standings_columns, standings_rows_html


def _render_tag() -> str:
    """A fingerprint of what draws the page: a deploy that changes it never serves old pages."""
    from pathlib import Path

    root = Path(settings.BASE_DIR)
    digest = hashlib.sha1()
    for name in (
        "templates/base.html",
        "templates/league/standings.html",
        "templates/league/_standings_table.html",
        "templates/league/_season_nav.html",
        "league/tables.py",
        "league/rendering.py",
    ):
        path = root / name
        digest.update(path.read_bytes() if path.exists() else name.encode())
    return digest.hexdigest()[:12]


RENDER_TAG = _render_tag()


def page_key(season_id: int, language: str, sort: str) -> str:
    return f"standings-page:{RENDER_TAG}:{season_id}:{language}:{sort}"


def standings_table_html(season: Season, sort: str) -> str:
    """The table and its notes, cached per results version, sort and language."""
    key = (
        f"standings-html:{RENDER_TAG}:{season.pk}:{season.results_version}:"
        f"{translation.get_language()}:{sort}"
    )
    fragment = cache_get(key)
    if fragment is None:
        data = standings_for_season(season)
        fragment = render_to_string(
            "league/_standings_table.html",
            {
                "season": season,
                "data": data,
                "tiebreak_names": [
                    gettext(TIEBREAKS[key].name) for key in data["tiebreaks"] if key in TIEBREAKS
                ],
                "columns": standings_columns(sort),
                "rows_html": standings_rows_html(sort_rows(data["standings"], sort)),
            },
        )
        cache_set(key, fragment)
    return fragment


def standings_page_html(request: HttpRequest, season: Season, sort: str) -> str:
    return render_to_string(
        "league/standings.html",
        {"season": season, "table_html": mark_safe(standings_table_html(season, sort))},
        request=request,
    )


def visitor_request(path: str, language: str) -> HttpRequest:
    """A request as a visitor without cookies makes it (for rendering outside a request)."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "80"}
    request.user = AnonymousUser()
    request.LANGUAGE_CODE = language
    return request


def store_standings_pages(season_id: int) -> int:
    """Render the visitors' standings page in every language and store it. Safe to run twice:
    a page is tagged with the results version it shows, and a stale one is never served."""
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None:
        return 0
    path = reverse("league:standings", args=[season.pk])
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            html = standings_page_html(visitor_request(path, language), season, "")
        StandingsPage.objects.update_or_create(
            season=season,
            language=language,
            defaults={
                "results_version": season.results_version,
                "render_tag": RENDER_TAG,
                "html": html,
            },
        )
        cache_set(page_key(season.pk, language, ""), (season.results_version, html))
    return len(settings.LANGUAGES)


def stored_standings_page(season_id: int, language: str) -> tuple[int, str] | None:
    """The stored page if it shows the season's current results (one query), else None."""
    from django.db.models import F

    row = (
        StandingsPage.objects.filter(
            season_id=season_id,
            language=language,
            render_tag=RENDER_TAG,
            results_version=F("season__results_version"),
        )
        .values_list("results_version", "html")
        .first()
    )
    return (row[0], row[1]) if row else None
