"""Calendar feeds (iCalendar, RFC 5545) at secret addresses: a player's matches and club
nights, a team's matches, a season's. Each match is one VEVENT with a stable UID; whenever what
it says changes (its night, venue, table, teams) its SEQUENCE goes up and LAST-MODIFIED moves,
so a phone's calendar moves the event by itself; a match taken off the schedule stays in the
feed with STATUS:CANCELLED, its reason in DESCRIPTION. Times are the venue's
(``Venue.time_zone``, else its league's ``League.time_zone``, else ``TIME_ZONE``),
from ``PEGBOARD_NIGHT_STARTS`` for ``PEGBOARD_NIGHT_HOURS``.

Reading a feed brings the stored entries up to date first (``calendar_sync``), so every way a
match changes (a move, a new schedule, a deleted week) shows, whichever door made it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import NotAllowed
from league.kernel.notify import CALENDAR_SOURCES, site_url
from league.kernel.permissions import Action, Actor, can
from league.models import (
    CalendarEntry,
    CalendarFeed,
    Match,
    NotifyProfile,
    Player,
    Season,
    SeasonState,
    Team,
)
from league.models.calendars import feed_token


def _host() -> str:
    return urlsplit(settings.PEGBOARD_SITE_URL).hostname or "pegboard"


def _zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return settings.TIME_ZONE
    return name


def match_data(match: Match) -> dict[str, Any] | None:
    """What a match's event says (None for a match with no night yet)."""
    week = match.week
    when = match.when
    if when is None:
        return None
    venue = week.venue
    forfeit = next((f for f in match.forfeits.all() if f.undone_at is None), None)
    return {
        "home": match.home.name,
        "away": match.away.name,
        "league": week.season.league.name,
        "season": week.season.name,
        "week": week.number,
        "date": when.isoformat(),
        "venue": venue.name if venue else "",
        "address": venue.address if venue else "",
        # The venue's zone, else its league's, else the site's.
        "time_zone": _zone(
            (venue.time_zone if venue else "") or week.season.league.time_zone or settings.TIME_ZONE
        ),
        "table": match.table,
        "path": reverse("league:match", args=[match.pk]),
        # Not played that night: the whole night is cancelled, or the match forfeited.
        "off": bool(week.cancelled_reason) or forfeit is not None,
        # Why not, said in the event's description in the reader's language.
        "cancelled": week.cancelled_reason,
        "forfeited_by": forfeit.team.name if forfeit is not None else "",
        "forfeit_reason": forfeit.reason if forfeit is not None else "",
    }


# --- Keeping the entries ------------------------------------------------------------------------


def calendar_sync(*, seasons: Iterable[int] = (), teams: Iterable[int] = ()) -> list[CalendarEntry]:
    """Bring the entries of these seasons' and teams' matches up to date, and return them:
    a new match gets its entry, a changed one a higher sequence, a vanished one is cancelled."""
    season_ids, team_ids = set(seasons), set(teams)
    in_scope = Q(week__season__in=season_ids) | Q(home__in=team_ids) | Q(away__in=team_ids)
    matches = list(
        Match.objects.filter(in_scope)
        .exclude(week__season__state=SeasonState.DRAFT)  # a draft is the organiser's alone
        .select_related("week__season__league", "week__venue", "home", "away")
        .prefetch_related("forfeits__team")
    )
    entry_scope = Q(season__in=season_ids) | Q(home__in=team_ids) | Q(away__in=team_ids)
    with transaction.atomic():
        entries = {e.uid: e for e in CalendarEntry.objects.select_for_update().filter(entry_scope)}
        now = timezone.now()
        new: list[CalendarEntry] = []
        changed: list[CalendarEntry] = []
        seen: set[str] = set()
        for match in matches:
            data = match_data(match)
            if data is None:
                continue
            uid = f"match-{match.pk}@{_host()}"
            seen.add(uid)
            entry = entries.get(uid)
            if entry is None:
                new.append(
                    CalendarEntry(
                        uid=uid,
                        match=match,
                        season_id=match.week.season_id,
                        home_id=match.home_id,
                        away_id=match.away_id,
                        data=data,
                        cancelled=data["off"],
                        modified_at=now,
                    )
                )
            elif entry.data != data or entry.cancelled != data["off"]:
                entry.data, entry.cancelled = data, data["off"]
                entry.home_id, entry.away_id = match.home_id, match.away_id
                entry.sequence += 1
                entry.modified_at = now
                changed.append(entry)
        for uid, entry in entries.items():
            if uid not in seen and not entry.cancelled and entry.match_id is None:
                entry.cancelled = True
                entry.sequence += 1
                entry.modified_at = now
                changed.append(entry)
        CalendarEntry.objects.bulk_create(new, ignore_conflicts=True)
        CalendarEntry.objects.bulk_update(
            changed, ["data", "cancelled", "home", "away", "sequence", "modified_at"]
        )
    return list(
        CalendarEntry.objects.filter(entry_scope)
        .exclude(season__state=SeasonState.DRAFT)
        .order_by("data__date", "uid")
    )


