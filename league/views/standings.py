"""Standings, seeding and bracket pages."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league.models import Season
from league.ranking import METRICS
from league.rendering import standings_page_html, visitor_standings_page
from league.selectors.playoffs import playoff_bracket, playoff_ineligible
from league.selectors.seasons import seasons_visible_to
from league.selectors.standings import standings_for_season
from league.standings_row import valid_sort
from league.tables import EXPORT_FORMATS, StandingsTable, export_response, sort_rows


def _season(request: HttpRequest, pk: int) -> Season:
    """The season, if this reader may see it (a draft only for league admins), else 404."""
    return get_object_or_404(seasons_visible_to(request.user), pk=pk)


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings table, or its CSV (``?_export=csv``). A visitor's page carries nothing
    personal, so it is shared whole (see ``visitor_standings_page``); signed-in people get it
    drawn for them from the cached standings."""
    sort = valid_sort(request.GET.get("sort", ""))
    export = request.GET.get("_export")
    if export:
        if export not in EXPORT_FORMATS:
            return HttpResponseBadRequest(
                _("The standings download as CSV only (?_export=csv)."), content_type="text/plain"
            )
        season = _season(request, pk)
        rows = sort_rows(standings_for_season(season)["standings"], sort)
        return export_response(
            StandingsTable(rows), export_format=export, filename=f"standings-{season.pk}"
        )
    if not request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        html = visitor_standings_page(season_id=pk, language=get_language(), sort=sort)
        if html is None:
            raise Http404
        return HttpResponse(html)
    season = _season(request, pk)
    data = standings_for_season(season)
    return HttpResponse(standings_page_html(request=request, season=season, data=data, sort=sort))


def seeding(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(request, pk)
    data = standings_for_season(season)
    placed_by = [METRICS[key].name for key in data["seeding_decided_by_key"]]
    ineligible = playoff_ineligible(season)
    out = {row.team for row in ineligible["teams"]}
    # A team the nights rule keeps out takes no seed: the next team takes its place.
    seeds = [row for row in zip(data["seeding"], placed_by, strict=True) if row[0] not in out]
    return render(
        request,
        "league/seeding.html",
        {
            "season": season,
            "seeds": seeds[: season.playoff_teams],
            "others": seeds[season.playoff_teams :],
            "ineligible": ineligible,
            "bracket": playoff_bracket(season),
            "data": data,
        },
    )
