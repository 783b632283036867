"""Public pages: the home page lists the current seasons, this week's tables and your matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from league.models import Season
from league.selectors.scoreboard import current_week, my_open_matches


def home(request: HttpRequest) -> HttpResponse:
    """The current seasons with this week (by date), and a captain's matches still open."""
    today = timezone.localdate()
    seasons = list(
        Season.objects.shown()
        .select_related("league")
        .filter(is_current=True)
        .order_by("league__name")
    )
    rows = [{"season": season, "week": current_week(season, today=today)} for season in seasons]
    mine = my_open_matches(request.user, seasons, today=today)
    return render(request, "league/home.html", {"rows": rows, "mine": mine})
