"""``manage.py restore FILE``: put a dump made by ``manage.py backup`` back (docs/backups.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.backups import restore_database


class Command(BaseCommand):
    help = "Replace every row of the database with a dump made by `manage.py backup`."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dump", help="a .dump (PostgreSQL) or .sqlite3 (SQLite) file")
        parser.add_argument(
            "--yes", action="store_true", help="do not ask: the database's rows are replaced"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dump = Path(options["dump"])
        if not dump.is_file():
            raise CommandError(f"No dump at {dump}.")
        if not options["yes"]:
            answer = input(
                "Every row of the database will be replaced by the dump. Stop the web "
                "server, the worker and beat first. Go on? [y/N] "
            )
            if answer.strip().lower() not in {"y", "yes"}:
                raise CommandError("Nothing restored.")
        restore_database(dump)
        self.stdout.write(f"Restored {dump}.")
        self.stdout.write(
            "Now put SECRET_KEY and the PEGBOARD_VAPID_* lines of the secrets file back in the "
            "settings file, run `manage.py migrate` (a dump from an older release), and start "
            "the web server, the worker and beat."
        )
