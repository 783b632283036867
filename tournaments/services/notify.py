"""The club nights' notifications (declared in ``tournaments.notify_events``): the night's reminder
to its entrants, run with the league's scheduled ones, each entrant's standing when the
night ends, the night's story to the club's members when it is closed, and ACC Rule 12.2(i)'s
"your scorecard was changed" to the qualifiers a ruling changed."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from league.kernel.notify import notify, notify_each, said, written_in_each_language
from league.kernel.recap import recap_text
from league.shared import Player
from tournaments import notify_events as events
from tournaments.models import Entrant, EntrantPlayer, TableGame, Tournament, TournamentStage
from tournaments.recap import night_recap
from tournaments.selectors import standings_for_tournament


def notify_acc_card_changed(
    game: TableGame, changed: list[tuple[Entrant, Any]], *, clause: str
) -> None:
    """12.2(i): each apparent qualifier whose card the ruling changed (``changed``: the entrant
    and its resolved figure, a ``contest.crosscheck.Outcome``) hears what its card now says,
    after commit (one query: the entrants' players). Keyed by the table and the ruling's
    clause, so a ruling undone and made again the same way is not told twice."""
    tournament = game.round.tournament
    rows = EntrantPlayer.objects.filter(entrant__in=[e.pk for e, _o in changed]).values_list(
        "entrant_id", "player_id"
    )
    players: dict[int, list[int]] = {}
    for entrant_id, player_id in rows:
        players.setdefault(entrant_id, []).append(player_id)
    told = []
    for entrant, outcome in changed:
        if outcome.won:
            figure = said(gettext_noop("won by %(n)s"), n=outcome.spread)
        else:
            figure = said(gettext_noop("lost by %(n)s"), n=outcome.spread)
        context = {
            "league": tournament.name,
            "table": game.table,
            "round": game.round.number,
            "clause": clause,
            "entrant": entrant.name,
            "figure": figure,
            "game_id": game.pk,
        }
        told.append(
            (players.get(entrant.pk, []), context, f"table:{game.pk}:acc:{clause}:{entrant.pk}")
        )
    notify_each(events.ACC_CARD_CHANGED, told)


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
    told = []
    for entrant_id, players in roster.items():
        row = by_name.get(entrants.get(entrant_id))
        if row is None:
            continue
        context = {
            **_context(tournament),
            "entrant": row["entrant"],
            "place": row["rank"],
            "of": len(standings),
            "points": row["game_points"],
        }
        told.append((players, context, f"tournament:{tournament.pk}:entrant:{entrant_id}"))
    notify_each(events.CLUB_NIGHT_STANDING, told)


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
