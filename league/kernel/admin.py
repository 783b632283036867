"""What every competition's admin shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import Model
from django.http import HttpRequest

from league.kernel.errors import DomainError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def run_action(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    rows: Iterable[Any],
    service: Callable[[Any], Any],
    *,
    done: StrOrPromise,
    name: Callable[[Any], object] = str,
) -> None:
    """An admin action: ``service(row)`` for each selected row, each in its own try, so one
    row's refusal is shown with its name and the others go ahead. ``done`` says what worked:
    a sentence naming the row as ``%(name)s``, or words said after the row's name."""
    for row in rows:
        label = name(row)
        try:
            service(row)
        except DomainError as exc:
            model_admin.message_user(request, f"{label}: {exc.message}", messages.ERROR)
        else:
            text = str(done)
            said = text % {"name": label} if "%(name)s" in text else f"{label}: {text}."
            model_admin.message_user(request, said, messages.SUCCESS)


class StoredFieldsWhenViewing(admin.ModelAdmin):
    """A form's own fields (a match's reason for moving, an entrant's players, a judge's
    decision) are what the service is told, not what is stored: a user who may only view a row
    sees what is stored, each under its own name, rather than those inputs shown empty ("None")
    under their Python names."""

    def _inputs_only(self, request: HttpRequest, obj: Model | None) -> set[str]:
        """The form's own fields, when this user may only view ``obj`` (else none)."""
        if obj is None or self.has_change_permission(request, obj):
            return set()
        stored = {f.name for f in self.model._meta.get_fields()}
        return set(getattr(self.form, "declared_fields", {})) - stored

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        inputs = self._inputs_only(request, obj)
        return [name for name in super().get_fields(request, obj) if name not in inputs]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        inputs = self._inputs_only(request, obj)
        fieldsets = super().get_fieldsets(request, obj)
        if not inputs:
            return fieldsets
        return [
            (title, {**options, "fields": [f for f in options["fields"] if f not in inputs]})
            for title, options in fieldsets
        ]
