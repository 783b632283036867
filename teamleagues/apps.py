"""The team leagues' app: it stands on the kernel and registers what it adds."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamLeaguesConfig(AppConfig):
    name = "teamleagues"
    verbose_name = _("team leagues")
    default_auto_field = "django.db.models.BigAutoField"
