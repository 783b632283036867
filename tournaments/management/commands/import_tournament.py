"""``manage.py import_tournament FILE``: store a tournament archive, all or nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from tournaments.archive import import_tournament


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
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(
                f"{path} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
            ) from None
        try:
            tournament = import_tournament(data)
        except DomainError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.name} ({tournament.entrants.count()} entrants, "
                f"{tournament.rounds.count()} rounds)."
            )
        )
