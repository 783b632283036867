"""The tournaments' part of the league's roll of honour (``/records/honours/`` and
``manage.py records``, through ``league.kernel.extensions.add_honours``): every finished
event's winner, grouped by club season, and who leads each club season's table. A selector:
it reads only."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from league.shared import Player
from tournaments import logic
from tournaments.models import ClubSeason, Tournament, TournamentStage
from tournaments.selectors import Night, night_points, nights_of


def night_winner(night: Night) -> dict[str, Any] | None:
    """``{"names": [...], "how": "playoffs" | "first_place"}``: the bracket's champion, or,
    for an event with no playoff, whoever is first in its standings (all of them if level)."""
    if night.champion:
        return {"names": [night.champion], "how": "playoffs"}
    first = [s.record.entrant for s in night.standings["ranked"] if s.rank == 1]
    return {"names": first, "how": "first_place"} if first else None


def club_honours() -> dict[str, Any] | None:
    """The finished events newest first, each with its winner, grouped by club season (events
    of no club season last), and each club season's leaders: seven queries in all, or one when
    no event is finished (then no section)."""
    events = list(
        Tournament.objects.filter(stage=TournamentStage.FINISHED)
        .select_related("club_season__club")
        .order_by("-date", "-pk")
    )
    if not events:
        return None
    nights = nights_of(events)
    seasons: dict[int, dict[str, Any]] = {}
    others = []
    points: dict[int, list[dict[int, int]]] = {}
    for night in nights:
        row = {"tournament": night.tournament, "winner": night_winner(night)}
        club_season: ClubSeason | None = night.tournament.club_season
        if club_season is None:
            others.append(row)
            continue
        entry = seasons.setdefault(
            club_season.pk, {"season": club_season, "nights": [], "leaders": []}
        )
        entry["nights"].append(row)
        points.setdefault(club_season.pk, []).append(night_points(club_season, night))
    ids = {pk for per in points.values() for night in per for pk in night}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    for pk, per_night in points.items():
        table = logic.season_table(per_night, names)
        seasons[pk]["leaders"] = [r for r in table if r.rank == 1]
    return {"club_seasons": list(seasons.values()), "others": others}


def honours_lines(context: dict[str, Any]) -> list[str]:
    """The same, in plain text for ``manage.py records``."""

    def won(row: dict[str, Any]) -> str:
        winner = row["winner"]
        if winner is None:
            return f"  {row['tournament'].name}: -"
        how = _("playoff winner") if winner["how"] == "playoffs" else _("first, no playoff")
        return f"  {row['tournament'].name}: {', '.join(winner['names'])} ({how})"

    lines = []
    for entry in context["club_seasons"]:
        season = entry["season"]
        leaders = ", ".join(f"{r.name} ({r.total})" for r in entry["leaders"]) or "-"
        leads = _("leads")
        lines.append(f"{season.club.name} · {season.name}: {leads} {leaders}")
        lines += [won(row) for row in entry["nights"]]
    if context["others"]:
        lines.append(_("Other events"))
        lines += [won(row) for row in context["others"]]
    return lines
