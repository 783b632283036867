"""``manage.py backup``: the database dump, and the secrets file to keep apart from it
(docs/backups.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.kernel.backups import backup


class Command(BaseCommand):
    help = (
        "Dump the database (pg_dump, or SQLite's backup API) into --output, and write "
        "SECRET_KEY and the Web Push keys to a 0600 file in --secrets-dir, to keep apart."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", default="backups", help="folder for the dump")
        parser.add_argument(
            "--secrets-dir",
            default=None,
            help="folder for the secrets file (default: the dump's folder; keep it elsewhere)",
        )
        parser.add_argument("--no-secrets", action="store_true", help="the dump only")

    def handle(self, *args: Any, **options: Any) -> None:
        output = Path(options["output"])
        secrets_dir = None if options["no_secrets"] else Path(options["secrets_dir"] or output)
        made = backup(output, secrets_directory=secrets_dir)
        self.stdout.write(f"Database: {made.database}")
        if made.secrets:
            self.stdout.write(f"Secrets:  {made.secrets}")
            self.stdout.write(
                "Keep the secrets file apart from the dumps (another machine, a password "
                "manager): a restored database needs it, and anyone holding both can sign "
                "links as the site."
            )
