"""Public pages: the home page lists the current seasons, this week's tables and your matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Season
from league.selectors.scoreboard import current_week, my_matches_this_week


def home(request: HttpRequest) -> HttpResponse:
    seasons = list(
        Season.objects.select_related("league").filter(is_current=True).order_by("league__name")
    )
    rows = [{"season": season, "week": current_week(season)} for season in seasons]
    mine = my_matches_this_week(request.user, [row["week"] for row in rows if row["week"]])
    return render(request, "league/home.html", {"rows": rows, "mine": mine})