def club_entries(player_ids: set[int]) -> list[CalendarEntry]:
    """The other app's events (club nights), kept as entries the same way (no cancellation:
    a night is kept, and its sequence moves when it changes)."""
    items = [item for source in CALENDAR_SOURCES.values() for item in source(player_ids)]
    if not items:
        return []
    now = timezone.now()
    with transaction.atomic():
        entries = {
            e.uid: e
            for e in CalendarEntry.objects.select_for_update().filter(
                uid__in=[i["uid"] for i in items]
            )
        }
        new, changed = [], []
        for item in items:
            entry = entries.get(item["uid"])
            if entry is None:
                new.append(CalendarEntry(uid=item["uid"], data=item["data"], modified_at=now))
            elif entry.data != item["data"]:
                entry.data, entry.modified_at = item["data"], now
                entry.sequence += 1
                changed.append(entry)
        CalendarEntry.objects.bulk_create(new, ignore_conflicts=True)
        CalendarEntry.objects.bulk_update(changed, ["data", "sequence", "modified_at"])
    return list(CalendarEntry.objects.filter(uid__in=[i["uid"] for i in items]))


# --- The feeds ----------------------------------------------------------------------------------


def _owner_refusal(user: Actor, feed: CalendarFeed) -> NotAllowed | None:
    user_id = getattr(user, "pk", None)
    if feed.player_id is not None:
        if user_id is not None and feed.player is not None and feed.player.user_id == user_id:
            return None
        return NotAllowed(_("Only the player can see or reset their own calendar address."))
    if feed.team_id is not None:
        if user_id is not None and Player.objects.filter(teams=feed.team_id, user=user_id).exists():
            return None
        return NotAllowed(_("Only the team's players can see or reset its calendar address."))
    if can(user, Action.MANAGE_LEAGUE):
        return None
    return NotAllowed(_("Only a league admin can see or reset a season's calendar address."))


def calendar_feed_of(
    *,
    user: Actor,
    player: Player | None = None,
    team: Team | None = None,
    season: Season | None = None,
) -> CalendarFeed:
    """The feed of one player, team or season (made on first ask), for its owner only."""
    feed = CalendarFeed.objects.filter(player=player, team=team, season=season).first()
    if feed is None:
        feed = CalendarFeed(player=player, team=team, season=season)
    refused = _owner_refusal(user, feed)
    if refused is not None:
        raise refused
    if feed.pk is None:
        feed, _created = CalendarFeed.objects.get_or_create(player=player, team=team, season=season)
    return feed


def calendar_feed_reset(*, user: Actor, feed: CalendarFeed) -> CalendarFeed:
    """A new secret address; the old one answers 404 from now on."""
    refused = _owner_refusal(user, feed)
    if refused is not None:
        raise refused
    with transaction.atomic():
        feed.token = feed_token()
        feed.save(update_fields=["token"])
        audit_log(
            actor=user,
            action=AuditAction.CALENDAR_RESET,
            obj=feed.season or feed.team or feed.player,
            after={"feed": "season" if feed.season_id else "team" if feed.team_id else "player"},
        )
    return feed


def feed_urls(feed: CalendarFeed) -> dict[str, str]:
    https = site_url(reverse("league:calendar_feed", args=[feed.token]))
    return {"https": https, "webcal": "webcal://" + https.split("://", 1)[1]}


