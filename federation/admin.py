"""The federation admin's panel: regions, the clubs' regions and the points schedules (each
schedule saved through ``schedule_record``: audited, the approved events it applies to
recomputed); the results sent up and their points, read only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.forms import BaseInlineFormSet, ModelForm
from django.http import HttpRequest

from federation import roles, services
from federation.models import (
    ClubRegion,
    Commissioner,
    FeeRate,
    GrassRootsSchedule,
    HandBonus,
    InvitationRule,
    PayoutStyle,
    PointsRow,
    PointsSchedule,
    QPool,
    Region,
    ScheduleMinimum,
    Submission,
    Title,
)
from league.kernel.errors import DomainError


class _FederationAdminOnly(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return roles.is_federation_admin(request.user) or roles.is_statistician(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return roles.is_federation_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return roles.is_federation_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Region)
class RegionAdmin(_FederationAdminOnly):
    list_display = ("name",)


@admin.register(ClubRegion)
class ClubRegionAdmin(_FederationAdminOnly):
    list_display = ("club", "region", "number")
    list_filter = ("region",)

    def save_model(
        self, request: HttpRequest, obj: ClubRegion, form: ModelForm, change: bool
    ) -> None:
        try:
            services.club_region_set(
                user=request.user, club=obj.club, region=obj.region, number=obj.number
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


@admin.register(Commissioner)
class CommissionerAdmin(_FederationAdminOnly):
    list_display = ("user", "region")
    list_filter = ("region",)

    def save_model(
        self, request: HttpRequest, obj: Commissioner, form: ModelForm, change: bool
    ) -> None:
        try:
            services.data_record(user=request.user, obj=obj)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


class _DataAdmin(_FederationAdminOnly):
    """A federation data row: saved by ``data_record`` (audited; dated rows recount)."""

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        try:
            services.data_record(user=request.user, obj=obj)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


@admin.register(GrassRootsSchedule)
class GrassRootsScheduleAdmin(_DataAdmin):
    list_display = ("effective_from", "threshold", "at_threshold", "per_game_point", "source")


@admin.register(Title)
class TitleAdmin(_DataAdmin):
    list_display = ("name", "name_fr", "points")


@admin.register(HandBonus)
class HandBonusAdmin(_DataAdmin):
    list_display = ("hand", "effective_from", "points")


@admin.register(InvitationRule)
class InvitationRuleAdmin(_DataAdmin):
    list_display = ("effective_from", "top_gr", "club_champions")


@admin.register(PayoutStyle)
class PayoutStyleAdmin(_DataAdmin):
    list_display = ("code", "name", "base_weight", "step", "lead_multiplier")


@admin.register(FeeRate)
class FeeRateAdmin(_FederationAdminOnly):
    list_display = ("kind", "effective_from", "per_entrant", "reason")
    list_filter = ("kind",)

    def save_model(self, request: HttpRequest, obj: FeeRate, form: ModelForm, change: bool) -> None:
        try:
            services.fee_rate_record(user=request.user, rate=obj)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


class MinimumInline(admin.TabularInline):
    model = ScheduleMinimum
    extra = 0

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return roles.is_federation_admin(request.user) or roles.is_statistician(request.user)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return roles.is_federation_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return roles.is_federation_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return roles.is_federation_admin(request.user)


@admin.register(PointsSchedule)
class PointsScheduleAdmin(_FederationAdminOnly):
    list_display = ("effective_from", "source")
    inlines = [MinimumInline]

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: Any, add: bool = False
    ) -> Any:
        """The admin's own history names the schedule only: its rows are in the audit trail."""
        return super().construct_change_message(request, form, [], add)

    def save_model(
        self, request: HttpRequest, obj: PointsSchedule, form: ModelForm, change: bool
    ) -> None:
        """Saved with its rows in ``save_related``, by one service call."""

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: list[BaseInlineFormSet], change: bool
    ) -> None:
        rows: list[ScheduleMinimum] = []
        removed: list[ScheduleMinimum] = []
        for formset in formsets:  # the forms' instances, validated; the service saves them
            gone = formset.deleted_forms
            rows.extend(f.instance for f in formset.forms if f.has_changed() and f not in gone)
            removed.extend(f.instance for f in gone if f.instance.pk)
        try:
            services.schedule_record(
                user=request.user, schedule=form.instance, minimums=rows, removed=removed
            )
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


class _ReadOnly(_FederationAdminOnly):
    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Submission)
class SubmissionAdmin(_ReadOnly):
    list_display = ("tournament", "status", "sent_at", "times_sent", "reviewed_by")
    list_filter = ("status",)


@admin.register(QPool)
class QPoolAdmin(_ReadOnly):
    list_display = ("tournament", "number", "entry", "style")


@admin.register(PointsRow)
class PointsRowAdmin(_ReadOnly):
    list_display = ("acc_number", "name", "tournament", "season", "points")
    list_filter = ("season", "kind", "region")
    search_fields = ("acc_number", "name")
