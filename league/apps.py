"""App configuration for the league."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from league import checks
        from league.kernel.ratings import set_win_chances
        from league.selectors.ratings import win_chances_before

        checks.register()  # who may do what to a match, a game, a deal, a dispute
        set_win_chances(win_chances_before)  # a club night's upsets, read from the ratings
        from league import lockout  # noqa: F401 - device cookies' failure and password receivers
        from league.services import (
            notify,  # noqa: F401 - gives the night reminder its one-tap answer link
            season_notices,  # noqa: F401 - declares the postponement request's message
            tallies,  # noqa: F401 - connects the games' tally receivers
            tokens,  # noqa: F401 - connects the password-change receiver
        )
