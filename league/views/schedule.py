"""The season's schedule and results by week, and the match page (where a game is started)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from league.checks import last_makeup_day, postponement_answer_by
from league.forms import ForfeitForm, ForfeitUndoForm, PostponeForm, StartGameForm
from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can, refusal
from league.models import Match, Postponement
from league.schedule_rows import schedule_rows_html
from league.selectors.availability import (
    answerable_players,
    match_availability,
    may_see_availability,
)
from league.selectors.luck import luckiest_cut
from league.selectors.scoreboard import match_detail, schedule_week
from league.selectors.seasons import season_hidden_from, seasons_visible_to
from league.selectors.subs import subs_of
from league.services.forfeits import forfeit_undo, match_forfeit
from league.services.game_start import match_early_start
from league.services.games import game_start
from league.services.postponements import match_postpone, postponement_answer, postponement_ask
from league.services.subs import sub_ask


def schedule(request: HttpRequest, pk: int) -> HttpResponse:
    """One week of the schedule and its results: ``?week=N``, else the week being played.
    A week the season does not have answers 404 with the picker to every week it has."""
    season = get_object_or_404(seasons_visible_to(request.user), pk=pk)
    asked = request.GET.get("week") or None
    number = number_from(asked, digits=5)
    data = schedule_week(season, number=number, today=timezone.localdate())
    missing = asked is not None and (number is None or data["week"] is None)
    context = {
        "season": season,
        **data,
        "match_rows": schedule_rows_html(data["matches"]),
        # information only: the week's luckiest cut (two queries)
        "luckiest_cut": luckiest_cut(data["week"]) if data["week"] else None,
        "missing": asked if missing else None,
    }
    return render(request, "league/schedule.html", context, status=404 if missing else 200)


# Refusals to postpone the match page already shows otherwise: its games, the request waiting.
_SAID_ELSEWHERE = {"postpone_played", "postponement_asked"}


def match(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        data = match_detail(pk)
    except Match.DoesNotExist:
        raise Http404 from None
    m = data["match"]
    if m.week.season.importing or season_hidden_from(request.user, m.week.season):
        raise Http404
    # Offered exactly when the service would start it; its teams are told why not (a game
    # under way, every game started), in the service's words.
    refused = refusal(request.user, Action.START_GAME, m)
    form = StartGameForm(match=m, initial={"key": uuid.uuid4().hex}) if refused is None else None
    why_not = refused.message() if refused and can(request.user, Action.KEEP_SCORE, m) else None
    coming = None
    if may_see_availability(request.user, m) and not m.week.cancelled_reason:
        coming = {
            "sides": match_availability(m),
            "answerable": answerable_players(request.user, m, today=timezone.localdate()),
        }
    # A judge or a league admin records a forfeit here, at the bar; a judge undoes one.
    forfeit_form = ForfeitForm(match=m) if can(request.user, Action.RECORD_FORFEIT, m) else None
    undo_form = ForfeitUndoForm() if can(request.user, Action.UNDO_FORFEIT, m) else None
    # Its players ask to postpone it; a league admin decides; the other team answers.
    # Where it cannot move, its players and the organiser read the sentence why instead.
    postpone_refused = refusal(request.user, Action.POSTPONE_MATCH, m)
    postpone_form = PostponeForm() if postpone_refused is None else None
    # A team's player asks the season's sub list for a sub, from here.
    keeps_score = can(request.user, Action.KEEP_SCORE, m)
    why_not_postpone = (
        postpone_refused.message()
        if postpone_refused and keeps_score and postpone_refused.code not in _SAID_ELSEWHERE
        else None
    )
    subs = subs_of(m.week.season_id) if keeps_score or form is not None else []
    asked = data["postponement"]
    answer_refused = refusal(request.user, Action.ANSWER_POSTPONEMENT, asked) if asked else None
    may_answer = asked is not None and answer_refused is None
    late = answer_refused is not None and answer_refused.code == "postponement_answer_late"
    return render(
        request,
        "league/match.html",
        {
            **data,
            "form": form,
            "why_not_start": why_not,
            "forfeit_form": forfeit_form,
            "undo_form": undo_form,
            "postpone_form": postpone_form,
            "decides": postpone_form is not None and can(request.user, Action.MANAGE_LEAGUE),
            "last_makeup_day": last_makeup_day(m) if postpone_form else None,
            "may_answer": may_answer,
            "answer_by": postponement_answer_by(asked) if asked else None,
            "answer_late": answer_refused.message() if late and answer_refused else None,
            "why_not_postpone": why_not_postpone,
            # The organiser may let a match start before its night (the refusal names it).
            "may_allow_early": can(request.user, Action.MANAGE_LEAGUE)
            and not m.playoff_round
            and m.when is not None
            and (m.early_start or m.when > timezone.localdate()),
            "coming": coming,
            "subs": subs,
            "may_ask_sub": keeps_score and bool(subs) and m.week.cancelled_reason == "",
        },
    )


@login_required
@require_POST
def ask_sub(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of the match asks the season's sub list for a sub (``sub_ask``)."""
    m = get_object_or_404(Match.objects.select_related("week__season", "home", "away"), pk=pk)
    if season_hidden_from(request.user, m.week.season):
        raise Http404
    try:
        told = sub_ask(user=request.user, match=m)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            ngettext(
                "Asked: %(n)s sub is told you need a player.",
                "Asked: the %(n)s subs are told you need a player.",
                told,
            )
            % {"n": told},
        )
    return redirect("league:match", pk=m.pk)


