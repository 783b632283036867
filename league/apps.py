"""App configuration for the league."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from league import checks

        checks.register()  # who may do what to a match, a game, a deal, a dispute
        from league.services import (
            tallies,  # noqa: F401 - connects the games' tally receivers
            tokens,  # noqa: F401 - connects the password-change receiver
        )
