"""What every competition's admin shares."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest


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
