"""``manage.py export_season "SEASON NAME"``: the season archive as JSON on standard output."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from league.services.archive import export_season, season_by_name


class Command(BaseCommand):
    help = (
        "Write a season as a season archive (JSON, format pegboard-season version 1) to standard "
        "output, with each game's final score and the season's standings and seeding."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's name, e.g. 'Fall 2026'")
        parser.add_argument("--league", help="the league's name, when several have that season")
        parser.add_argument("--indent", type=int, default=2, help="JSON indent (0: one line)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            season = season_by_name(options["season"], options.get("league"))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        result = export_season(season)
        indent = options["indent"] or None
        self.stdout.write(json.dumps(result.archive, indent=indent, ensure_ascii=False))
        if result.unconfirmed:
            self.stderr.write(
                f"Note: {len(result.unconfirmed)} finished game(s) are not confirmed yet "
                f"({'; '.join(result.unconfirmed)}). The archive records them as played; an "
                "import confirms them, and the exported standings count them."
            )
