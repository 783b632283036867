"""``manage.py make_schedule "SEASON NAME" [--start 2026-09-03] [--cycles 2] [--venue NAME]``:
a round-robin schedule for a season's teams (byes for an odd count, home and away balanced)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from league.kernel.permissions import Trusted
from league.models import Venue
from league.services.archive import season_by_name
from league.services.seasons import schedule_create


class Command(BaseCommand):
    help = "Make a round-robin schedule for a season's teams."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's name")
        parser.add_argument("--league", help="the league's name, if several have the season")
        parser.add_argument("--start", type=dt.date.fromisoformat, help="date of week 1")
        parser.add_argument("--cycles", type=int, default=1, help="times every pair meets")
        parser.add_argument("--venue", help="the venue's name")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            season = season_by_name(options["season"], league=options.get("league"))
            venue = None
            if options.get("venue"):
                venue = Venue.objects.filter(name=options["venue"]).first()
                if venue is None:
                    raise CommandError(f"No venue called {options['venue']!r}.")
            weeks = schedule_create(
                season=season,
                user=Trusted(None, "make_schedule command"),
                start_date=options.get("start"),
                cycles=options["cycles"],
                venue=venue,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from None
        matches = sum(w.matches.count() for w in weeks)
        self.stdout.write(f"{season}: {len(weeks)} weeks, {matches} matches scheduled.")
