"""The team page: record, averages per deal, best hands, 28s and 29s (a player's page, across
seasons, is in ``league.views.history``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Team
from league.selectors.stats import team_stats


def team(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.select_related("season__league", "captain").prefetch_related("players"), pk=pk
    )
    return render(request, "league/team.html", {"team": team, **team_stats(team)})