def calendar_document(token: str) -> bytes | None:
    """The feed at ``token`` as iCalendar text, or None when no feed has that token."""
    feed = (
        CalendarFeed.objects.select_related("player", "team__season__league", "season__league")
        .filter(token=token)
        .first()
    )
    if feed is None:
        return None
    owner = feed.season or (feed.team.season if feed.team is not None else None)
    if owner is not None and owner.state == SeasonState.DRAFT:
        return None  # a feed made while published: its season went back to draft, its own now
    language = settings.LANGUAGE_CODE
    if feed.player is not None:
        profile = NotifyProfile.objects.filter(player=feed.player).first()
        language = profile.language if profile else language
        teams = set(feed.player.teams.values_list("pk", flat=True))
        entries = calendar_sync(teams=teams) + club_entries({feed.player.pk})
        name = feed.player.name
    elif feed.team is not None:
        entries = calendar_sync(teams={feed.team.pk})
        name = f"{feed.team.name} ({feed.team.season})"
    else:
        assert feed.season is not None
        entries = calendar_sync(seasons={feed.season.pk})
        name = str(feed.season)
    with translation.override(language):
        return _ical(name, entries)


def _ical(name: str, entries: list[CalendarEntry]) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//Pegboard//Cribbage leagues//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", f"Pegboard: {name}")
    cal.add("refresh-interval", timedelta(hours=6), parameters={"VALUE": "DURATION"})
    for entry in entries:
        cal.add_component(_vevent(entry))
    cal.add_missing_timezones()
    return cal.to_ical()


def _vevent(entry: CalendarEntry) -> Event:
    data = entry.data
    zone = ZoneInfo(_zone(data.get("time_zone", settings.TIME_ZONE)))
    starts = datetime.combine(
        date.fromisoformat(data["date"]), time.fromisoformat(settings.PEGBOARD_NIGHT_STARTS)
    ).replace(tzinfo=zone)
    event = Event()
    event.add("uid", entry.uid)
    event.add("dtstamp", entry.modified_at)
    event.add("last-modified", entry.modified_at)
    event.add("created", entry.created_at)
    event.add("sequence", entry.sequence)
    event.add("dtstart", starts)
    event.add("dtend", starts + timedelta(hours=settings.PEGBOARD_NIGHT_HOURS))
    if "summary" in data:
        summary = data["summary"]
    else:
        summary = _("%(home)s v %(away)s") % data
    event.add("summary", summary)
    where = ", ".join(part for part in (data.get("venue"), data.get("address")) if part)
    if data.get("table"):
        table = _("table %(table)s") % data
        where = f"{where} ({table})" if where else table
    if where:
        event.add("location", where)
    lines = []
    if data.get("league"):
        lines.append(f"{data['league']}: {data.get('season', '')}".strip(": "))
    if data.get("cancelled"):
        lines.append(_("Cancelled: %(why)s") % {"why": data["cancelled"]})
    elif data.get("forfeited_by"):
        lines.append(
            _("Forfeited by %(team)s: %(why)s")
            % {"team": data["forfeited_by"], "why": data.get("forfeit_reason") or "-"}
        )
    if lines:
        event.add("description", "\n".join(lines))
    event.add("url", site_url(data["path"]))
    event.add("status", "CANCELLED" if entry.cancelled else "CONFIRMED")
    return event


def calendar_feeds_of_player(*, user: Actor, player: Player) -> list[tuple[str, CalendarFeed]]:
    """The player's own feed and one per team of theirs in a current season, named, for the
    player's page (made on first ask; three queries once they exist)."""
    if getattr(user, "pk", None) is None or player.user_id != user.pk:
        raise NotAllowed(_("Only the player can see or reset their own calendar address."))
    teams = list(player.teams.select_related("season").filter(season__state=SeasonState.PUBLISHED))
    wanted = [CalendarFeed(player=player)] + [CalendarFeed(team=team) for team in teams]

    def stored() -> dict[tuple[int | None, int | None], CalendarFeed]:
        rows = CalendarFeed.objects.filter(Q(player=player) | Q(team__in=teams))
        return {(f.player_id, f.team_id): f for f in rows}

    feeds = stored()
    if len(feeds) < len(wanted):
        CalendarFeed.objects.bulk_create(
            [f for f in wanted if (f.player_id, f.team_id) not in feeds], ignore_conflicts=True
        )
        feeds = stored()
    named = [(player.name, feeds[(player.pk, None)])]
    named += [(f"{team.name} ({team.season.name})", feeds[(None, team.pk)]) for team in teams]
    return named
