"""What every tournaments ModelAdmin shares: director-only pages and a refusal that stays on its
form."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can


class _DirectorOnly(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT) or can(
            request.user, Action.CHECK_SCORECARDS
        )

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _RefusalStaysOnForm(admin.ModelAdmin):
    """A form whose save the service refused: the reason is shown on the same form, with no
    "changed successfully" beside it and nothing in the admin's history (nothing changed)."""

    def refused(self, request: HttpRequest, obj: Any, exc: DomainError) -> None:
        obj.admin_refused = True
        self.message_user(request, exc.message, messages.ERROR)

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        if getattr(obj, "admin_refused", False):
            return None
        return super().log_change(request, obj, message)

    def response_change(self, request: HttpRequest, obj: Any) -> HttpResponse:
        if getattr(obj, "admin_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)


class ActionPermissions:
    """The permissions the actions declare (``@admin.action(permissions=[...])``), each asking
    ``can()`` the rule the action's service checks: an action is neither listed nor run for a
    user without it (the service still checks each selected row)."""

    def has_run_tournament_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.RUN_TOURNAMENT)

    def has_check_scorecards_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.CHECK_SCORECARDS)

    def has_keep_money_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.KEEP_MONEY)
