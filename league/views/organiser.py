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
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from league.forms import ForfeitForm, NightCancelForm, PostponeForm
from league.forms_organiser import (
    MoveMatchForm,
    PlayerForm,
    PlayersPasteForm,
    PlayersUploadForm,
    RulesForm,
    ScheduleForm,
    SeasonForm,
    SeasonOpsForm,
    TeamForm,
    TeamsPasteForm,
)
from league.kernel.errors import DomainError
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can
from league.models import Match, Player, Season, SeasonState, Team, Week
from league.selectors.availability import who_is_coming
from league.selectors.organiser import (
    invitations_held,
    league_players,
    leagues_overview,
    player_logins,
    season_setup,
)
from league.selectors.playoffs import playoff_ineligible
from league.selectors.postponements import postponements_for_organiser
from league.selectors.subs import subs_of
from league.selectors.unsettled import season_unsettled
from league.services.people import players_add, season_invite
from league.services.postponements import week_cancel, week_move
from league.services.rules import season_create, season_has_games, season_rules_update
from league.services.season_life import (
    season_finish,
    season_publish,
    season_reopen,
    season_unpublish,
)
from league.services.season_ops import season_ops_update
from league.services.seasons import (
    delete_unplayed,
    match_move,
    schedule_clear,
    schedule_create,
    team_create,
    teams_add,
)
from league.services.subs import sub_remove, subs_add

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
    context = {
        "form": form,
        "started": started,
        "state": season.state_on(timezone.localdate()),
        "who_is_coming": who_is_coming(season=season, today=timezone.localdate()),
        "ops_form": SeasonOpsForm(season=season),
        "ineligible": playoff_ineligible(season),
        # Postponements nobody answered in time: the organiser decides them.
        "to_decide": postponements_for_organiser(season),
        # What finishing now would leave open, and who would confirm it.
        "unsettled": season_unsettled(season) if season.state == SeasonState.PUBLISHED else None,
        "organiser_name": getattr(request.user, "get_full_name", str)()
        or request.user.get_username(),
    }
    return _page(request, season, "season", context, status)


SEASON_MOVES = {
    "publish": (
        lambda season, user, reason, confirm: season_publish(season=season, user=user),
        gettext_lazy("%(season)s is published: everyone sees it as the next season."),
    ),
    "draft": (
        lambda season, user, reason, confirm: season_unpublish(season=season, user=user),
        gettext_lazy("%(season)s is a draft again: only organisers see it."),
    ),
    "finish": (
        lambda season, user, reason, confirm: season_finish(
            season=season, user=user, reason=reason, confirm=confirm
        ),
        gettext_lazy("%(season)s is finished."),
    ),
    "reopen": (
        lambda season, user, reason, confirm: season_reopen(
            season=season, user=user, reason=reason
        ),
        gettext_lazy("%(season)s is open again."),
    ),
}


@organiser_only
@require_POST
def season_state(request: HttpRequest, pk: int) -> HttpResponse:
    """Publish, take back to draft, finish or reopen the season (the services say when not)."""
    season = _season(pk)
    move = SEASON_MOVES.get(request.POST.get("move", ""))
    if move is None:
        messages.error(request, _("Choose what to do with the season."))
        return redirect("league:organise_season", pk=season.pk)
    change, done = move
    try:
        change(
            season,
            request.user,
            request.POST.get("reason", ""),
            request.POST.get("confirm") == "yes",
        )
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(request, done % {"season": season.name})
    return redirect("league:organise_season", pk=season.pk)


@organiser_only
@require_POST
def season_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's forfeit and closing settings (``season_ops_update``)."""
    season = _season(pk)
    form = SeasonOpsForm(request.POST, season=season)
    if not form.is_valid():
        form_refused(request, form)
        return redirect("league:organise_season", pk=season.pk)
    changes = form.changes()
    if not changes:
        messages.info(request, _("Nothing changed."))
        return redirect("league:organise_season", pk=season.pk)
    try:
        season_ops_update(season=season, user=request.user, changes=changes)
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(request, _("The settings are saved."))
    return redirect("league:organise_season", pk=season.pk)


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


def _add_players(request: HttpRequest, season: Season, form: Any) -> bool:
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
        _invite(request, season, added.to_invite)
    return True