@login_required
@require_POST
def postpone(request: HttpRequest, pk: int) -> HttpResponse:
    """A captain asks to postpone the match (``postponement_ask``); a league admin decides it
    (``match_postpone``)."""
    m = get_object_or_404(Match.objects.select_related("week__season", "home", "away"), pk=pk)
    form = PostponeForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("league:match", pk=m.pk)
    date, reason = form.cleaned_data["date"], form.cleaned_data["reason"]
    try:
        if can(request.user, Action.MANAGE_LEAGUE):
            match_postpone(match=m, user=request.user, date=date, reason=reason)
            said = _("The match is played on %(date)s.")
        else:
            postponement_ask(match=m, user=request.user, date=date, reason=reason)
            said = _("Asked: the other team accepts or declines playing on %(date)s.")
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, said % {"date": date_format(date, "DATE_FORMAT")})
    return redirect("league:match", pk=m.pk)


@login_required
@require_POST
def early_start(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser lets the match's games start before its night, or no longer
    (``match_early_start``)."""
    m = get_object_or_404(Match, pk=pk)
    allow = request.POST.get("allow") == "yes"
    try:
        match_early_start(
            match=m, user=request.user, allow=allow, reason=request.POST.get("reason", "")
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Its games may start before its night.")
            if allow
            else _("Its games start on its night again."),
        )
    return redirect("league:match", pk=m.pk)


@login_required
@require_POST
def postponement_reply(request: HttpRequest, pk: int) -> HttpResponse:
    """The other team accepts or declines a postponement (``postponement_answer``)."""
    asked = get_object_or_404(Postponement.objects.select_related("match"), pk=pk)
    accept = request.POST.get("answer") == "accept"
    try:
        postponement_answer(postponement=asked, user=request.user, accept=accept)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Accepted: the match is played on %(date)s.")
            % {"date": date_format(asked.date, "DATE_FORMAT")}
            if accept
            else _("Declined: the match stays on its night."),
        )
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)  # answered from the home page: back there
    return redirect("league:match", pk=asked.match_id)


def _back(request: HttpRequest, m: Match) -> HttpResponse:
    """Back to the match page, or to the organiser's schedule the form was sent from."""
    if request.POST.get("back") == "organise":
        url = reverse("league:organise_schedule", args=[m.week.season_id])
        return redirect(f"{url}#match-{m.pk}")
    return redirect("league:match", pk=m.pk)


def _form_errors(request: HttpRequest, form: Any) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, str(error))


@login_required
@require_POST
def forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a forfeit of the match (``match_forfeit``, which says who may)."""
    m = get_object_or_404(Match.objects.select_related("week__season", "home", "away"), pk=pk)
    form = ForfeitForm(request.POST, match=m)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(request, m)
    data = form.cleaned_data
    try:
        done = match_forfeit(match=m, team=data["team"], reason=data["reason"], user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(team)s forfeits: %(games)s awarded to %(other)s.")
            % {
                "team": done.team.name,
                "games": ngettext("%(n)s game", "%(n)s games", done.games.count())
                % {"n": done.games.count()},
                "other": m.away.name if done.team_id == m.home_id else m.home.name,
            },
        )
    return _back(request, m)


@login_required
@require_POST
def forfeit_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A judge undoes the match's forfeit (``forfeit_undo``)."""
    m = get_object_or_404(Match.objects.select_related("week__season", "home", "away"), pk=pk)
    form = ForfeitUndoForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(request, m)
    try:
        forfeit_undo(match=m, reason=form.cleaned_data["reason"], user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The forfeit is undone: its games no longer count."))
    return _back(request, m)


@login_required
@require_POST
def start_game(request: HttpRequest, pk: int) -> HttpResponse:
    m = get_object_or_404(
        Match.objects.filter(week__season__importing=False).select_related(
            "week__season__league", "home", "away"
        ),
        pk=pk,
    )
    if season_hidden_from(request.user, m.week.season):
        raise Http404  # a draft's match is not there for anyone but its organisers
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
