"""League history: a league's page (its seasons and champions) and a player's page across
seasons (teams, record per season, lifetime record, statistics), with the sections other apps
register (the tournaments add the player's tournament record)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.kernel.extensions import player_sections
from league.models import League, Player
from league.selectors.careers import league_history, player_career
from league.selectors.luck import dealt_for, luck_by_season
from league.selectors.organiser import rules_sentences
from league.selectors.ratings import player_rating, provisional_games
from league.selectors.stats import player_stats


def league(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League, pk=pk)
    return render(
        request,
        "league/league.html",
        {
            "league": league,
            "seasons": league_history(league, user=request.user),
            "rules": rules_sentences(league),
        },
    )


def player(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    stats = player_stats(player)
    career = player_career(player, stats["games"])
    if career["only_in_hidden_seasons"]:
        raise Http404  # only in a season an import is still writing: not there yet
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            "teams": [row["team"] for row in career["seasons"]],
            "career": career,
            "sections": player_sections(player),
            # the discard skill is the player's own unless they share their discards
            "luck_rows": luck_by_season(
                stats["stats"].hands,
                dealt=dealt_for(player)
                if player.shares_discards
                or (request.user.is_authenticated and player.user_id == request.user.pk)
                else None,
            ),
            "rating": player_rating(player),  # information only (one query)
            "provisional_games": provisional_games(),
            **stats,
        },
    )
