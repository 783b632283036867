"""The team page: record, averages per deal, best hands, 28s and 29s (a player's page, across
seasons, is in ``league.views.history``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Team
from league.selectors.luck import luck_by_season
from league.selectors.ratings import provisional_games, team_ratings
from league.selectors.seasons import season_hidden_from
from league.selectors.stats import team_stats


def team(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(
        Team.objects.filter(season__importing=False)
        .select_related("season__league", "captain")
        .prefetch_related("players"),
        pk=pk,
    )
    if season_hidden_from(request.user, team.season):
        raise Http404
    stats = team_stats(team)
    luck = luck_by_season(stats["stats"].hands)
    ratings = team_ratings(team)  # information only (one query)
    return render(
        request,
        "league/team.html",
        {
            "team": team,
            "luck_rows": luck,
            "team_ratings": ratings,
            "provisional_games": provisional_games(),
            **stats,
        },
    )
