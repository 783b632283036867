"""The season's schedule and results by week, and the match page (where a game is started)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from league.forms import StartGameForm
from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can, refusal
from league.models import Match, Season
from league.schedule_rows import schedule_rows_html
from league.selectors.scoreboard import match_detail, schedule_week
from league.services.games import game_start


def schedule(request: HttpRequest, pk: int) -> HttpResponse:
    """One week of the schedule and its results: ``?week=N``, else the week being played.
    A week the season does not have answers 404 with the picker to every week it has."""
    season = get_object_or_404(Season.objects.shown().select_related("league"), pk=pk)
    asked = request.GET.get("week") or None
    number = number_from(asked, digits=5)
    data = schedule_week(season, number=number, today=timezone.localdate())
    missing = asked is not None and (number is None or data["week"] is None)
    context = {
        "season": season,
        **data,
        "match_rows": schedule_rows_html(data["matches"]),
        "missing": asked if missing else None,
    }
    return render(request, "league/schedule.html", context, status=404 if missing else 200)


def match(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        data = match_detail(pk)
    except Match.DoesNotExist:
        raise Http404 from None
    m = data["match"]
    # Offered exactly when the service would start it; its teams are told why not (a game
    # under way, every game started), in the service's words.
    refused = refusal(request.user, Action.START_GAME, m)
    form = StartGameForm(match=m, initial={"key": uuid.uuid4().hex}) if refused is None else None
    why_not = refused.message() if refused and can(request.user, Action.KEEP_SCORE, m) else None
    return render(request, "league/match.html", {**data, "form": form, "why_not_start": why_not})


@login_required
@require_POST
def start_game(request: HttpRequest, pk: int) -> HttpResponse:
    m = get_object_or_404(
        Match.objects.select_related("week__season__league", "home", "away"), pk=pk
    )
    form = StartGameForm(request.POST, match=m)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))  # an ErrorList yields its messages as text
        return redirect("league:match", pk=m.pk)
    try:
        game = game_start(
            match=m,
            user=request.user,
            seats=form.seats(),
            first_dealer=form.cleaned_data["first_dealer"],
            key=form.cleaned_data.get("key") or None,
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("league:match", pk=m.pk)
    return redirect("league:enter", pk=game.pk)
