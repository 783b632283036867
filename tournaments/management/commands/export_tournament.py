"""``manage.py export_tournament NAME``: a tournament archive on standard output."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from tournaments.archive import export_tournament
from tournaments.selectors import tournament_by_name


class Command(BaseCommand):
    help = "Write a tournament as an archive (JSON) with its standings, qualifiers and bracket."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the tournament's name")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = tournament_by_name(options["name"])
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(json.dumps(export_tournament(tournament), indent=2, ensure_ascii=False))
