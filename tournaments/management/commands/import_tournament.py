"""``manage.py import_tournament FILE``: store a tournament archive, all or nothing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from tournaments.archive import import_tournament, tournament_archive_parse


class Command(BaseCommand):
    help = (
        "Import a tournament archive (JSON, format pegboard-tournament version 1). Every game is "
        "checked as at the table; a refused file stores nothing. Use - to read standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from None
        try:  # the season importer's limits: size, UTF-8, JSON, depth (archive_reader)
            tournament = import_tournament(tournament_archive_parse(raw))
        except DomainError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.name} ({tournament.entrants.count()} entrants, "
                f"{tournament.rounds.count()} rounds)."
            )
        )
