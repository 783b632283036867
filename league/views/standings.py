"""Standings, seeding and bracket pages."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from league.models import Season
from league.services.playoffs import playoff_bracket
from league.services.standings import (
    cache_get,
    cache_set,
    cached_results_version,
    remember_results_version,
    standings_for_season,
)
from league.tables import (
    SORTABLE,
    StandingsTable,
    sort_rows,
    standings_columns,
    standings_rows_html,
)


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=pk)


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings table. Visitors get the whole page from the cache (two cache reads, no
    query); otherwise the table's HTML is cached per results version, sort and language."""
    sort = request.GET.get("sort", "")
    if sort.lstrip("-") not in SORTABLE:
        sort = ""
    # A visitor's page carries nothing personal (no session, no CSRF token), so it is cached
    # whole, tagged with the results version it shows.
    visitor = not request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}
    page_key = f"standings-page:{pk}:{get_language()}:{sort}"
    if visitor and "_export" not in request.GET:
        version = cached_results_version(pk)
        page = cache_get(page_key) if version is not None else None
        if page is not None and page[0] == version:
            return HttpResponse(page[1])
    season = _season(pk)
    remember_results_version(season.pk, season.results_version)
    export = request.GET.get("_export")
    if TableExport.is_valid_format(export):
        table = StandingsTable(standings_for_season(season)["standings"])
        RequestConfig(request, paginate=False).configure(table)
        return TableExport(export, table).response(f"standings-{season.pk}.{export}")
    key = f"standings-html:{season.pk}:{season.results_version}:{get_language()}:{sort}"
    fragment = cache_get(key)
    if fragment is None:
        data = standings_for_season(season)
        fragment = render_to_string(
            "league/_standings_table.html",
            {
                "season": season,
                "data": data,
                "columns": standings_columns(sort),
                "rows_html": standings_rows_html(sort_rows(data["standings"], sort)),
            },
        )
        cache_set(key, fragment)
    response = render(
        request, "league/standings.html", {"season": season, "table_html": mark_safe(fragment)}
    )
    if visitor and not response.cookies:
        cache_set(page_key, (season.results_version, response.content.decode()))
    return response


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
