"""The director's ACC reports: a night's results and a club season's ("Player of the year"),
as a printable page and a CSV file for the ACC's online entry. Reads come from
``tournaments.acc_reports``; only directors see them (they carry ACC numbers and payouts)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.kernel.exports import csv_response
from league.kernel.permissions import Action, can
from tournaments import acc_reports
from tournaments.models import ClubSeason, Tournament


def _refused(request: HttpRequest, obj: Tournament | ClubSeason) -> HttpResponse | None:
    """The refusal page unless the user directs ``obj``'s club (``refusal``'s club scope):
    another club's ACC numbers and payouts are not a director's to read."""
    if can(request.user, Action.RUN_TOURNAMENT, obj):
        return None
    return render(request, "tournaments/report.html", {"refused": True}, status=403)


def _cell(key: str, value: Any) -> str:
    if value is None:
        return ""
    if key == "payout":
        return f"{Decimal(value) / 100:.2f}"
    return str(value)


def _csv(filename: str, columns: tuple[str, ...], rows: list[dict[str, Any]]) -> HttpResponse:
    """The report as CSV, every text cell spreadsheet-safe (a name may begin with ``=``)."""
    return csv_response(
        filename, columns, ([_cell(key, row[key]) for key in columns] for row in rows)
    )


def night_report(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Tournament, pk=pk)
    refused = _refused(request, night)
    if refused is not None:
        return refused
    report = acc_reports.night_report(night)
    return render(request, "tournaments/report.html", {"night": report, **report})


def night_report_csv(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(Tournament, pk=pk)
    refused = _refused(request, night)
    if refused is not None:
        return refused
    report = acc_reports.night_report(night)
    return _csv(f"night-{pk}.csv", report["columns"], report["rows"])


def season_report(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(ClubSeason.objects.select_related("club"), pk=pk)
    refused = _refused(request, season)
    if refused is not None:
        return refused
    report = acc_reports.season_report(season)
    return render(request, "tournaments/report.html", {"season_report": report, **report})


def season_report_csv(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(ClubSeason.objects.select_related("club"), pk=pk)
    refused = _refused(request, season)
    if refused is not None:
        return refused
    report = acc_reports.season_report(season)
    return _csv(f"club-season-{pk}.csv", report["columns"], report["rows"])
