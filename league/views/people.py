"""Team and player pages: record, averages per deal, best hands, 28s and 29s."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Player, Team
from league.selectors.stats import player_stats, team_stats


def team(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.select_related("season__league", "captain").prefetch_related("players"), pk=pk
    )
    return render(request, "league/team.html", {"team": team, **team_stats(team)})


def player(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    teams = player.teams.select_related("season__league").order_by("-season_id")
    return render(
        request,
        "league/player.html",
        {"player": player, "teams": list(teams), **player_stats(player)},
    )
