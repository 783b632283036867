"""The week's story page: the recap of a league night, as a short HTML page and as plain text
to copy into a newsletter or a post (``league.selectors.recap``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league.kernel.recap import recap_heading, recap_notes, recap_sections, recap_text
from league.models import Week
from league.selectors.recap import recap_week, week_recap
from league.selectors.seasons import season_hidden_from


def week_recap_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        week = recap_week(pk)
    except Week.DoesNotExist:
        raise Http404 from None
    if week.season.importing or season_hidden_from(request.user, week.season):
        raise Http404
    recap = week_recap(week)
    return render(
        request,
        "league/recap.html",
        {
            "week": week,
            "season": week.season,
            "recap": recap,
            "heading": recap_heading(recap),
            "sections": recap_sections(recap),
            "notes": recap_notes(recap),
            "text": recap_text(recap),
        },
    )
