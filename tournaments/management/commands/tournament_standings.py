"""``manage.py tournament_standings NAME --format json|table``: standings, qualifiers, bracket."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from tournaments.selectors import standings_document, tournament_by_name

COLUMNS = (
    ("rank", "#"),
    ("entrant", "Entrant"),
    ("played", "P"),
    ("won", "W"),
    ("lost", "L"),
    ("game_points", "GP"),
    ("skunks", "SK"),
    ("spread", "Spread"),
)


def standings_table(doc: dict[str, Any]) -> str:
    """The document laid out for a terminal, with the qualifying line drawn."""
    rows = doc["standings"]
    ranks = [row["rank"] for row in rows]
    qualified = set(doc["qualifiers"])
    cells = []
    for row in rows:
        line = []
        for key, _title in COLUMNS:
            value = row[key]
            if key == "rank":
                value = f"{value}=" if ranks.count(value) > 1 else str(value)
            elif key == "spread":
                value = f"{value:+d}" if value else "0"
            elif key == "entrant" and value in qualified:
                value = f"{value} *"
            line.append(str(value))
        cells.append(line)
    titles = [title for _key, title in COLUMNS]
    widths = [max([len(t), *(len(c[i]) for c in cells)]) for i, t in enumerate(titles)]

    def fmt(values: list[str]) -> str:
        return "  ".join(
            v.ljust(widths[i]) if i == 1 else v.rjust(widths[i]) for i, v in enumerate(values)
        ).rstrip()

    lines = [doc["tournament"], "", fmt(titles), fmt(["-" * w for w in widths])]
    for i, c in enumerate(cells):
        if i == len(qualified) and qualified:
            lines.append(fmt(["." * w for w in widths]))  # the qualifying line
        lines.append(fmt(c))
    bracket = ", ".join(f"{a} v {b if b is not None else 'bye'}" for a, b in doc["bracket"])
    lines += ["", "* qualifies", "Bracket: " + bracket]
    return "\n".join(lines)


class Command(BaseCommand):
    help = "Print a tournament's standings, qualifiers and first-round bracket."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the tournament's name")
        parser.add_argument("--format", choices=["json", "table"], default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = tournament_by_name(options["name"])
        except DomainError as exc:
            raise CommandError(exc.message) from None
        doc = standings_document(tournament)
        if options["format"] == "json":
            self.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(standings_table(doc))
