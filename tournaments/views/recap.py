"""The club night's story page: the recap of a night as a short HTML page and as plain text to
copy into a newsletter or a post (``tournaments.recap``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.kernel.recap import recap_heading, recap_notes, recap_sections, recap_text
from tournaments.models import Tournament
from tournaments.recap import night_recap


def night_recap_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    recap = night_recap(tournament)
    return render(
        request,
        "tournaments/recap.html",
        {
            "tournament": tournament,
            "recap": recap,
            "heading": recap_heading(recap),
            "sections": recap_sections(recap),
            "notes": recap_notes(recap),
            "text": recap_text(recap),
        },
    )
