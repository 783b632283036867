"""``manage.py import_season FILE``: store a season archive, all or nothing."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from league.kernel.errors import DomainError
from league.models import Game
from league.services.archive_import import (
    archive_parse,
    import_plan,
    import_write,
    unfinished_imports_discard,
)


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"


class Command(BaseCommand):
    help = (
        "Import a season archive (JSON, format pegboard-season version 1) through the score-entry "
        "checks. Every deal is checked by the scorer before anything is written; a refused file "
        "stores nothing. Score entry goes on while the season is written. "
        "Use - to read standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="the archive (JSON), or - for standard input")
        parser.add_argument(
            "--discard-unfinished",
            action="store_true",
            help="delete the seasons of imports that were interrupted (run no import meanwhile)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["discard_unfinished"]:
            gone = unfinished_imports_discard()
            for name in gone:
                self.stdout.write(f"Deleted the unfinished import of {name}.")
            if not gone:
                self.stdout.write("No unfinished import.")
            if not options["file"]:
                return
        path = options["file"]
        if not path:
            raise CommandError("Name the archive to import (or - for standard input).")
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from None
        start = time.perf_counter()
        try:
            plan = import_plan(archive_parse(raw))
        except DomainError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        checked = time.perf_counter() - start
        estimate = plan.estimated_seconds(connection.vendor)
        self.stdout.write(
            f"Checked {plan.games:,} games ({plan.deals:,} deals) in {_duration(checked)}. "
            f"Writing them should take about {_duration(estimate)}; "
            "score entry goes on meanwhile."
        )
        every = max(1, plan.games // 10)
        shown = [0]

        def progress(done: int, total: int) -> None:
            if done - shown[0] >= every or done == total:
                shown[0] = done
                self.stdout.write(f"  {done:,} of {total:,} games written")

        start = time.perf_counter()
        try:
            season = import_write(plan, progress=progress)
        except DomainError as exc:
            raise CommandError(f"Nothing was imported. {exc.message}") from None
        games = Game.objects.filter(match__week__season=season)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {season.league.name}: {season.name} "
                f"({season.teams.count()} teams, {season.weeks.count()} weeks, "
                f"{games.count()} games) in {_duration(time.perf_counter() - start)}."
            )
        )
