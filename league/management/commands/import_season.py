"""``manage.py import_season FILE``: store a season archive, all or nothing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.errors import DomainError
from league.models import Game
from league.services.archive import archive_parse, import_season


class Command(BaseCommand):
    help = (
        "Import a season archive (JSON, format pegboard-season version 1) through the score-entry "
        "services. Every deal is checked by the scorer; a refused file stores nothing. "
        "Use - to read standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from None
        try:
            season = import_season(archive_parse(raw))
        except DomainError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        games = Game.objects.filter(match__week__season=season)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {season.league.name}: {season.name} "
                f"({season.teams.count()} teams, {season.weeks.count()} weeks, "
                f"{games.count()} games)."
            )
        )
