"""The records pages (``/records/``): head-to-head, the roll of honour, special hands, skunks,
streaks and milestones. Thin: each reads a selector of ``league.selectors.records``. The
hands, skunks and streaks pages take ``?season=<id>`` for one season's records; their tables
show the first ten (``manage.py records`` prints them all)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from league.kernel.ids import number_from
from league.models import Player, Season, Team
from league.selectors import records
from league.services.records import records_stored

# How many lines of each list the pages show (the templates' slices): the stored figures are
# read for these only (``manage.py records`` prints them all).
SHOWN_LINES = 10
SHOWN_MILESTONES = 30


def _season(request: HttpRequest) -> Season | None:
    """The season of ``?season=``, or None for all seasons (a draft or unknown one: a 404)."""
    raw = request.GET.get("season")
    if not raw:
        return None
    pk = number_from(raw)
    if pk is None:
        raise Http404
    return get_object_or_404(records.public_seasons().select_related("league"), pk=pk)


def _seasons() -> list[Season]:
    return list(records.public_seasons().select_related("league").order_by("league__name", "-id"))


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "league/records/index.html")


def honours(request: HttpRequest) -> HttpResponse:
    return render(request, "league/records/honours.html", records.roll_of_honour())


def hands(request: HttpRequest) -> HttpResponse:
    season, seasons = _season(request), _seasons()
    stored = records_stored(("hands",), season=season, seasons=seasons)
    return render(
        request,
        "league/records/hands.html",
        {"season": season, "seasons": seasons, "hands": records.hands_shown(stored["hands"])},
    )


def skunks(request: HttpRequest) -> HttpResponse:
    season, seasons = _season(request), _seasons()
    stored = records_stored(("skunks",), season=season, seasons=seasons)
    return render(
        request,
        "league/records/skunks.html",
        {"season": season, "seasons": seasons, **records.skunks_shown(stored["skunks"], seasons)},
    )


def streaks(request: HttpRequest) -> HttpResponse:
    season, seasons = _season(request), _seasons()
    stored = records_stored(("streaks", "milestones"), season=season, seasons=seasons)
    shown = records.streaks_shown(
        stored["streaks"],
        stored["milestones"],
        lines=SHOWN_LINES,
        milestones_shown=SHOWN_MILESTONES,
    )
    return render(
        request,
        "league/records/streaks.html",
        {"season": season, "seasons": seasons, **shown},
    )


def head_to_head(request: HttpRequest) -> HttpResponse:
    """The picker: ``?team=<id>`` or ``?player=<id>`` lists who they met, each a link to the
    head-to-head page; with ``&with=<id>`` it goes straight there."""
    other = number_from(request.GET.get("with"))
    if team_id := number_from(request.GET.get("team")):
        team = get_object_or_404(
            Team.objects.filter(season__in=records.public_seasons()).select_related(
                "season__league"
            ),
            pk=team_id,
        )
        if other:
            return redirect(reverse("league:records_h2h_teams", args=[team.pk, other]))
        context = {"team": team, "opponents": records.team_opponents(team)}
    elif player_id := number_from(request.GET.get("player")):
        player = get_object_or_404(Player, pk=player_id)
        if other:
            return redirect(reverse("league:records_h2h_players", args=[player.pk, other]))
        context = {"player": player, "opponents": records.player_opponents(player)}
    else:
        stored = records_stored(("picker",), season=None, seasons=_seasons())
        context = records.head_to_head_choices(stored["picker"])
    return render(request, "league/records/h2h_picker.html", context)


def head_to_head_teams(request: HttpRequest, a: int, b: int) -> HttpResponse:
    teams = Team.objects.filter(season__in=records.public_seasons()).select_related(
        "season__league"
    )
    team_a, team_b = get_object_or_404(teams, pk=a), get_object_or_404(teams, pk=b)
    if team_a.season.league_id != team_b.season.league_id or team_a.name == team_b.name:
        raise Http404  # teams of two leagues never meet; a team does not meet itself
    return render(
        request,
        "league/records/h2h.html",
        {
            "a": {"name": team_a.name, "url": reverse("league:team", args=[team_a.pk])},
            "b": {"name": team_b.name, "url": reverse("league:team", args=[team_b.pk])},
            "league": team_a.season.league,
            "swap": reverse("league:records_h2h_teams", args=[b, a]),
            "meeting": records.team_head_to_head(team_a, team_b),
        },
    )


def head_to_head_players(request: HttpRequest, a: int, b: int) -> HttpResponse:
    if a == b:
        raise Http404
    player_a, player_b = get_object_or_404(Player, pk=a), get_object_or_404(Player, pk=b)
    return render(
        request,
        "league/records/h2h.html",
        {
            "a": {"name": player_a.name, "url": reverse("league:player", args=[player_a.pk])},
            "b": {"name": player_b.name, "url": reverse("league:player", args=[player_b.pk])},
            "swap": reverse("league:records_h2h_players", args=[b, a]),
            "meeting": records.player_head_to_head(player_a, player_b),
        },
    )
