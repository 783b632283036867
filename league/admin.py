"""The admin panel for league admins and judges. Results are read here and changed only through
the services (actions below), so the admin is just another door to the same rules."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from league import models
from league.errors import DomainError
from league.permissions import Action, can, is_judge, is_league_admin
from league.rules_reference import RULES, RULES_BY_ID
from league.selectors.games import game_detail
from league.services.disputes import dispute_assign, dispute_deal_as_entered, dispute_rule
from league.services.games import game_void
from league.services.playoffs import playoffs_create
from league.services.seasons import schedule_create


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "variant",
        "target",
        "games_per_match",
        "skunk_margin",
        "requires_confirmation",
    ]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "playoff_teams", "is_current", "results_version"]
    list_filter = ["league", "is_current"]
    actions = ["make_schedule", "draw_playoffs"]

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.MANAGE_LEAGUE)

    @admin.action(description=_("Make a round-robin schedule"), permissions=["manage"])
    def make_schedule(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        for season in queryset:
            try:
                weeks = schedule_create(season=season, user=request.user)
            except DomainError as exc:
                self.message_user(request, f"{season}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{season}: {len(weeks)} weeks scheduled.")

    @admin.action(
        description=_("Draw the playoffs from the current seeding"), permissions=["manage"]
    )
    def draw_playoffs(self, request: HttpRequest, queryset: QuerySet[models.Season]) -> None:
        for season in queryset:
            try:
                matches = playoffs_create(season=season, user=request.user)
            except DomainError as exc:
                self.message_user(request, f"{season}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{season}: {len(matches)} first-round matches.")


@admin.register(models.Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "address"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user"]
    search_fields = ["name"]


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "captain"]
    list_filter = ["season"]
    filter_horizontal = ["players"]


@admin.register(models.Week)
class WeekAdmin(admin.ModelAdmin):
    list_display = ["number", "season", "date", "venue", "is_playoff"]
    list_filter = ["season"]


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "week", "table"]
    list_filter = ["week__season"]
    list_select_related = ["week__season", "home", "away"]


class ReadOnlyMixin:
    """Results are never edited in place: corrections and voids go through the services."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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
        "reason",
        "created_at",
    ]
    readonly_fields = fields
    extra = 0
    ordering = ["number", "version"]


@admin.register(models.Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "status", "home_score", "away_score", "winner", "skunk_level"]
    list_filter = ["status", "match__week__season"]
    list_select_related = ["match__week__season", "match__home", "match__away", "winner"]
    inlines = [DealInline]
    actions = ["void_games"]

    @admin.action(description=_("Void the selected games"))
    def void_games(self, request: HttpRequest, queryset: QuerySet[models.Game]) -> None:
        for game in queryset:
            try:
                game_void(game=game, user=request.user, reason="Voided in the admin panel")
            except DomainError as exc:
                self.message_user(request, f"{game}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{game}: voided.", messages.SUCCESS)

    def has_void_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.VOID_GAME)

    void_games.allowed_permissions = ("void",)  # type: ignore[attr-defined]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["at", "actor", "action", "object_type", "object_id", "reason"]
    list_filter = ["action"]
    date_hierarchy = "at"


# --- The judges' panel --------------------------------------------------------------------------


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
        choices=[("", "—")] + [(r.id, f"{r.id} {r.title}") for r in RULES],
        required=False,
        label=_("Rule cited"),
    )
    corrections = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        required=False,
        label=_("Corrected deals (JSON)"),
        help_text=_(
            'For example {"3": {"dealer": 2, "starter": "5H", "pegging": [4, 2], '
            '"shows": {"3": 8, "0": 6, "1": 4, "2": 12}, "crib": 4}}: deal number to '
            "the whole corrected deal, as entered."
        ),
    )

    class Meta:
        model = models.Dispute
        fields: list[str] = []

    request_user: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        dispute = self.instance
        if dispute.pk and dispute.deal_number and not self.is_bound:
            # The disputed deal as it stands, ready to edit: change the numbers in dispute.
            current = dispute_deal_as_entered(dispute)
            if current is not None:
                self.initial["corrections"] = json.dumps(
                    {str(dispute.deal_number): current}, indent=1, ensure_ascii=False
                )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        decision = data.get("decision")
        if not decision:
            return data
        corrections: list[tuple[int, dict[str, Any]]] = []
        raw = (data.get("corrections") or "").strip()
        if raw and decision != "dismiss":
            try:
                parsed = json.loads(raw)
                corrections = [(int(k), v) for k, v in parsed.items()]
            except (ValueError, AttributeError):
                raise forms.ValidationError(
                    _("Corrections must be JSON: deal number to the corrected deal.")
                ) from None
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
class DisputeAdmin(admin.ModelAdmin):
    form = DisputeRulingForm
    list_display = ["__str__", "status", "judge", "deal_number", "raised_by", "created_at"]
    list_filter = [
        "status",
        "game__match__week__season__league",
        "game__match__week__season",
        "judge",
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
        "claim",
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
                    "claim",
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
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request_user = request.user
        return form

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """The ruling was applied by the dispute service in the form; nothing else is saved."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not is_judge(request.user):
            return False
        return obj is None or not obj.is_closed

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_judge(request.user) or is_league_admin(request.user)

    def has_assign_permission(self, request: HttpRequest) -> bool:
        return is_judge(request.user)

    @admin.action(description=_("Assign to me"), permissions=["assign"])
    def assign_to_me(self, request: HttpRequest, queryset: QuerySet[models.Dispute]) -> None:
        for dispute in queryset:
            try:
                dispute_assign(dispute=dispute, judge=request.user)
            except DomainError as exc:
                self.message_user(request, f"{dispute}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{dispute}: assigned to you.", messages.SUCCESS)

    @admin.display(description=_("Game"))
    def game_link(self, obj: models.Dispute) -> str:
        return str(obj.game)

    @admin.display(description=_("Rule text"))
    def rule_text(self, obj: models.Dispute) -> str:
        rule = RULES_BY_ID.get(obj.rule_reference)
        return f"{rule.title}: {rule.text}" if rule else "—"

    @admin.display(description=_("Deals"))
    def game_deals(self, obj: models.Dispute) -> str:
        return mark_safe(
            render_to_string(
                "admin/league/game_deals.html", {"detail": game_detail(obj.game), "dispute": obj}
            )
        )

    @admin.display(description=_("Changes"))
    def game_audit(self, obj: models.Dispute) -> str:
        entries = models.AuditEntry.objects.filter(game=obj.game).select_related("actor")
        return mark_safe(render_to_string("admin/league/audit_entries.html", {"entries": entries}))
