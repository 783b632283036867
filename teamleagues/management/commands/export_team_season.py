"""Write a team league season's archive (docs/formats/team-league-archive.md) to stdout."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from teamleagues.archive import season_export
from teamleagues.models import TeamSeason


class Command(BaseCommand):
    help = "Write a team league season's archive (JSON) to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        season = TeamSeason.objects.filter(pk=options["season_id"]).first()
        if season is None:
            raise CommandError(f"No team league season has the id {options['season_id']}.")
        self.stdout.write(json.dumps(season_export(season), indent=1, ensure_ascii=False))
