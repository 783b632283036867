"""Read a team league season's archive into a new league, through the services."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from league.kernel.permissions import Trusted
from teamleagues.archive import season_import


class Command(BaseCommand):
    help = "Import a team league season's archive (JSON) as a new league."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--league-name", default="", help="the new league's name")

    def handle(self, *args: Any, **options: Any) -> None:
        raw = Path(options["path"]).read_bytes()
        try:
            season = season_import(
                user=Trusted(None, "team season import"),
                raw=raw,
                league_name=options["league_name"],
            )
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Imported {season.league.name} {season.name} (season {season.pk}).")
