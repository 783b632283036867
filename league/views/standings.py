"""Standings, seeding and bracket pages."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from league.models import Season
from league.rendering import page_key, standings_page_html, stored_standings_page
from league.services.playoffs import playoff_bracket
from league.services.standings import (
    cache_get,
    cache_set,
    cached_results_version,
    remember_results_version,
    standings_for_season,
)
from league.tables import SORTABLE, StandingsTable


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=pk)


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings table. A visitor's page carries nothing personal (no session, no CSRF
    token), so it is served whole: from the cache (no query), else from the page the recompute
    stored (one query), else rendered. Signed-in people get it rendered, with cached pieces."""
    sort = request.GET.get("sort", "")
    if sort.lstrip("-") not in SORTABLE:
        sort = ""
    export = request.GET.get("_export")
    language = get_language()
    visitor = not request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}
    if visitor and not export and _recent_seconds():
        recent = cache_get(f"standings-recent:{pk}:{language}:{sort}")
        if recent is not None:
            return HttpResponse(recent)
    if visitor and not export:
        version = cached_results_version(pk)
        page = cache_get(page_key(pk, language, sort)) if version is not None else None
        if page is not None and page[0] == version:
            _remember_recent(pk, language, sort, page[1])
            return HttpResponse(page[1])
        stored = stored_standings_page(pk, language) if not sort else None
        if stored is not None:
            remember_results_version(pk, stored[0])
            cache_set(page_key(pk, language, sort), stored)
            _remember_recent(pk, language, sort, stored[1])
            return HttpResponse(stored[1])
    season = _season(pk)
    remember_results_version(season.pk, season.results_version)
    if TableExport.is_valid_format(export):
        table = StandingsTable(standings_for_season(season)["standings"])
        RequestConfig(request, paginate=False).configure(table)
        return TableExport(export, table).response(f"standings-{season.pk}.{export}")
    response = HttpResponse(standings_page_html(request, season, sort))
    if visitor:
        html = response.content.decode()
        cache_set(page_key(pk, language, sort), (season.results_version, html))
        _remember_recent(pk, language, sort, html)
    return response


def _recent_seconds() -> int:
    """How old a visitor's standings page may be. With a worker keeping the standings fresh,
    2 s: on a league night with a deal saved every few hundred milliseconds, every save would
    otherwise send all spectators to recompute at once. Without a worker (tasks in-process) the
    page follows each result immediately. STANDINGS_RECENT_SECONDS overrides it."""
    default = 0 if settings.CELERY_TASK_ALWAYS_EAGER else 2
    return int(getattr(settings, "STANDINGS_RECENT_SECONDS", default))


def _remember_recent(pk: int, language: str, sort: str, html: str) -> None:
    seconds = _recent_seconds()
    if seconds:
        cache_set(f"standings-recent:{pk}:{language}:{sort}", html, seconds)


def seeding(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    data = standings_for_season(season)
    seeds = list(zip(data["seeding"], data["seeding_decided_by"], strict=True))
    return render(
        request,
        "league/seeding.html",
        {
            "season": season,
            "seeds": seeds[: season.playoff_teams],
            "others": seeds[season.playoff_teams :],
            "bracket": playoff_bracket(season),
            "data": data,
        },
    )
