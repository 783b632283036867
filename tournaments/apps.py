"""App configuration for tournaments (label ``tournaments``), a peer of the league: it shares the
league's kernel (people, lifecycle, permissions, audit) and adds its parts to the player's page,
the roll of honour and the demo through ``league.kernel.extensions``."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from league.kernel.extensions import add_demo, add_honours, add_player_section
        from league.kernel.notify import add_calendar_source, add_scheduled
        from league.kernel.ratings import add_rating_source
        from tournaments import (
            checks,
            notify_events,  # noqa: F401 - declares the club nights' three events
        )
        from tournaments.demo import seed_demo
        from tournaments.honours import club_honours, honours_lines
        from tournaments.selectors import player_tournament_record, verified_results
        from tournaments.services.notify import club_night_calendar, club_night_reminders

        add_player_section(
            "tournaments/_player_record.html",
            lambda player: {"record": player_tournament_record(player)},
        )
        add_honours("tournaments/_honours.html", club_honours, honours_lines)
        add_demo(seed_demo)
        add_scheduled("club_night_reminders", club_night_reminders)
        add_calendar_source("club_nights", club_night_calendar)
        add_rating_source(verified_results)  # the ratings count verified tables
        checks.register()  # who may enter or settle a table's scorecards
