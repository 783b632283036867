"""The federation app's configuration."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("federation")
    default_auto_field = "django.db.models.BigAutoField"
