"""The season's whole schedule as plain rows, for the API (``/api/seasons/<id>/schedule/``).

A season of 1,024 teams has 5,120 matches: built through nested serializers they took about
half a second; here they are two queries of values joined in Python, in exactly the shape
``league.api.serializers.ScheduleWeekSerializer`` documents (a test holds the two together).
"""

from __future__ import annotations

from typing import Any

from league.models import Match, Season, Week

# A match in a list (the schedule here, the API's match lists): each field and the column it is
# read from. The API's serializers take their fields from here.
MATCH_COLUMNS = {
    "id": "id",
    "table": "table",
    "home": "home_id",
    "home_name": "home__name",
    "away": "away_id",
    "away_name": "away__name",
    "playoff_round": "playoff_round",
    "playoff_slot": "playoff_slot",
}
MATCH_FIELDS = tuple(MATCH_COLUMNS)


def season_schedule(season: Season) -> list[dict[str, Any]]:
    """Every week of ``season`` by number, each with its matches by table."""
    weeks = Week.objects.filter(season=season).order_by("number", "pk")
    by_week: dict[int, list[dict[str, Any]]] = {}
    rows = (
        Match.objects.filter(week__season=season)
        .order_by("week_id", "table", "pk")
        .values_list("week_id", *MATCH_COLUMNS.values())
    )
    for week_id, *values in rows:
        by_week.setdefault(week_id, []).append(dict(zip(MATCH_FIELDS, values, strict=True)))
    return [
        {
            "id": week_id,
            "season": season.pk,
            "number": number,
            "date": date.isoformat() if date is not None else None,
            "venue": venue,
            "is_playoff": is_playoff,
            "matches": by_week.get(week_id, []),
        }
        for week_id, number, date, venue, is_playoff in weeks.values_list(
            "id", "number", "date", "venue__name", "is_playoff"
        )
    ]
