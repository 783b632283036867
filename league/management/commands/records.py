"""``manage.py records [--season ID] [--json]``: the records pages' figures in plain text (or
JSON), from the same selectors, so every figure on ``/records/`` can be reproduced."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.models import Game, Season
from league.selectors import records
from league.services.records import PARTS, records_stored


def _game(game: Game) -> dict[str, Any]:
    match = game.match
    return {
        "game": game.pk,
        "season": match.week.season.name,
        "date": match.when.isoformat() if match.when else None,
        "home": match.home.name,
        "away": match.away.name,
    }


def records_document(season: Season | None) -> dict[str, Any]:
    """Every record, as plain data: the roll of honour (league champions only: the other
    competition's part is printed as text), the Skunk King and skunk tables, the streaks,
    the milestones and the special hands (of ``season`` only, if given)."""
    honours = records.roll_of_honour()
    seasons = list(records.public_seasons().select_related("league"))
    stored = records_stored(PARTS, season=season, seasons=seasons)
    skunks = records.skunks_shown(stored["skunks"], seasons)
    runs_and_steps = records.streaks_shown(stored["streaks"], stored["milestones"])

    def lines(items: list[records.SkunkLine]) -> list[dict[str, Any]]:
        return [
            {"name": x.name, "given": x.given, "taken": x.taken, "doubles_given": x.doubles_given}
            for x in items
        ]

    def runs(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                "name": s["name"],
                "length": s["length"],
                "from": _game(s["first"]),
                "to": _game(s["last"]),
            }
            for s in items
        ]

    return {
        "season": season.name if season else None,
        "champions": [
            {
                "league": row["season"].league.name,
                "season": row["season"].name,
                "team": row["champion"]["team"] if row["champion"] else None,
                "how": row["champion"]["how"] if row["champion"] else None,
            }
            for row in honours["seasons"]
        ],
        "honours": [line for s, ctx in honours["sections"] for line in s.lines(ctx)],
        "skunk_king": lines(skunks["king"]),
        "skunks": {"players": lines(skunks["players"]), "teams": lines(skunks["teams"])},
        "streaks": {key: runs(value) for key, value in runs_and_steps["streaks"].items()},
        "milestones": [
            {"player": m["player"]["name"], "kind": m["kind"], "at": m["at"], **_game(m["game"])}
            for m in runs_and_steps["milestones"]
        ],
        "special_hands": [
            {
                "player": h["player"]["name"],
                "points": h["points"],
                "kinds": list(h["kinds"]),
                "crib": h["crib"],
                "cards": h["cards"],
                "starter": h["starter"],
                "deal": h["deal"],
                **_game(h["game"]),
            }
            for h in records.hands_shown(stored["hands"])
        ],
    }


def records_text(doc: dict[str, Any]) -> str:
    """The same document laid out for a terminal."""
    out = [f"Records: {doc['season'] or 'all seasons'}", "", "Champions"]
    for c in doc["champions"]:
        how = {"playoffs": "playoff winner", "first_place": "first, no playoff"}.get(c["how"], "-")
        out.append(f"  {c['league']} · {c['season']}: {c['team'] or '-'} ({how})")
    out += [f"  {line}" for line in doc["honours"]]
    king = ", ".join(f"{k['name']} ({k['given']})" for k in doc["skunk_king"]) or "-"
    out += ["", f"Skunk King: {king}", "Skunks given/taken (doubles given)"]
    for kind in ("players", "teams"):
        out.append(f"  {kind}:")
        for x in doc["skunks"][kind]:
            out.append(f"    {x['name']}: {x['given']}/{x['taken']} ({x['doubles_given']})")
    out += ["", "Longest winning streaks"]
    titles = {"players": "games, players", "teams": "games, teams", "weeks": "weeks, teams"}
    for key, title in titles.items():
        out.append(f"  {title}:")
        for s in doc["streaks"][key]:
            span = f"game {s['from']['game']} to game {s['to']['game']}"
            out.append(f"    {s['name']}: {s['length']} ({span})")
    out += ["", "Milestones (latest first)"]
    for m in doc["milestones"]:
        out.append(f"  {m['player']}: {m['at']} {m['kind']} in game {m['game']} ({m['date']})")
    out += ["", "Special hands"]
    for h in doc["special_hands"]:
        crib = " crib" if h["crib"] else ""
        cards = " ".join(h["cards"])
        out.append(
            f"  {h['points']} {'/'.join(h['kinds'])}: {h['player']}{crib}, {cards} + "
            f"{h['starter']}, game {h['game']} deal {h['deal']}"
        )
    return "\n".join(out)


class Command(BaseCommand):
    help = "Print the records (champions, skunks, streaks, milestones, special hands)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", type=int, help="one season's records (its id)")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        season = None
        if options["season"] is not None:
            season = records.public_seasons().filter(pk=options["season"]).first()
            if season is None:
                raise CommandError(f"No public season has id {options['season']}.")
        doc = records_document(season)
        if options["json"]:
            self.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(records_text(doc))
