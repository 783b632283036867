"""Registration in the admin: an event's desk (open, capacity, venue, approval), saved through
``desk_set``; registrations listed with the director's bulk actions (accept, refuse, fee paid,
check in, withdraw), each the same service the workspace calls. Registrations are made on the
event's page, never typed in here."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext_lazy

from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can
from tournaments.models import Registration, RegistrationDesk
from tournaments.services import registration as services

from .base import ActionPermissions


@admin.register(RegistrationDesk)
class RegistrationDeskAdmin(admin.ModelAdmin):
    list_display = ("tournament", "is_open", "capacity", "needs_approval", "venue")
    fields = ("tournament", "is_open", "capacity", "venue", "details", "needs_approval")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request) and (
            obj is None or services.runs(request.user, obj.tournament)
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("tournament",) if obj is not None else ()

    def save_model(
        self, request: HttpRequest, obj: RegistrationDesk, form: Any, change: bool
    ) -> None:
        """Through ``desk_set``: the same checks as the workspace, the waiting list refilled."""
        changes = {name: form.cleaned_data[name] for name in services.DESK_FIELDS}
        tournament = obj.tournament if change else form.cleaned_data["tournament"]
        try:
            saved = services.desk_set(user=request.user, tournament=tournament, changes=changes)
        except DomainError as exc:
            obj.admin_refused = True  # type: ignore[attr-defined]
            self.message_user(request, exc.message, messages.ERROR)
        else:
            obj.pk = saved.pk

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return (
            None
            if getattr(obj, "admin_refused", False)
            else super().log_addition(request, obj, message)
        )

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return (
            None
            if getattr(obj, "admin_refused", False)
            else super().log_change(request, obj, message)
        )

    def response_add(
        self, request: HttpRequest, obj: Any, post_url_continue: Any = None
    ) -> HttpResponse:
        if getattr(obj, "admin_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request: HttpRequest, obj: Any) -> HttpResponse:
        if getattr(obj, "admin_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)


def _by_event(
    admin_: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Registration],
    write: Callable[[Any, list[Registration]], Any],
    done: Any,
) -> None:
    """One write per event for the rows selected (all or none of each event's rows)."""
    rows = sorted(queryset.select_related("tournament"), key=lambda r: r.tournament_id)
    for _event, group in groupby(rows, key=lambda r: r.tournament_id):
        chosen = list(group)
        tournament = chosen[0].tournament
        try:
            write(tournament, chosen)
        except DomainError as exc:
            admin_.message_user(request, f"{tournament.name}: {exc.message}", messages.ERROR)
        else:
            admin_.message_user(
                request, f"{tournament.name}: {done % {'n': len(chosen)}}", messages.SUCCESS
            )


@admin.register(Registration)
class RegistrationAdmin(ActionPermissions, admin.ModelAdmin):
    list_display = (
        "name",
        "tournament",
        "status",
        "member_status",
        "acc_number",
        "partner",
        "created_at",
    )
    list_filter = ("tournament", "status", "partner_wanted")
    search_fields = ("name", "email", "acc_number")
    actions = ["accept", "refuse", "paid", "check_in", "withdraw"]
    readonly_fields = (
        "tournament",
        "name",
        "email",
        "acc_number",
        "member_status",
        "partner",
        "partner_wanted",
        "status",
        "player",
        "entrant",
        "paired_with",
        "fee_owed",
        "created_at",
        "queued_at",
    )
    exclude = ("token",)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players register on the event's page

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if not self.has_module_permission(request):
            return {}
        return actions

    @admin.action(
        description=gettext_lazy("Accept (a place, or the waiting list when full)"),
        permissions=["run_tournament"],
    )
    def accept(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _by_event(
            self,
            request,
            queryset,
            lambda t, rows: services.registrations_decide(
                user=request.user, tournament=t, registrations=rows, accept=True
            ),
            gettext_lazy("%(n)s accepted."),
        )

    @admin.action(
        description=gettext_lazy("Refuse (they are told)"), permissions=["run_tournament"]
    )
    def refuse(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _by_event(
            self,
            request,
            queryset,
            lambda t, rows: services.registrations_decide(
                user=request.user, tournament=t, registrations=rows, accept=False
            ),
            gettext_lazy("Refused %(n)s; they are told."),
        )

    @admin.action(description=gettext_lazy("The entry fee is paid"), permissions=["keep_money"])
    def paid(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _by_event(
            self,
            request,
            queryset,
            lambda t, rows: services.registrations_paid(
                user=request.user, tournament=t, registrations=rows
            ),
            gettext_lazy("%(n)s entry fees recorded as paid."),
        )

    @admin.action(description=gettext_lazy("Check in"), permissions=["run_tournament"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        _by_event(
            self,
            request,
            queryset,
            lambda t, rows: services.registrations_check_in(
                user=request.user, tournament=t, registrations=rows
            ),
            gettext_lazy("%(n)s checked in."),
        )

    @admin.action(
        description=gettext_lazy("Withdraw (the waiting list moves up)"),
        permissions=["run_tournament"],
    )
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        for row in queryset:
            try:
                services.registration_withdraw(user=request.user, registration=row)
            except DomainError as exc:
                self.message_user(request, f"{row.name}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, gettext_lazy("%(name)s withdrawn.") % {"name": row.name})
