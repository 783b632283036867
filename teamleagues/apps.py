"""The team leagues' app: it stands on the kernel and adds its parts by registering them (the
players' calendars), editing no kernel module but the audit trail's list of actions. (No
section of a player's page yet: the league pins that page's queries.)"""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamLeaguesConfig(AppConfig):
    name = "teamleagues"
    verbose_name = _("team leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from league.kernel.notify import add_calendar_source
        from teamleagues.selectors import fixture_calendar

        add_calendar_source("team_league_fixtures", fixture_calendar)
