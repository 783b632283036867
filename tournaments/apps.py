"""App configuration for tournaments (label ``tournaments``), a peer of the league: it shares the
league's kernel (people, lifecycle, permissions, audit) and adds its parts to the player's page
and the demo through ``league.kernel.extensions``."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from league.kernel.extensions import add_demo, add_player_section
        from tournaments import checks
        from tournaments.demo import seed_demo
        from tournaments.selectors import player_tournament_record

        add_player_section(
            "tournaments/_player_record.html",
            lambda player: {"record": player_tournament_record(player)},
        )
        add_demo(seed_demo)
        checks.register()  # who may enter or settle a table's scorecards
