"""Paper that matches the screen: a score sheet per table and game of a night, to print, with a
QR code to the match's page where a captain enters it later."""

from __future__ import annotations

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe

from league.models import SeasonState, Week
from league.selectors.organiser import week_sheets
from league.selectors.seasons import season_hidden_from


def qr_svg(url: str) -> str:
    """``url`` as a QR code in inline SVG (segno; no image file, nothing fetched)."""
    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=3, border=2, title=url, omitsize=True)


def week_sheets_page(request: HttpRequest, pk: int) -> HttpResponse:
    week = get_object_or_404(
        Week.objects.filter(season__importing=False).select_related("season__league", "venue"),
        pk=pk,
    )
    if season_hidden_from(request.user, week.season):
        raise Http404  # a draft's night is not there for anyone but its organisers
    sheets = week_sheets(week)
    codes: dict[int, tuple[str, str]] = {}
    for sheet in sheets:
        match = sheet["match"]
        if match.pk not in codes:
            url = request.build_absolute_uri(reverse("league:match", args=[match.pk]))
            codes[match.pk] = (url, mark_safe(qr_svg(url)))  # segno's SVG of our own URL
        sheet["url"], sheet["qr"] = codes[match.pk]
    response = render(
        request,
        "organiser/sheets.html",
        {"week": week, "season": week.season, "sheets": sheets},
    )
    if week.season.state == SeasonState.DRAFT:  # its organiser's copy: no cache may keep it
        patch_cache_control(response, private=True, no_store=True)
    return response
