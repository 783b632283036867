"""The organiser's workspace (/organise/): a volunteer league admin sets up a season alone, on a
phone or a laptop: the season and its rules, players with logins and invitations, teams, the
schedule with dates, and undo for anything not yet played. Every page asks
``can(user, MANAGE_LEAGUE)``; every change is a service call, and a refusal is shown as the
service worded it, with what was typed kept on the form."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from league.forms_organiser import (
    MoveMatchForm,
    PlayerForm,
    PlayersPasteForm,
    PlayersUploadForm,
    RulesForm,
    ScheduleForm,
    SeasonForm,
    TeamForm,
    TeamsPasteForm,
)
from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can
from league.models import Match, Player, Season, Team
from league.selectors.organiser import leagues_overview, player_logins, season_setup
from league.services.people import invitations_send, players_add
from league.services.rules import season_create, season_has_games, season_rules_update
from league.services.seasons import (
    delete_unplayed,
    match_move,
    schedule_clear,
    schedule_create,
    team_create,
    teams_add,
)

STEPS = [
    ("season", "league:organise_season"),
    ("players", "league:organise_players"),
    ("teams", "league:organise_teams"),
    ("schedule", "league:organise_schedule"),
]


def organiser_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log in first; then only a league admin (``MANAGE_LEAGUE``) gets in."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can(request.user, Action.MANAGE_LEAGUE):
            return render(request, "organiser/forbidden.html", status=403)
        return view(request, *args, **kwargs)

    return wrapped


def refused(request: HttpRequest, exc: DomainError) -> None:
    """Show a service's refusal: its sentence, and each problem of a list on its own line."""
    problems = exc.extra.get("problems")
    if problems:
        messages.error(request, exc.extra.get("summary") or exc.message)
        for problem in problems:
            messages.error(request, problem)
    else:
        messages.error(request, exc.message)


def form_refused(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.shown().select_related("league"), pk=pk)


