"""Standings, seeding and bracket pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from league.models import Season
from league.services.playoffs import playoff_bracket
from league.services.standings import standings_for_season
from league.tables import StandingsTable


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=pk)


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    data = standings_for_season(season)
    table = StandingsTable(data["standings"])
    RequestConfig(request, paginate=False).configure(table)
    export = request.GET.get("_export")
    if TableExport.is_valid_format(export):
        return TableExport(export, table).response(f"standings-{season.pk}.{export}")
    return render(
        request, "league/standings.html", {"season": season, "table": table, "data": data}
    )


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
