"""The club nights' notifications (declared in ``league.kernel.notify``): the night's reminder
to its entrants, run with the league's scheduled ones, each entrant's standing when the
night ends, and the night's story to the club's members when it is closed."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.utils import timezone

from league.kernel import notify as events
from league.kernel.notify import notify, written_in_each_language
from league.kernel.recap import recap_text
from league.shared import Player
from tournaments.models import EntrantPlayer, Tournament, TournamentStage
from tournaments.recap import night_recap
from tournaments.selectors import standings_for_tournament


def _context(tournament: Tournament) -> dict[str, Any]:
    club = tournament.club_season.club if tournament.club_season else None
    return {
        "league": club.name if club else tournament.name,
        "night": tournament.name,
        "date": tournament.date,
        "venue": club.venue if club else "",
        "tournament_id": tournament.pk,
    }


def _rosters(tournaments: list[Tournament]) -> dict[int, dict[int, list[int]]]:
    """Tournament id -> entrant id -> its players' ids (one query)."""
    rosters: dict[int, dict[int, list[int]]] = {}
    rows = EntrantPlayer.objects.filter(entrant__tournament__in=tournaments).values_list(
        "entrant__tournament_id", "entrant_id", "player_id"
    )
    for tournament_id, entrant_id, player_id in rows:
        rosters.setdefault(tournament_id, {}).setdefault(entrant_id, []).append(player_id)
    return rosters


def club_night_reminders(now: datetime) -> int:
    """The reminder of every night from today to ``PEGBOARD_REMINDER_HOURS`` ahead, to its
    entrants' players (keyed by the night and its date: a night moved is reminded again)."""
    today = timezone.localdate(now)
    until = timezone.localdate(now + timedelta(hours=settings.PEGBOARD_REMINDER_HOURS))
    nights = list(
        Tournament.objects.filter(date__gte=today, date__lte=until)
        .exclude(stage=TournamentStage.FINISHED)
        .select_related("club_season__club")
    )
    rosters = _rosters(nights)
    for night in nights:
        players = [p for roster in rosters.get(night.pk, {}).values() for p in roster]
        notify(
            events.CLUB_NIGHT_REMINDER,
            players,
            _context(night),
            key=f"tournament:{night.pk}:{night.date}",
        )
    return len(nights)


def notify_club_night_standing(tournament: Tournament) -> None:
    """The night is over: each entrant's players hear where it finished (its rank in the
    night's standings) and its points."""
    tournament = Tournament.objects.select_related("club_season__club").get(pk=tournament.pk)
    standings = standings_for_tournament(tournament)["standings"]
    by_name = {row["entrant"]: row for row in standings}
    entrants = dict(tournament.entrants.values_list("pk", "name"))
    roster = _rosters([tournament]).get(tournament.pk, {})
    for entrant_id, players in roster.items():
        row = by_name.get(entrants.get(entrant_id))
        if row is None:
            continue
        notify(
            events.CLUB_NIGHT_STANDING,
            players,
            {
                **_context(tournament),
                "entrant": row["entrant"],
                "place": row["rank"],
                "of": len(standings),
                "points": row["game_points"],
            },
            key=f"tournament:{tournament.pk}:entrant:{entrant_id}",
        )


def notify_night_story(tournament: Tournament) -> bool:
    """The night is closed: where its club sends its nights' story (``Club.send_night_story``),
    tell the club's members who have an account the night's story, its text written in every
    language now and said in each reader's. Each member hears it once however often this runs
    (the deliveries' keys); a member who turned the stories off is recorded as not told.
    Returns whether it was sent."""
    club = tournament.club or (tournament.club_season.club if tournament.club_season else None)
    if club is None or not club.send_night_story:
        return False
    members = list(
        Player.objects.filter(clubs=club, user__isnull=False).values_list("pk", flat=True)
    )
    if not members:
        return False
    recap = night_recap(tournament)
    notify(
        events.CLUB_NIGHT_STORY,
        members,
        {
            "league": club.name,
            "night": tournament.name,
            "tournament_id": tournament.pk,
            "story": written_in_each_language(partial(recap_text, recap)),
        },
        key=f"tournament:{tournament.pk}",
    )
    return True


def club_night_calendar(player_ids: set[int]) -> list[dict[str, Any]]:
    """The dated nights these players are entered in, as calendar items (one query)."""
    from urllib.parse import urlsplit

    from django.urls import reverse

    host = urlsplit(settings.PEGBOARD_SITE_URL).hostname or "pegboard"
    nights = (
        Tournament.objects.filter(entrants__roster__player__in=player_ids, date__isnull=False)
        .select_related("club_season__club")
        .distinct()
    )
    items = []
    for night in nights:
        club = night.club_season.club if night.club_season else None
        items.append(
            {
                "uid": f"tournament-{night.pk}@{host}",
                "data": {
                    "summary": night.name,
                    "league": club.name if club else "",
                    "date": night.date.isoformat() if night.date else "",
                    "venue": club.venue if club else "",
                    "time_zone": settings.TIME_ZONE,
                    "path": reverse("tournaments:tournament", args=[night.pk]),
                },
            }
        )
    return items