def _page(
    request: HttpRequest, season: Season, step: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    setup = context.pop("setup", None) or season_setup(season)
    return render(
        request,
        f"organiser/{step}.html",
        {"season": season, "step": step, "setup": setup, **context},
        status=status,
    )


# --- Home: leagues and seasons --------------------------------------------------------------


@organiser_only
def home(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                season = season_create(
                    league=form.cleaned_data["league"],
                    user=request.user,
                    name=form.cleaned_data["name"],
                )
            except DomainError as exc:
                refused(request, exc)
                status = 400
            else:
                messages.success(
                    request,
                    _("%(season)s is made, with the rules of %(league)s: check them below.")
                    % {"season": season.name, "league": season.league.name},
                )
                return redirect("league:organise_season", pk=season.pk)
        else:
            form_refused(request, form)
            status = 400
    return render(
        request,
        "organiser/home.html",
        {"leagues": leagues_overview(), "form": form},
        status=status,
    )


# --- The season and its rules -----------------------------------------------------------------


@organiser_only
def season(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    started = season_has_games(season)
    form = RulesForm(request.POST or None, season=season, started=started)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            changes = form.changes()
            if not changes:
                messages.info(request, _("Nothing changed."))
                return redirect("league:organise_season", pk=season.pk)
            try:
                season_rules_update(
                    season=season,
                    user=request.user,
                    changes=changes,
                    reason=form.cleaned_data.get("reason", ""),
                )
            except DomainError as exc:
                refused(request, exc)
                status = 400
            else:
                messages.success(request, _("The rules are saved."))
                return redirect("league:organise_season", pk=season.pk)
        else:
            form_refused(request, form)
            status = 400
    return _page(request, season, "season", {"form": form, "started": started}, status)


@organiser_only
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    if request.method == "POST":
        try:
            delete_unplayed(obj=season, user=request.user)
        except DomainError as exc:
            refused(request, exc)
            return redirect("league:organise_season", pk=season.pk)
        messages.success(request, _("%(season)s is deleted.") % {"season": season.name})
        return redirect("league:organise")
    return render(
        request,
        "organiser/confirm_delete.html",
        {
            "season": season,
            "what": _("the season %(name)s, its teams and its schedule") % {"name": season.name},
            "back": reverse("league:organise_season", args=[season.pk]),
            "played": season_has_games(season),
        },
    )


# --- Players and their logins ---------------------------------------------------------------


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


def _add_players(request: HttpRequest, form: Any) -> bool:
    """Add the players of a valid form, invite them if asked; False if refused."""
    try:
        lines = form.lines()
    except forms.ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return False
    try:
        added = players_add(user=request.user, lines=lines)
    except DomainError as exc:
        refused(request, exc)
        return False
    parts = [
        ngettext("%(n)s player added", "%(n)s players added", len(added.created))
        % {"n": len(added.created)}
    ]
    if added.logins:
        parts.append(
            ngettext(
                "%(n)s known player given a login",
                "%(n)s known players given a login",
                len(added.logins),
            )
            % {"n": len(added.logins)}
        )
    if added.known:
        parts.append(
            ngettext(
                "%(n)s already known, left as is",
                "%(n)s already known, left as they were",
                len(added.known),
            )
            % {"n": len(added.known)}
        )
    messages.success(request, "; ".join(parts) + ".")
    if form.cleaned_data.get("invite") and added.to_invite:
        _invite(request, added.to_invite)
    return True


def _invite(request: HttpRequest, players: list[Player]) -> None:
    try:
        sent = invitations_send(user=request.user, players=players, base_url=_base_url(request))
    except DomainError as exc:
        refused(request, exc)
        return
    messages.success(
        request,
        ngettext(
            "%(n)s invitation sent.",
            "%(n)s invitations sent.",
            sent,
        )
        % {"n": sent},
    )


@organiser_only
def players(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    action = request.POST.get("action") if request.method == "POST" else None
    single = PlayerForm(request.POST if action == "add" else None, prefix="one")
    paste = PlayersPasteForm(request.POST if action == "paste" else None, prefix="paste")
    upload = PlayersUploadForm(
        request.POST if action == "upload" else None,
        request.FILES if action == "upload" else None,
        prefix="upload",
    )
    status = 200
    if action in ("add", "paste", "upload"):
        form = {"add": single, "paste": paste, "upload": upload}[action]
        if form.is_valid() and _add_players(request, form):
            return redirect("league:organise_players", pk=season.pk)
        if not form.is_valid():
            form_refused(request, form)
        status = 400
    elif action == "invite":
        asked = request.POST.getlist("player")
        ids = [pk for pk in map(number_from, asked) if pk is not None]
        chosen = Player.objects.select_related("user").filter(
            **({"pk__in": ids} if asked else {"user__isnull": False})
        )
        _invite(request, list(chosen))
        return redirect("league:organise_players", pk=season.pk)
    setup = season_setup(season)
    return _page(
        request,
        season,
        "players",
        {
            "setup": setup,
            "single": single,
            "paste": paste,
            "upload": upload,
            "logins": player_logins(setup["players"], setup["on_team"]),
        },
        status,
    )


# --- Teams ----------------------------------------------------------------------------------


def _team_form(season: Season, setup: dict[str, Any], data: Any = None) -> TeamForm:
    free = setup["free_players"]
    taken = [p for p in setup["players"] if p.pk in setup["on_team"]]
    return TeamForm(data, season=season, free=free, taken=taken, prefix="team")


@organiser_only
def teams(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    action = request.POST.get("action") if request.method == "POST" else None
    setup = season_setup(season)
    form = _team_form(season, setup, request.POST if action == "add" else None)
    paste = TeamsPasteForm(request.POST if action == "paste" else None, prefix="paste")
    status = 200
    if action == "add":
        if form.is_valid():
            players = {p.pk: p for p in setup["players"]}
            chosen = [players[i] for i in form.player_ids() if i in players]
            try:
                team = team_create(
                    season=season,
                    user=request.user,
                    name=form.cleaned_data["name"],
                    players=chosen,
                    captain=chosen[0] if chosen else None,
                )
            except DomainError as exc:
                refused(request, exc)
            else:
                messages.success(request, _("%(team)s is added.") % {"team": team.name})
                return redirect("league:organise_teams", pk=season.pk)
        else:
            form_refused(request, form)
        status = 400
    elif action == "paste":
        if paste.is_valid():
            try:
                made = teams_add(season=season, user=request.user, rows=paste.rows())
            except (DomainError, forms.ValidationError) as exc:
                if isinstance(exc, DomainError):
                    refused(request, exc)
                else:
                    for message in exc.messages:
                        messages.error(request, message)
            else:
                messages.success(
                    request,
                    ngettext("%(n)s team added.", "%(n)s teams added.", len(made))
                    % {"n": len(made)},
                )
                return redirect("league:organise_teams", pk=season.pk)
        else:
            form_refused(request, paste)
        status = 400
    return _page(request, season, "teams", {"setup": setup, "form": form, "paste": paste}, status)


@organiser_only
def team_delete(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("season__league"), pk=pk)
    back = reverse("league:organise_teams", args=[team.season_id])
    if request.method == "POST":
        try:
            delete_unplayed(obj=team, user=request.user)
        except DomainError as exc:
            refused(request, exc)
        else:
            messages.success(request, _("%(team)s is deleted.") % {"team": team.name})
        return redirect(back)
    played = team.home_matches.filter(games__isnull=False).exists() or (
        team.away_matches.filter(games__isnull=False).exists()
    )
    return render(
        request,
        "organiser/confirm_delete.html",
        {
            "season": team.season,
            "what": _("the team %(name)s and its matches in the schedule") % {"name": team.name},
            "back": back,
            "played": played,
        },
    )


# --- The schedule ---------------------------------------------------------------------------


@organiser_only
def schedule(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    form = ScheduleForm(request.POST or None, prefix="s")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                weeks = schedule_create(
                    season=season,
                    user=request.user,
                    start_date=data["start"],
                    weekday=data["weekday"],
                    skip=data["skip"],
                    venue=data["venue"] or data["new_venue"],
                    tables=data["tables"],
                    weeks=data["weeks"],
                    regenerate=True,
                )
            except DomainError as exc:
                refused(request, exc)
            else:
                messages.success(
                    request,
                    ngettext(
                        "The schedule has %(n)s week.",
                        "The schedule has %(n)s weeks.",
                        len(weeks),
                    )
                    % {"n": len(weeks)},
                )
                return redirect("league:organise_schedule", pk=season.pk)
        else:
            form_refused(request, form)
        status = 400
    setup = season_setup(season)
    if not form.is_bound and setup["has_schedule"]:
        first = setup["schedule"][0]["week"]
        form = ScheduleForm(
            prefix="s",
            initial={"start": first.date, "venue": first.venue},
        )
    weeks = [row["week"] for row in setup["schedule"]]
    for row in setup["schedule"]:
        for m in row["matches"]:
            m.move_form = MoveMatchForm(match=m, weeks=weeks, prefix=f"m{m.pk}")
    return _page(request, season, "schedule", {"setup": setup, "form": form}, status)


@organiser_only
def schedule_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(pk)
    back = reverse("league:organise_schedule", args=[season.pk])
    if request.method == "POST":
        try:
            count = schedule_clear(season=season, user=request.user)
        except DomainError as exc:
            refused(request, exc)
        else:
            messages.success(
                request,
                ngettext("%(n)s week cleared.", "%(n)s weeks cleared.", count) % {"n": count},
            )
        return redirect(back)
    return render(
        request,
        "organiser/confirm_delete.html",
        {
            "season": season,
            "what": _("the schedule of %(name)s (every week and match)") % {"name": season.name},
            "back": back,
            "played": season_has_games(season),
        },
    )


@organiser_only
@require_POST
def move_match(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("week__season", "home", "away"), pk=pk)
    season = match.week.season
    form = MoveMatchForm(request.POST, match=match, weeks=None, prefix=f"m{match.pk}")
    back = reverse("league:organise_schedule", args=[season.pk]) + f"#match-{match.pk}"
    if not form.is_valid():
        form_refused(request, form)
        return redirect(back)
    data = form.cleaned_data
    try:
        moved = match_move(
            match=match,
            user=request.user,
            week=data["week"],
            date=data["date"],
            reason=data["reason"] or "",
        )
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("%(home)s v %(away)s moves to week %(n)s.")
            % {"home": match.home.name, "away": match.away.name, "n": moved.week.number},
        )
    return redirect(back)
