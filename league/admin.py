"""The admin panel for league admins and judges. Results are read here and changed only through
the services (actions below), so the admin is just another door to the same rules."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db import transaction
from django.db.models import Model, Q, QuerySet
from django.forms.formsets import BaseFormSet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from league import models
from league.kernel.admin import StoredFieldsWhenViewing, run_action
from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can, is_judge, is_official
from league.models.rules import RULE_FIELDS
from league.rules_reference import RULES, RULES_BY_ID, render_rule, rule_facts, why_not_played
from league.selectors.entry import judge_data
from league.selectors.games import game_detail
from league.selectors.history import game_history
from league.selectors.notify import device_name
from league.selectors.playoffs import playoff_ineligible
from league.services.disputes import dispute_assign, dispute_rule
from league.services.forfeits import forfeit_undo, match_forfeit
from league.services.games import game_void
from league.services.notify import push_device_remove
from league.services.people import PlayerLine, player_link, player_rename, players_add
from league.services.playoffs import playoffs_create, playoffs_undo
from league.services.postponements import week_cancel
from league.services.rules import (
    league_create,
    league_update,
    season_create,
    season_details_update,
    season_rules_update,
)
from league.services.season_life import (
    season_finish,
    season_publish,
    season_reopen,
    season_unpublish,
)
from league.services.season_ops import OPS_FIELDS, season_ops_update
from league.services.seasons import (
    delete_unplayed,
    match_create,
    match_update,
    schedule_create,
    team_create,
    team_update,
    venue_create,
    venue_update,
    week_create,
    week_update,
)
from league.services.subs import sub_remove, subs_add

if TYPE_CHECKING:
    pass

admin.site.site_header = _("Pegboard administration")
admin.site.site_title = _("Pegboard")
admin.site.index_title = _("Leagues, seasons, teams and disputes")


class ReasonActionForm(ActionForm):
    """The action bar with a reason beside it (drawing the playoffs before the season is over
    needs one, and it goes on record)."""

    reason = forms.CharField(
        required=False, label=_("Reason"), widget=forms.TextInput(attrs={"size": 40})
    )


class ServiceForm(forms.ModelForm):
    """An admin form whose save goes through a service: the service runs in ``clean()`` (so a
    refusal shows on the form and changes nothing) and ``save_model`` stores nothing more."""

    request_user: Any = None

    def apply(self, data: dict[str, Any]) -> Model:  # pragma: no cover - each form says
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a ModelForm's clean() returns its cleaned_data
        if self.errors:
            return data
        try:
            self.instance = self.apply(data)
        except DomainError as exc:
            raise forms.ValidationError(exc.message) from None
        return data


class TeamForm(ServiceForm):
    class Meta:
        model = models.Team
        fields = ["season", "name", "players", "captain"]

    def apply(self, data: dict[str, Any]) -> models.Team:
        players = list(data.get("players") or [])
        if self.instance.pk is None:
            return team_create(
                season=data["season"],
                user=self.request_user,
                name=data.get("name", ""),
                players=players,
                captain=data.get("captain"),
            )
        return team_update(
            team=self.instance,
            user=self.request_user,
            name=data.get("name"),
            players=players,
            captain=data.get("captain"),
        )


class ServiceAdmin(StoredFieldsWhenViewing):
    """Changes go through the form's service; deleting is allowed only for what never had a
    game (``delete_unplayed``), and goes through it too."""

    def get_form(
        self,
        request: HttpRequest,
        obj: Model | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> type[ServiceForm]:
        form = super().get_form(request, obj, change=change, **kwargs)
        assert issubclass(form, ServiceForm)  # built from self.form, a ServiceForm
        form.request_user = request.user
        return form

    def save_model(self, request: HttpRequest, obj: Model, form: ServiceForm, change: bool) -> None:
        """The form's service saved it."""

    def save_related(
        self, request: HttpRequest, form: ServiceForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        """The form's service saved the related rows too."""

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        delete_unplayed(obj=obj, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            try:
                delete_unplayed(obj=obj, user=request.user)
            except DomainError as exc:
                self.message_user(request, f"{obj}: {exc.message}", messages.ERROR)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if not can(request.user, Action.MANAGE_LEAGUE):
            return False
        return obj is None or not _has_games(obj)


def _has_games(obj: Model) -> bool:
    games = models.Game.objects.all()
    if isinstance(obj, models.Season):
        return games.filter(match__week__season=obj).exists()
    if isinstance(obj, models.Team):
        return games.filter(Q(match__home=obj) | Q(match__away=obj)).exists()
    if isinstance(obj, models.Week):
        return games.filter(match__week=obj).exists()
    if isinstance(obj, models.Match):
        return games.filter(match=obj).exists()
    return False


class LeagueForm(ServiceForm):
    """A league and its default rules, through ``league_create`` and ``league_update``: the
    same rules check as a season's."""

    class Meta:
        model = models.League
        fields = ["name", *RULE_FIELDS, "dealt_cards"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "dealt_cards" in self.fields:  # left out (a form that predates it): unchanged
            self.fields["dealt_cards"].required = False

    def apply(self, data: dict[str, Any]) -> models.League:
        rules = {name: data[name] for name in RULE_FIELDS if name in data}
        if self.instance.pk is None:
            # A setting left as the form showed it is no choice: the game's own defaults fill it
            # (its target, the skunk table's margins for that target).
            chosen = {k: v for k, v in rules.items() if k == "variant" or k in self.changed_data}
            league = league_create(user=self.request_user, name=data.get("name", ""), rules=chosen)
            if (data.get("dealt_cards") or models.DealtCards.OFF) != models.DealtCards.OFF:
                league = league_update(
                    league=league,
                    user=self.request_user,
                    changes={},
                    dealt_cards=data["dealt_cards"],
                )
            return league
        changes = {k: v for k, v in rules.items() if getattr(self.instance, k) != v}
        return league_update(
            league=self.instance,
            user=self.request_user,
            name=data.get("name"),
            changes=changes,
            dealt_cards=data.get("dealt_cards") or None,
        )


@admin.register(models.League)
class LeagueAdmin(ServiceAdmin):
    form = LeagueForm
    list_display = [
        "name",
        "variant",
        "target",
        "games_per_match",
        "skunk_margin",
        "requires_confirmation",
    ]

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # a league keeps its seasons' history


class SeasonForm(ServiceForm):
    """A season, made by ``season_create``; its rules changed by ``season_rules_update``, the
    service of the organiser's page (rules check, a reason once a game is played, audit, every
    finished game re-scored)."""

    reason = forms.CharField(
        required=False,
        label=_("Why do the rules of a season under way change?"),
        widget=forms.TextInput(attrs={"size": 60}),
    )

    class Meta:
        model = models.Season
        fields = [
            "league",
            "name",
            "playoff_teams",
            "draw_seed",
            *RULE_FIELDS,
            *OPS_FIELDS,
        ]

    def apply(self, data: dict[str, Any]) -> models.Season:
        rules = {name: data[name] for name in RULE_FIELDS if name in data}
        ops = {name: data[name] for name in OPS_FIELDS if name in data}
        # One transaction: a refused rules change or setting takes the details back with it.
        with transaction.atomic():
            if self.instance.pk is None:
                season = season_create(
                    league=data["league"],
                    user=self.request_user,
                    name=data.get("name", ""),
                    rules=rules,
                    playoff_teams=data["playoff_teams"],
                    draw_seed=data["draw_seed"],
                )
            else:
                season = season_details_update(
                    season=self.instance,
                    user=self.request_user,
                    name=data.get("name"),
                    playoff_teams=data.get("playoff_teams"),
                    draw_seed=data.get("draw_seed"),
                )
                changes = {k: v for k, v in rules.items() if getattr(season, k) != v}
                if changes:
                    season = season_rules_update(
                        season=season,
                        user=self.request_user,
                        changes=changes,
                        reason=data.get("reason") or "",
                    )
            settings = {k: v for k, v in ops.items() if getattr(season, k) != v}
            if settings:
                season = season_ops_update(season=season, user=self.request_user, changes=settings)
            return season


@admin.register(models.Season)
class SeasonAdmin(ServiceAdmin):
    form = SeasonForm
    list_display = ["name", "league", "state", "playoff_teams", "results_version"]
    list_filter = ["league", "state"]
    actions = [
        "make_schedule",
        "publish",
        "back_to_draft",
        "finish",
        "reopen",
        "draw_playoffs",
        "undo_playoffs",
    ]
    action_form = ReasonActionForm

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> Any:
        """Once made, a season stays in its league; its name, playoff places and draw seed
        change through ``season_details_update`` (which says when they no longer can)."""
        if obj is None:
            return ()
        return ("league", "state", "finished_reason", "playoff_not_eligible")

    @admin.display(description=_("not eligible for the playoffs"))
    def playoff_not_eligible(self, season: models.Season) -> str:
        """Who the nights-played rule keeps out of the playoffs, and why (so far before the
        draw, as drawn after it)."""
        ineligible = playoff_ineligible(season)
        if not ineligible["needed"]:
            return "—"
        if not ineligible["teams"]:
            return str(_("No team."))
        return " ".join(f"{row.team}: {'; '.join(row.reasons)}." for row in ineligible["teams"])

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    @admin.action(description=_("Make a round-robin schedule"), permissions=["manage"])
    def make_schedule(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: schedule_create(season=season, user=request.user),
            done=_("scheduled"),
        )

    @admin.action(description=_("Publish (next season, then running)"), permissions=["manage"])
    def publish(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: season_publish(season=season, user=request.user),
            done=_("published"),
        )

    @admin.action(description=_("Back to draft (before any game)"), permissions=["manage"])
    def back_to_draft(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: season_unpublish(season=season, user=request.user),
            done=_("back to draft"),
        )

    @admin.action(description=_("Finish the season (give the reason)"), permissions=["manage"])
    def finish(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: season_finish(
                season=season, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("finished"),
        )

    @admin.action(
        description=_("Reopen a finished season (give the reason)"), permissions=["manage"]
    )
    def reopen(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: season_reopen(
                season=season, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("reopened"),
        )

    @admin.action(
        description=_("Draw the playoffs from the current seeding"), permissions=["manage"]
    )
    def draw_playoffs(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: playoffs_create(
                season=season, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("playoffs drawn"),
        )

    @admin.action(
        description=_("Undo the playoff draw (before a playoff game starts)"),
        permissions=["manage"],
    )
    def undo_playoffs(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda season: playoffs_undo(
                season=season, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("playoff draw undone"),
        )


class VenueForm(ServiceForm):
    class Meta:
        model = models.Venue
        fields = ["name", "address"]

    def apply(self, data: dict[str, Any]) -> models.Venue:
        if self.instance.pk is not None:
            return venue_update(
                venue=self.instance,
                user=self.request_user,
                name=data.get("name", ""),
                address=data.get("address", ""),
            )
        return venue_create(
            user=self.request_user, name=data.get("name", ""), address=data.get("address", "")
        )


@admin.register(models.Venue)
class VenueAdmin(ServiceAdmin):
    """Venues are added through ``venue_create`` and changed through ``venue_update``
    (audited); a venue's name is what the weeks show."""

    form = VenueForm
    list_display = ["name", "address"]

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class PlayerForm(ServiceForm):
    """A player: added by ``players_add``; renamed by ``player_rename`` (audited, names stay
    unique); the account linked through ``player_link``, audited, which never lets one account
    vouch for both teams of a game."""

    class Meta:
        model = models.Player
        fields = ["name", "user"]

    def apply(self, data: dict[str, Any]) -> models.Player:
        player = self.instance
        if player.pk is None:
            added = players_add(user=self.request_user, lines=[PlayerLine(name=data["name"])])
            player = (added.created or added.known)[0]
            if player.user_id is not None or data.get("user") is None:
                return player
        elif "name" in self.changed_data:
            player = player_rename(player=player, name=data["name"], user=self.request_user)
            if "user" not in self.changed_data:
                return player
        return player_link(player=player, account=data.get("user"), user=self.request_user)


@admin.register(models.Player)
class PlayerAdmin(ServiceAdmin):
    form = PlayerForm
    list_display = ["name", "user"]
    search_fields = ["name"]

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class SeasonSubForm(ServiceForm):
    """A player put on a season's sub list through ``subs_add`` (refused for a player of a team
    of that season)."""

    class Meta:
        model = models.SeasonSub
        fields = ["season", "player"]

    def apply(self, data: dict[str, Any]) -> models.SeasonSub:
        season, player = data["season"], data["player"]
        subs_add(user=self.request_user, season=season, lines=[PlayerLine(name=player.name)])
        return models.SeasonSub.objects.get(season=season, player=player)


@admin.register(models.SeasonSub)
class SeasonSubAdmin(ServiceAdmin):
    """A season's sub list: added through ``subs_add``, taken off through ``sub_remove``."""

    form = SeasonSubForm
    list_display = ["player", "season", "added_at"]
    list_filter = ["season"]
    list_select_related = ["player", "season__league"]
    search_fields = ["player__name"]

    # Asked of the role, not of model permissions: the list is the league admins' to keep.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_official(request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_official(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        sub_remove(user=request.user, season=obj.season, player=obj.player)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset.select_related("season", "player"):
            sub_remove(user=request.user, season=obj.season, player=obj.player)


@admin.register(models.Team)
class TeamAdmin(ServiceAdmin):
    form = TeamForm
    list_display = ["name", "season", "captain"]
    list_filter = ["season"]
    filter_horizontal = ["players"]


class WeekForm(ServiceForm):
    """A night: added by ``week_create`` (the next number), its date and venue changed by
    ``week_update``; its season and number stay (its matches and games are that season's)."""

    class Meta:
        model = models.Week
        fields = ["season", "date", "venue"]

    def apply(self, data: dict[str, Any]) -> models.Week:
        if self.instance.pk is None:
            if data.get("date") is None:
                raise ValidationFailed(str(_("A new week needs its date.")), field="date")
            return week_create(
                season=data["season"],
                user=self.request_user,
                date=data["date"],
                venue=data.get("venue"),
            )
        return week_update(
            week=self.instance,
            user=self.request_user,
            date=data.get("date"),
            venue=data.get("venue"),
        )


@admin.register(models.Week)
class WeekAdmin(ServiceAdmin):
    form = WeekForm
    list_display = ["number", "season", "date", "venue", "is_playoff", "cancelled_reason"]
    list_filter = ["season"]
    actions = ["cancel_nights"]
    action_form = ReasonActionForm

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> Any:
        return () if obj is None else ("season", "number", "is_playoff", "cancelled_reason")

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    @admin.action(description=_("Cancel the selected nights"), permissions=["manage"])
    def cancel_nights(self, request: HttpRequest, queryset: QuerySet[models.Week]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda week: week_cancel(
                week=week, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("cancelled"),
        )


class MatchForm(ServiceForm):
    reason = forms.CharField(
        required=False,
        label=_("Why (when a match with games moves)"),
        widget=forms.TextInput(attrs={"size": 60}),
    )

    class Meta:
        model = models.Match
        fields = ["week", "home", "away", "table"]

    def apply(self, data: dict[str, Any]) -> models.Match:
        if self.instance.pk is None:
            return match_create(
                week=data["week"],
                user=self.request_user,
                home=data["home"],
                away=data["away"],
                table=data.get("table") or 1,
            )
        return match_update(
            match=self.instance,
            user=self.request_user,
            week=data.get("week"),
            home=data.get("home"),
            away=data.get("away"),
            table=data.get("table"),
            reason=data.get("reason") or "",
        )


@admin.register(models.Match)
class MatchAdmin(ServiceAdmin):
    form = MatchForm
    list_display = ["__str__", "week", "table"]
    list_filter = ["week__season"]
    list_select_related = ["week__season", "home", "away"]


class ReadOnlyMixin:
    """Results are never edited in place: corrections and voids go through the services."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class DealInline(ReadOnlyMixin, admin.TabularInline):
    model = models.Deal
    fields = [
        "number",
        "version",
        "is_current",
        "dealer",
        "starter",
        "pegging",
        "shows",
        "crib",
        "home_after",
        "away_after",
        "entered_by",
        "why",
        "created_at",
    ]
    readonly_fields = fields  # type: ignore[assignment]  # names only; the stubs read field groups
    extra = 0
    ordering = ["number", "version"]

    @admin.display(description=_("reason for the correction"))
    def why(self, deal: models.Deal) -> str:
        """The reason in the reader's language when the system wrote it."""
        return deal.reason_text


@admin.register(models.Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "status", "home_score", "away_score", "winner", "skunk_level"]
    list_filter = ["status", "match__week__season"]
    list_select_related = ["match__week__season", "match__home", "match__away", "winner"]
    inlines = [DealInline]
    actions = ["void_games"]

    @admin.action(description=_("Void the selected games"))
    def void_games(self, request: HttpRequest, queryset: QuerySet[models.Game]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda game: game_void(
                game=game, user=request.user, reason=str(_("Voided in the admin panel"))
            ),
            done=_("voided"),
        )

    def has_void_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.VOID_GAME)

    void_games.allowed_permissions = ("void",)  # type: ignore[attr-defined]


class ForfeitForm(ServiceForm):
    """A forfeit recorded through ``match_forfeit``: the match, the team that forfeits, why."""

    class Meta:
        model = models.Forfeit
        fields = ["match", "team", "reason"]

    def apply(self, data: dict[str, Any]) -> models.Forfeit:
        return match_forfeit(
            match=data["match"],
            team=data["team"],
            reason=data.get("reason") or "",
            user=self.request_user,
        )


@admin.register(models.Forfeit)
class ForfeitAdmin(ServiceAdmin):
    """Forfeits: recorded through ``match_forfeit`` (a judge or a league admin), undone by a
    judge with the action and a reason (``forfeit_undo``); never edited or deleted."""

    form = ForfeitForm
    list_display = ["__str__", "reason", "created_at", "undone_at"]
    list_filter = ["match__week__season"]
    list_select_related = ["match__week", "match__home", "match__away", "team"]
    actions = ["undo_forfeits"]
    action_form = ReasonActionForm

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RECORD_FORFEIT)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_official(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_official(request.user)

    def has_undo_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.UNDO_FORFEIT)

    @admin.action(description=_("Undo the selected forfeits"), permissions=["undo"])
    def undo_forfeits(self, request: HttpRequest, queryset: QuerySet[models.Forfeit]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda forfeit: forfeit_undo(
                match=forfeit.match, user=request.user, reason=request.POST.get("reason", "")
            ),
            done=_("forfeit undone"),
        )


@admin.register(models.Postponement)
class PostponementAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Postponements asked, answered and decided: read here; asked and answered on the match
    page or the API (``league.services.postponements``)."""

    list_display = ["__str__", "team", "status", "reason", "created_at"]
    list_filter = ["status", "match__week__season"]
    list_select_related = ["match__week", "match__home", "match__away", "team"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["at", "actor", "action", "kind", "object_id", "why"]
    list_filter = ["action"]
    date_hierarchy = "at"

    readonly_fields = ["kind", "why"]

    def get_fields(self, request: HttpRequest, obj: models.AuditEntry | None = None) -> Any:
        """The kind of record and the reason in the reader's language, in place of the stored
        class name and words."""
        fields = [n for n in super().get_fields(request, obj) if n not in ("object_type", "why")]
        return ["why" if name == "reason" else name for name in fields]

    @admin.display(description=_("kind of record"), ordering="object_type")
    def kind(self, entry: models.AuditEntry) -> str:
        return entry.record_kind

    @admin.display(description=_("reason"))
    def why(self, entry: models.AuditEntry) -> str:
        return entry.reason_text


# --- Notifications: read only (who was told what; the choices are each player's own) -------------


@admin.register(models.Delivery)
class DeliveryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "player", "event", "channel", "status", "sent_at", "subject"]
    list_filter = ["status", "channel", "category", "event"]
    search_fields = ["player__name", "subject"]
    list_select_related = ["player"]
    date_hierarchy = "created_at"


@admin.register(models.NotifyChoice)
class NotifyChoiceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["player", "category", "channel", "changed_at"]
    list_filter = ["category", "channel"]
    list_select_related = ["player"]


@admin.register(models.PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The phones that get each player's notifications: a league admin sees them all and
    removes one (through the service the player's own page uses); nobody adds or edits one
    here (a phone subscribes itself)."""

    list_display = ["player", "device", "host", "created_at"]
    search_fields = ["player__name", "user_agent"]
    list_select_related = ["player"]
    fields = ["player", "user_agent", "host", "created_at"]
    readonly_fields = ["player", "user_agent", "host", "created_at"]

    @admin.display(description=_("device"), ordering="user_agent")
    def device(self, device: models.PushSubscription) -> str:
        return device_name(device.user_agent)

    @admin.display(description=_("push service"))
    def host(self, device: models.PushSubscription) -> str:
        return urlsplit(device.endpoint).hostname or ""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    def delete_model(self, request: HttpRequest, obj: models.PushSubscription) -> None:
        push_device_remove(user=request.user, device_id=obj.pk)

    def delete_queryset(
        self, request: HttpRequest, queryset: QuerySet[models.PushSubscription]
    ) -> None:
        for device_id in list(queryset.values_list("pk", flat=True)):
            push_device_remove(user=request.user, device_id=device_id)


@admin.register(models.Announcement)
class AnnouncementAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "season", "text", "expires_at", "created_by"]
    list_select_related = ["season__league", "created_by"]


# --- The judges' panel --------------------------------------------------------------------------


CORRECTIONS_LIMIT = 200_000  # characters: a whole game of deals with cards is a few thousand


def parse_corrections(raw: str) -> dict[int, Any]:
    """The judge's corrections as the ruling service takes them: deal number -> the whole deal
    (or null to strike out a last deal). Sent by the correction form's script, never typed."""
    raw = raw.strip()
    if not raw:
        return {}
    if len(raw) > CORRECTIONS_LIMIT:
        raise forms.ValidationError(_("These corrections are far too long for one game."))
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        raise forms.ValidationError(
            _("The corrections could not be read: correct the deals with the form again.")
        ) from None
    if not isinstance(parsed, dict):
        raise forms.ValidationError(_("The corrections could not be read."))
    corrections: dict[int, Any] = {}
    for key, deal in parsed.items():
        number = number_from(key, digits=3)
        if number is None or number < 1:
            raise forms.ValidationError(_("A corrected deal needs its number."))
        if deal is not None and not isinstance(deal, dict):
            raise forms.ValidationError(
                _("Deal %(n)s could not be read: correct it with the form again.") % {"n": key}
            )
        corrections[number] = deal
    return corrections


class JudgeCorrectionsWidget(forms.Widget):
    """The judge's correction form: the phone's deal form in judge mode (``static/js/judge.js``
    on ``templates/league/_deal_form.html``), the game deal by deal, names for seats, the
    scorer's live checks. It writes the corrections as ``parse_corrections`` reads them into a
    hidden input: the judge never types JSON or a seat number."""

    judge: dict[str, Any] | None = None  # ``judge_data`` of the dispute, set by the form

    class Media:
        css = {"all": ["css/dealform.css", "css/admin-extra.css"]}
        js = ["js/dealform.js", "js/judge.js"]

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        if self.judge is None:  # a dispute not saved yet: nothing to correct
            return SafeString("")
        context = {
            "name": name,
            "value": value or "",
            "id": (attrs or {}).get("id"),
            "data": self.judge,
        }
        return render_to_string("admin/league/judge_form.html", context)


def _rule_choices() -> list[tuple[str, str]]:
    """The rules a ruling may cite, named in the judge's language (read when the form is)."""
    return [("", "—")] + [(r.id, f"{r.id} {r.title}") for r in RULES]


def _season_rule_choices(season: models.Season) -> list[Any]:
    """The rules a ruling on a game of ``season`` may cite, those it plays first; the others
    are listed apart with why they are not played (the service refuses them, saying so)."""
    facts = rule_facts(season)
    played = [(r.id, f"{r.id} {r.title}") for r in RULES if r.played(facts)]
    others = [
        (r.id, f"{r.id} {r.title} ({why_not_played(r, facts)})")
        for r in RULES
        if not r.played(facts)
    ]
    choices: list[Any] = [("", "—"), (_("Played this season"), played)]
    if others:
        choices.append((_("Not played this season"), others))
    return choices


class DisputeRulingForm(forms.ModelForm):
    """The judge's ruling. Saving calls the dispute service; a refused correction shows here
    as a form error and changes nothing."""

    decision = forms.ChoiceField(
        choices=[
            ("", "—"),
            ("resolve", _("Resolve (apply corrections)")),
            ("dismiss", _("Dismiss")),
        ],
        required=False,
        label=_("Decision"),
    )
    ruling_text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), required=False, label=_("Written ruling")
    )
    rule = forms.ChoiceField(
        choices=_rule_choices,
        required=False,
        label=_("Rule cited"),
    )
    corrections = forms.CharField(
        widget=JudgeCorrectionsWidget,
        required=False,
        label=_("Corrected deals"),
    )

    class Meta:
        model = models.Dispute
        fields: list[str] = []

    request_user: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            # The game deal by deal for the correction form (the phone's deal form, judge mode).
            self.fields["corrections"].widget.judge = judge_data(self.instance)
            rule = self.fields["rule"]
            assert isinstance(rule, forms.ChoiceField)  # declared above
            rule.choices = _season_rule_choices(self.instance.game.match.week.season)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a ModelForm's clean() returns its cleaned_data
        decision = data.get("decision")
        if not decision:
            return data
        corrections = (
            parse_corrections(data.get("corrections") or "") if decision != "dismiss" else {}
        )
        try:
            dispute_rule(
                dispute=self.instance,
                judge=self.request_user,
                ruling=data.get("ruling_text") or "",
                rule_reference=data.get("rule") or "",
                dismiss=decision == "dismiss",
                corrections=corrections,
            )
        except DomainError as exc:
            raise forms.ValidationError(exc.message) from None
        self.instance.refresh_from_db()
        return data


@admin.register(models.Dispute)
class DisputeAdmin(StoredFieldsWhenViewing):
    form = DisputeRulingForm
    list_display = ["__str__", "status", "judge", "deal_number", "raised_by", "created_at"]
    list_filter = [
        "status",
        "game__match__week__season__league",
        "game__match__week__season",
        # the judges who have disputes, not every account (players included)
        ("judge", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = [
        "game__match__week__season",
        "game__match__home",
        "game__match__away",
        "judge",
        "raised_by",
    ]
    actions = ["assign_to_me"]
    readonly_fields = [
        "game_link",
        "status",
        "judge",
        "raised_by",
        "raised_by_team",
        "deal_number",
        "claim_shown",
        "ruling",
        "rule_reference",
        "rule_text",
        "ruled_at",
        "game_deals",
        "game_audit",
    ]
    fieldsets = [
        (
            _("The dispute"),
            {
                "fields": [
                    "game_link",
                    "deal_number",
                    "claim_shown",
                    "raised_by",
                    "raised_by_team",
                    "status",
                    "judge",
                ]
            },
        ),
        (_("The game, deal by deal"), {"fields": ["game_deals"]}),
        (
            _("Ruling"),
            {
                "fields": [
                    "ruling",
                    "rule_reference",
                    "rule_text",
                    "ruled_at",
                    "decision",
                    "ruling_text",
                    "rule",
                    "corrections",
                ]
            },
        ),
        (_("Audit trail of this game"), {"fields": ["game_audit"]}),
    ]

    def get_form(
        self,
        request: HttpRequest,
        obj: models.Dispute | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> type[DisputeRulingForm]:
        form = super().get_form(request, obj, change=change, **kwargs)
        assert issubclass(form, DisputeRulingForm)  # built from self.form
        form.request_user = request.user
        return form

    def get_fieldsets(self, request: HttpRequest, obj: models.Dispute | None = None) -> Any:
        """A judge ruling on an open dispute sees the ruling's inputs only: its stored copy
        (ruling, rule cited, ruled at) is empty until then, and showed as a second, blank
        "Decision" and "Rule cited" above the form. A closed dispute shows what was ruled."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or not self.has_change_permission(request, obj):
            return fieldsets
        stored = {"ruling", "rule_reference", "rule_text", "ruled_at"}
        return [
            (title, {**options, "fields": [f for f in options["fields"] if f not in stored]})
            for title, options in fieldsets
        ]

    def save_model(
        self, request: HttpRequest, obj: models.Dispute, form: DisputeRulingForm, change: bool
    ) -> None:
        """The ruling was applied by the dispute service in the form; nothing else is saved."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(
        self, request: HttpRequest, obj: models.Dispute | None = None
    ) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: models.Dispute | None = None
    ) -> bool:
        if obj is None:
            return can(request.user, Action.RULE_DISPUTE)
        return not obj.is_closed and can(request.user, Action.RULE_DISPUTE, obj)

    def has_view_permission(self, request: HttpRequest, obj: models.Dispute | None = None) -> bool:
        if not is_official(request.user):
            return False  # the panel is for staff; players read disputes on the game page
        return can(request.user, Action.VIEW_DISPUTES, obj)

    def has_assign_permission(self, request: HttpRequest) -> bool:
        return is_judge(request.user)

    @admin.action(description=_("Assign to me"), permissions=["assign"])
    def assign_to_me(self, request: HttpRequest, queryset: QuerySet[models.Dispute]) -> None:
        run_action(
            self,
            request,
            queryset,
            lambda dispute: dispute_assign(dispute=dispute, judge=request.user),
            done=_("assigned to you"),
        )

    @admin.display(description=_("Game"))
    def game_link(self, obj: models.Dispute) -> str:
        return str(obj.game)

    @admin.display(description=_("Rule text"))
    def rule_text(self, obj: models.Dispute) -> str:
        rule = RULES_BY_ID.get(obj.rule_reference)
        if rule is None:
            return "—"
        shown = render_rule(rule, rule_facts(obj.game.match.week.season))
        return f"{shown.title}: {shown.text}"

    @admin.display(description=_("what is claimed"))
    def claim_shown(self, obj: models.Dispute) -> str:
        """The claim in the judge's language when the system wrote it (two rival entries)."""
        return obj.claim_text

    @admin.display(description=_("Deals"))
    def game_deals(self, obj: models.Dispute) -> str:
        return mark_safe(
            render_to_string(
                "admin/league/game_deals.html", {"detail": game_detail(obj.game), "dispute": obj}
            )
        )

    @admin.display(description=_("Changes"))
    def game_audit(self, obj: models.Dispute) -> str:
        """The game's history in words, as its teams read it on the game page."""
        entries = game_history(obj.game)
        return mark_safe(render_to_string("admin/league/audit_entries.html", {"entries": entries}))
