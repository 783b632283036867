"""Public pages: the home page lists the current seasons, this week's tables and your matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from league.selectors.availability import my_nights
from league.selectors.notify import announcements_shown
from league.selectors.postponements import postponements_to_answer
from league.selectors.scoreboard import current_week, my_open_matches
from league.selectors.seasons import home_seasons, open_seasons


def home(request: HttpRequest) -> HttpResponse:
    """The running seasons with this week (by date) and their scoreboard, next seasons already
    published beside them, and a captain's matches still open in every season they play in."""
    today = timezone.localdate()
    seasons = home_seasons(today=today)
    rows = [
        {"season": season, "week": current_week(season, today=today)}
        for season in seasons["running"]
    ]
    mine = my_open_matches(request.user, open_seasons(), today=today)
    return render(
        request,
        "league/home.html",
        {
            "rows": rows,
            "upcoming": seasons["upcoming"],
            "mine": mine,
            "to_answer": postponements_to_answer(request.user),
            "nights": my_nights(request.user, today=today),
            "announcements": announcements_shown(request.user),
        },
    )