def _add_subs(request: HttpRequest, season: Season, form: Any) -> bool:
    """Put a valid form's players on the season's sub list, invite them if asked; False if
    refused."""
    try:
        lines = form.lines()
    except forms.ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
        return False
    try:
        added = subs_add(user=request.user, season=season, lines=lines)
    except DomainError as exc:
        refused(request, exc)
        return False
    said = ngettext(
        "%(n)s sub added to the list.", "%(n)s subs added to the list.", len(added.added)
    ) % {"n": len(added.added)}
    if added.already:
        said += " " + ngettext(
            "%(n)s was on it already.", "%(n)s were on it already.", len(added.already)
        ) % {"n": len(added.already)}
    messages.success(request, said)
    if form.cleaned_data.get("invite") and added.to_invite:
        _invite(request, season, added.to_invite)
    return True


def _invite(request: HttpRequest, season: Season, players: list[Player]) -> None:
    try:
        invited = season_invite(
            user=request.user, season=season, players=players, base_url=_base_url(request)
        )
    except DomainError as exc:
        refused(request, exc)
        return
    if invited.held:
        messages.success(
            request,
            ngettext(
                "%(n)s invitation held: it goes out when the season is published.",
                "%(n)s invitations held: they go out when the season is published.",
                invited.held,
            )
            % {"n": invited.held},
        )
        return
    messages.success(
        request,
        ngettext(
            "%(n)s invitation sent.",
            "%(n)s invitations sent.",
            invited.sent,
        )
        % {"n": invited.sent},
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
    subs_form = None
    status = 200
    if action in ("add", "paste", "upload"):
        form = {"add": single, "paste": paste, "upload": upload}[action]
        if form.is_valid() and _add_players(request, season, form):
            return redirect("league:organise_players", pk=season.pk)
        if not form.is_valid():
            form_refused(request, form)
        status = 400
    elif action == "subs":
        subs_form = PlayersPasteForm(request.POST, prefix="subs")
        if subs_form.is_valid() and _add_subs(request, season, subs_form):
            return redirect(f"{reverse('league:organise_players', args=[season.pk])}#subs-title")
        if not subs_form.is_valid():
            form_refused(request, subs_form)
        status = 400
    elif action == "sub_remove":
        sub_id = number_from(request.POST.get("player"))
        player = Player.objects.filter(pk=sub_id).first() if sub_id is not None else None
        try:
            if player is None:
                raise Player.DoesNotExist
            sub_remove(user=request.user, season=season, player=player)
        except Player.DoesNotExist:
            messages.error(request, _("That player is not on the sub list."))
        except DomainError as exc:
            refused(request, exc)
        else:
            messages.success(request, _("%(name)s is off the sub list.") % {"name": player.name})
        return redirect(f"{reverse('league:organise_players', args=[season.pk])}#subs-title")
    elif action == "invite":
        asked = request.POST.getlist("player")
        ids = [pk for pk in map(number_from, asked) if pk is not None]
        chosen = (
            league_players(season)
            .select_related("user")
            .filter(**({"pk__in": ids} if asked else {"user__isnull": False}))
        )
        _invite(request, season, list(chosen))
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
            "logins": player_logins(
                setup["players"], setup["on_team"], held=invitations_held(season)
            ),
            "subs": subs_of(season),
            "subs_form": subs_form
            if action == "subs"
            else PlayersPasteForm(prefix="subs", initial={"invite": True}),
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
            m.forfeit = m.standing_forfeits[0] if m.standing_forfeits else None
            m.forfeit_form = None if m.forfeit else ForfeitForm(match=m, auto_id=f"f{m.pk}_%s")
    for row in setup["schedule"]:
        week = row["week"]
        if not row["played"]:
            week.move_form = PostponeForm(auto_id=f"w{week.pk}_%s")
            week.cancel_form = (
                None if week.cancelled_reason else NightCancelForm(auto_id=f"c{week.pk}_%s")
            )
    return _page(request, season, "schedule", {"setup": setup, "form": form}, status)


@organiser_only
@require_POST
def week_night(request: HttpRequest, pk: int) -> HttpResponse:
    """Move the whole night (``week_move``) or cancel it (``week_cancel``), in one action."""
    week = get_object_or_404(Week.objects.select_related("season"), pk=pk)
    back = reverse("league:organise_schedule", args=[week.season_id]) + f"#week-{week.number}"
    cancel = request.POST.get("what") == "cancel"
    form: forms.Form = NightCancelForm(request.POST) if cancel else PostponeForm(request.POST)
    if not form.is_valid():
        form_refused(request, form)
        return redirect(back)
    data = form.cleaned_data
    try:
        if cancel:
            week_cancel(week=week, user=request.user, reason=data["reason"])
            said = _("Week %(n)s is cancelled; it stays in the schedule.") % {"n": week.number}
        else:
            week_move(week=week, user=request.user, date=data["date"], reason=data["reason"])
            said = _("Every match of week %(n)s moves to its new date.") % {"n": week.number}
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(request, said)
    return redirect(back)


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
