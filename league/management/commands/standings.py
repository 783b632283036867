"""``manage.py standings "SEASON NAME" --format json|table``: a season's standings and seeding."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.kernel.errors import DomainError
from league.selectors.standings import standings_for_season
from league.services.archive import season_by_name, standings_rows
from league.standings_row import ARCHIVED

COLUMNS = tuple((column.key, column.archived) for column in ARCHIVED)  # key, heading


def standings_document(season: Any) -> dict[str, Any]:
    """``{"season", "standings": [rows of the public columns], "seeding": [team names]}``."""
    data = standings_for_season(season)
    return {
        "season": season.name,
        "standings": standings_rows(data),
        "seeding": list(data["seeding"]),
    }


def standings_table(doc: dict[str, Any]) -> str:
    """The same document laid out for a terminal."""
    rows = doc["standings"]
    ranks = [row["rank"] for row in rows]
    cells = []
    for row in rows:
        shared = ranks.count(row["rank"]) > 1
        line = []
        for key, _title in COLUMNS:
            value = row[key]
            if key == "rank":
                value = f"{value}=" if shared else str(value)
            elif key == "spread":
                value = f"{value:+d}" if value else "0"
            line.append(str(value))
        cells.append(line)
    titles = [title for _key, title in COLUMNS]
    widths = [max(len(t), *(len(c[i]) for c in cells)) for i, t in enumerate(titles)]

    def fmt(values: list[str]) -> str:
        out = []
        for i, value in enumerate(values):
            out.append(value.ljust(widths[i]) if i == 1 else value.rjust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [doc["season"], "", fmt(titles), fmt(["-" * w for w in widths])]
    lines += [fmt(c) for c in cells]
    lines += ["", "Seeding: " + ", ".join(f"{i}. {t}" for i, t in enumerate(doc["seeding"], 1))]
    return "\n".join(lines)


class Command(BaseCommand):
    help = "Print a season's standings and playoff seeding (from confirmed games)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's name, e.g. 'Fall 2026'")
        parser.add_argument("--league", help="the league's name, when several have that season")
        parser.add_argument("--format", choices=["json", "table"], default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            season = season_by_name(options["season"], options.get("league"))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        doc = standings_document(season)
        if options["format"] == "json":
            self.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(standings_table(doc))
