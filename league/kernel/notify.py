"""Telling players about their nights, for both competitions: every event declared once (its
category, who hears it, its words in each language, its link), and one call to send it.

``notify(event, recipients, context, key=...)`` is called inside the writing transaction; after
commit it queues ``league.tasks.notify_send``, which calls ``deliver``. Its guarantees:

- **Once per event and person.** Each message is a ``Delivery`` row whose unique ``key`` is the
  event, what it is about (``key``), the player and the channel. A second send of the same
  event (a retried task, a second beat run, two workers) finds the row and sends nothing again.
  A row is claimed (``pending``/``failed`` -> ``sending``) by one statement before it is sent,
  so two workers never both send it.
- **In the player's language.** The words are rendered when the message goes, in the
  language of the player's ``NotifyProfile`` (the site's default otherwise); dates in
  ``Event.dates`` are formatted for that language.
- **As the player chose.** A category and channel the player turned off is recorded as not
  sent ("turned off"), as is a player with no email address: the organiser's log says who was
  not told and why.
- **Retried on failure.** A send that fails is marked ``failed`` and tried again (the task's
  retry, and beat's ``notify_retry_failed``) up to ``MAX_ATTEMPTS`` times; only failed rows are
  tried again.
- **Recorded.** Every row says who was told what (the subject in their language) and when.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.kernel import stored_texts
from league.kernel.push import Pusher, vapid_pair
from league.kernel.queue import queue_task
from league.models import (
    Category,
    Channel,
    Delivery,
    DeliveryStatus,
    Game,
    GameStatus,
    NotifyChoice,
    Player,
    PushSubscription,
    Season,
    SeasonState,
)

log = logging.getLogger(__name__)

SEND_TASK = "league.tasks.notify_send"
MAX_ATTEMPTS = 5
UNSUBSCRIBE_SALT = "pegboard.notify.unsubscribe"


@dataclass(frozen=True)
class Event:
    """One kind of message. ``subject`` and ``body`` are filled from the context with
    ``%(name)s``; the subject is prefixed with the league's (or club's) name, ``context["league"]``.
    ``link`` is a URL name reversed with ``context[link_arg]`` (the page the message opens)."""

    code: str
    category: Category
    audience: Promise
    subject: Promise
    body: Promise
    link: str
    link_arg: str | None = None
    dates: tuple[str, ...] = ()
    times: tuple[str, ...] = ()
    keys: tuple[str, ...] = field(default=())
    # Whether the message still says something true when it goes (checked once per send, after
    # commit): a game confirmed before its "waits for you" left needs no mail.
    still_due: Callable[[Mapping[str, Any]], bool] | None = None


EVENTS: dict[str, Event] = {}


def declare(event: Event) -> Event:
    assert event.code not in EVENTS, f"{event.code} is declared twice"
    EVENTS[event.code] = event
    return event


# --- The events --------------------------------------------------------------------------------
# Each is sent by one trigger function: league/services/notify.py for the league's,
# tournaments/services/notify.py for the club nights'.

NIGHT_REMINDER = declare(
    Event(
        code="night_reminder",
        category=Category.REMINDERS,
        audience=_("the players of both teams of the match"),
        subject=_("You play on %(date)s: %(team)s v %(opponent)s"),
        body=_(
            "%(team)s plays %(opponent)s on %(date)s, starting at %(starts)s.\n"
            "Where: %(venue)s, table %(table)s.\n"
            "The match page has the games as they are entered."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "venue", "table", "match_id", "starts"),
    )
)


def _game_waits(context: Mapping[str, Any]) -> bool:
    game_id = context.get("game_id")
    if not isinstance(game_id, int):
        return False
    return Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).exists()


RESULT_TO_CONFIRM = declare(
    Event(
        code="result_to_confirm",
        category=Category.RESULTS,
        audience=_("the players of the team that has not confirmed the finished game"),
        subject=_("A result waits for your confirmation: %(game)s"),
        body=_(
            "%(game)s is over: %(score)s.\n"
            "It counts once your team confirms it. If a number is wrong, dispute it from the "
            "game's page instead."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_LAST_REMINDER = declare(
    Event(
        code="result_last_reminder",
        category=Category.RESULTS,
        audience=_("the players of the team that still has not confirmed a finished game"),
        subject=_("Last reminder: confirm %(game)s"),
        body=_(
            "%(game)s finished %(hours)s hours ago (%(score)s) and your team has not confirmed "
            "it yet. It does not count in the standings until it is confirmed or disputed."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "hours", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_CLOSING_SOON = declare(
    Event(
        code="result_closing_soon",
        category=Category.RESULTS,
        audience=_("the players of the team that still has not confirmed a finished game"),
        subject=_("Last call: %(game)s closes on %(closes)s"),
        body=_(
            "%(game)s is over (%(score)s) and your team has not confirmed it yet. The league "
            "confirms it as it stands on %(closes)s unless your team confirms it or disputes it "
            "from the game's page before then."
        ),
        link="league:game",
        link_arg="game_id",
        times=("closes",),
        keys=("game", "score", "closes", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_CLOSED = declare(
    Event(
        code="result_closed",
        category=Category.RESULTS,
        audience=_("the players of both teams of the game"),
        subject=_("Closed by the league: %(game)s"),
        body=_(
            "Nobody confirmed or disputed %(game)s within %(hours)s hours, so the league "
            "confirmed it as it was entered: %(score)s. It now counts in the standings."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "hours", "game_id"),
    )
)
FORFEIT_RECORDED = declare(
    Event(
        code="forfeit_recorded",
        category=Category.RESULTS,
        audience=_("the players of both teams of the match"),
        subject=_("Forfeit: %(forfeiter)s forfeits %(team)s v %(opponent)s"),
        body=_(
            "%(forfeiter)s forfeits the match %(team)s v %(opponent)s of %(date)s: the games "
            "not played go to the other team.\nWhy: %(reason)s"
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "forfeiter", "reason", "match_id"),
    )
)
FORFEIT_UNDONE = declare(
    Event(
        code="forfeit_undone",
        category=Category.RESULTS,
        audience=_("the players of both teams of the match"),
        subject=_("Forfeit undone: %(team)s v %(opponent)s"),
        body=_(
            "The forfeit of %(team)s v %(opponent)s of %(date)s is undone: the games it gave "
            "count no more and can be played.\nWhy: %(reason)s"
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "reason", "match_id"),
    )
)
DISPUTE_RAISED = declare(
    Event(
        code="dispute_raised",
        category=Category.DISPUTES,
        audience=_("the players of both teams of the game"),
        subject=_("Dispute raised: %(game)s"),
        body=_("A dispute was raised on %(game)s:\n\n%(claim)s\n\nA judge will look at it."),
        link="league:game",
        link_arg="game_id",
        keys=("game", "claim", "game_id"),
    )
)
DISPUTE_RULED = declare(
    Event(
        code="dispute_ruled",
        category=Category.DISPUTES,
        audience=_("the players of both teams of the game"),
        subject=_("Dispute ruled: %(game)s"),
        body=_("The judge ruled (%(status)s, rule %(rule)s):\n\n%(ruling)s"),
        link="league:game",
        link_arg="game_id",
        keys=("game", "status", "rule", "ruling", "game_id"),
    )
)
PLAYOFFS_DRAWN = declare(
    Event(
        code="playoffs_drawn",
        category=Category.PLAYOFFS,
        audience=_("every player of the season"),
        subject=_("The playoffs are drawn: %(season)s"),
        body=_("The playoffs of %(season)s are drawn. The bracket shows who plays whom."),
        link="league:seeding",
        link_arg="season_id",
        keys=("season",),
    )
)
PLAYOFF_MATCH = declare(
    Event(
        code="playoff_match",
        category=Category.PLAYOFFS,
        audience=_("the players of both teams of the playoff match"),
        subject=_("Your playoff match: %(team)s v %(opponent)s"),
        body=_("Playoff round %(round)s: %(team)s plays %(opponent)s at table %(table)s."),
        link="league:match",
        link_arg="match_id",
        keys=("team", "opponent", "round", "table", "match_id"),
    )
)
ANNOUNCEMENT = declare(
    Event(
        code="announcement",
        category=Category.ANNOUNCEMENTS,
        audience=_("every player of the season"),
        subject=_("A word from the organiser: %(season)s"),
        body=_("%(text)s"),
        link="league:home",
        keys=("season", "text"),
    )
)
# Declared for the triggers another part of Pegboard makes (moving, postponing and cancelling a
# night or a match; asking for a sub): league/services/notify.py has the call each one makes.
MATCH_MOVED = declare(
    Event(
        code="match_moved",
        category=Category.CHANGES,
        audience=_("the players of both teams of the match"),
        subject=_("Moved: %(team)s v %(opponent)s is now on %(date)s"),
        body=_(
            "%(team)s v %(opponent)s has moved from %(was)s to %(date)s.\n"
            "Where: %(venue)s, table %(table)s."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date", "was"),
        keys=("team", "opponent", "venue", "table", "match_id"),
    )
)
MATCH_POSTPONED = declare(
    Event(
        code="match_postponed",
        category=Category.CHANGES,
        audience=_("the players of both teams of the match"),
        subject=_("Postponed: %(team)s v %(opponent)s"),
        body=_(
            "%(team)s v %(opponent)s, planned for %(was)s, is postponed: it is now played on "
            "%(date)s.\nWhere: %(venue)s, table %(table)s."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date", "was"),
        keys=("team", "opponent", "match_id"),
    )
)
MATCH_CANCELLED = declare(
    Event(
        code="match_cancelled",
        category=Category.CHANGES,
        audience=_("the players of both teams of the match"),
        subject=_("Cancelled: %(team)s v %(opponent)s on %(was)s"),
        body=_("%(team)s v %(opponent)s on %(was)s is cancelled."),
        link="league:match",
        link_arg="match_id",
        dates=("was",),
        keys=("team", "opponent", "match_id"),
    )
)
NIGHT_CANCELLED = declare(
    Event(
        code="night_cancelled",
        category=Category.CHANGES,
        audience=_("every player with a match that night"),
        subject=_("No cribbage on %(was)s"),
        body=_("Week %(week)s of %(season)s, on %(was)s, is cancelled."),
        link="league:schedule",
        link_arg="season_id",
        dates=("was",),
        keys=("week", "season"),
    )
)
SUB_ASKED = declare(
    Event(
        code="sub_asked",
        category=Category.SUBS,
        audience=_("the players on the season's sub list"),
        subject=_("A sub is wanted on %(date)s"),
        body=_(
            "%(team)s needs a sub against %(opponent)s on %(date)s (%(venue)s). "
            "Answer the captain, %(captain)s, if you can play."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "venue", "captain", "match_id"),
    )
)
WEEK_STORY = declare(
    Event(
        code="week_story",
        category=Category.STORIES,
        audience=_("every player of the season, where the season sends the week's story"),
        subject=_("The week's story: %(season)s, week %(week)s"),
        body=_("%(story)s"),
        link="league:week_recap",
        link_arg="week_id",
        keys=("season", "week", "story", "week_id"),
    )
)
CLUB_NIGHT_REMINDER = declare(
    Event(
        code="club_night_reminder",
        category=Category.REMINDERS,
        audience=_("the players entered in the club night"),
        subject=_("Club night on %(date)s: %(night)s"),
        body=_("You are entered in %(night)s on %(date)s. Where: %(venue)s."),
        link="tournaments:tournament",
        link_arg="tournament_id",
        dates=("date",),
        keys=("night", "venue", "tournament_id"),
    )
)
CLUB_NIGHT_STANDING = declare(
    Event(
        code="club_night_standing",
        category=Category.RESULTS,
        audience=_("the players entered in the club night"),
        subject=_("%(night)s: you finished %(place)s of %(of)s"),
        body=_(
            "%(night)s is over. %(entrant)s finished %(place)s of %(of)s with %(points)s points."
        ),
        link="tournaments:tournament",
        link_arg="tournament_id",
        keys=("night", "entrant", "place", "of", "points", "tournament_id"),
    )
)
CLUB_NIGHT_STORY = declare(
    Event(
        code="club_night_story",
        category=Category.STORIES,
        audience=_("the club's members with an account, where the club sends its nights' story"),
        subject=_("The night's story: %(night)s"),
        body=_("%(story)s"),
        link="tournaments:recap",
        link_arg="tournament_id",
        keys=("night", "story", "tournament_id"),
    )
)


# --- Scheduled events of other apps -------------------------------------------------------------
# The league's beat task (``notify_scheduled``) runs these too: the tournaments register their
# club night reminders here in their ``AppConfig.ready()`` (the league never imports them).

SCHEDULED: dict[str, Callable[[datetime], int]] = {}


def add_scheduled(name: str, due: Callable[[datetime], int]) -> None:
    """Run ``due(now)`` with the league's scheduled notifications; it returns how many things
    it told about (each sent once however often it runs)."""
    SCHEDULED[name] = due


# Calendar events of other apps (the club nights a player is entered in): each source returns,
# for a set of player ids, items ``{"uid", "data"}`` with ``data`` as the league's entries hold
# it (``summary``, ``date``, ``venue``, ``time_zone``, ``path``; ``table`` optional).
CALENDAR_SOURCES: dict[str, Callable[[set[int]], list[dict[str, Any]]]] = {}


def add_calendar_source(name: str, items: Callable[[set[int]], list[dict[str, Any]]]) -> None:
    CALENDAR_SOURCES[name] = items


# A link a message carries for its one reader: the league's night reminder carries the player's
# signed "are you coming?" page (``league.services.availability``), registered by the league's
# ``AppConfig.ready()``. ``links(row)`` returns the page's address, or "" for none.
PERSONAL_LINKS: dict[str, Callable[[Delivery], str]] = {}


def add_personal_link(event: Event, links: Callable[[Delivery], str]) -> None:
    PERSONAL_LINKS[event.code] = links


# --- Sending -----------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Promise):
        return str(value)
    return value


def notify(
    event: Event,
    recipients: Iterable[Player | int],
    context: Mapping[str, Any],
    *,
    key: str,
) -> None:
    """Tell ``recipients`` (players or their ids) about ``event`` once the transaction commits.
    ``key`` says what it is about (``"match:12"``): the same event and key reach a player once.
    ``context`` fills the event's words (plain values; dates become ISO text here)."""
    ids = sorted({r if isinstance(r, int) else r.pk for r in recipients})
    if not ids:
        return
    payload = {name: _plain(value) for name, value in context.items()}

    def send() -> None:
        try:
            queue_task(SEND_TASK, event.code, ids, payload, key)
        except Exception:  # a broker outage must not undo the write; beat retries failures
            log.warning("could not queue %s for %s", event.code, key, exc_info=True)

    transaction.on_commit(send)


def by_language(texts: Mapping[str, str]) -> dict[str, Any]:
    """A context value already written in each of the site's languages (``texts``: language
    code -> text), said in the reader's when the message goes (the site's default otherwise)."""
    return {"_by_language": dict(texts)}


def written_in_each_language(write: Callable[[], str]) -> dict[str, Any]:
    """``by_language`` of what ``write()`` says in each of the site's languages (a story told
    once and mailed to readers of either)."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = write()
    return by_language(texts)


def said(msgid: str, **params: Any) -> dict[str, Any]:
    """A context value said in the reader's language when the message goes: ``msgid`` (marked
    with ``gettext_noop`` where it is written) filled with ``params`` (which may be ``said``
    too). ``said("%(home)s v %(away)s", home="Nobs", away="Muggins")``"""
    return {"_said": msgid, "params": {name: _plain(value) for name, value in params.items()}}


def _say(value: Any) -> Any:
    if isinstance(value, dict) and "_stored" in value:  # a text the system stored as a code
        return stored_texts.render(value["_stored"], value.get("params"), value.get("fallback", ""))
    if isinstance(value, dict) and "_by_language" in value:  # a text written in each language
        texts = value["_by_language"]
        return texts.get(translation.get_language()) or texts.get(settings.LANGUAGE_CODE, "")
    if isinstance(value, dict) and "_said" in value:
        return gettext(value["_said"]) % {
            name: _say(param) for name, param in value.get("params", {}).items()
        }
    return value


def delivery_key(event: str, key: str, player_id: int, channel: str) -> str:
    return f"{event}:{key}:{player_id}:{channel}"[:200]


def deliver(
    *, event: str, recipients: Sequence[int], context: Mapping[str, Any], key: str
) -> Counter[str]:
    """Send ``event`` to each recipient on each channel, at most once (see the module's
    docstring). Returns how many rows ended in each status this time."""
    declared = EVENTS[event]
    season_id = context.get("season_id")
    if (
        isinstance(season_id, int)
        and Season.objects.filter(pk=season_id, state=SeasonState.DRAFT).exists()
    ):
        return Counter()  # a draft is the organiser's alone: its players hear nothing of it
    pushed = _with_devices(recipients)
    rows = [
        Delivery(
            key=delivery_key(event, key, player_id, channel),
            event=event,
            category=declared.category,
            channel=channel,
            player_id=player_id,
            season_id=season_id if isinstance(season_id, int) else None,
            context=dict(context),
        )
        for player_id in recipients
        for channel in Channel
        if channel == Channel.EMAIL or player_id in pushed
    ]
    Delivery.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    claim = _claim(Delivery.objects.filter(key__in=[row.key for row in rows]))
    if declared.still_due is not None and not declared.still_due(context):
        done = Delivery.objects.filter(claim=claim, status=DeliveryStatus.SENDING).update(
            status=DeliveryStatus.SKIPPED, reason=gettext("no longer needed")
        )
        return Counter({DeliveryStatus.SKIPPED.value: done})
    return _send_claimed(claim)


def _with_devices(player_ids: Sequence[int]) -> set[int]:
    """The players with a device to push to (none when push is not configured)."""
    if vapid_pair() is None:
        return set()
    return set(
        PushSubscription.objects.filter(player_id__in=player_ids)
        .values_list("player_id", flat=True)
        .distinct()
    )


def retry_failed() -> Counter[str]:
    """Send again every failed message with attempts left (beat's safety net)."""
    return _send_claimed(_claim(Delivery.objects.filter(attempts__lt=MAX_ATTEMPTS)))


def _claim(rows: Any) -> str:
    """Mark the rows of ``rows`` that still wait (or failed) as being sent by us, in one
    statement: a row another worker claimed a moment before is not ours."""
    claim = secrets.token_hex(8)
    rows.filter(status__in=[DeliveryStatus.PENDING, DeliveryStatus.FAILED]).update(
        status=DeliveryStatus.SENDING, claim=claim, attempts=F("attempts") + 1
    )
    return claim


def _send_claimed(claim: str) -> Counter[str]:
    rows = list(
        Delivery.objects.filter(claim=claim, status=DeliveryStatus.SENDING).select_related(
            "player__user", "player__notify_profile"
        )
    )
    counts: Counter[str] = Counter()
    if not rows:
        return counts
    off = set(
        NotifyChoice.objects.filter(player_id__in={row.player_id for row in rows}).values_list(
            "player_id", "category", "channel"
        )
    )
    emails: list[tuple[Delivery, EmailMultiAlternatives]] = []
    pushes: list[Delivery] = []
    for row in rows:
        if (row.player_id, row.category, row.channel) in off:
            _skip(row, gettext("turned off by the player"))
        elif row.channel == Channel.EMAIL:
            user = row.player.user
            if user is None or not user.email:
                _skip(row, gettext("no email address"))
            else:
                emails.append((row, email_message(row, address=user.email)))
        elif row.channel == Channel.PUSH:
            pushes.append(row)
    _send_emails(emails)
    _send_pushes(pushes)
    now = timezone.now()
    for row in rows:
        if row.status == DeliveryStatus.SENT:
            row.sent_at = now
        counts[row.status] += 1
    Delivery.objects.bulk_update(rows, ["status", "reason", "subject", "sent_at"], batch_size=500)
    return counts


def _skip(row: Delivery, reason: str) -> None:
    row.status = DeliveryStatus.SKIPPED
    row.reason = reason


def _send_emails(emails: list[tuple[Delivery, EmailMultiAlternatives]]) -> None:
    """One connection for them all; a message that fails is marked failed alone."""
    if not emails:
        return
    connection = get_connection()
    try:
        connection.open()
    except Exception as exc:
        for row, _message in emails:
            _failed(row, exc)
        return
    try:
        for row, message in emails:
            message.connection = connection
            try:
                message.send()
            except Exception as exc:
                _failed(row, exc)
            else:
                row.status = DeliveryStatus.SENT
                row.reason = ""
    finally:
        connection.close()


def _send_pushes(rows: list[Delivery]) -> None:
    """Each row to every device of its player; sent if one device took it."""
    if not rows:
        return
    devices: dict[int, list[PushSubscription]] = {}
    for device in PushSubscription.objects.filter(player_id__in={r.player_id for r in rows}):
        devices.setdefault(device.player_id, []).append(device)
    pusher = Pusher()
    if pusher.vapid is None:
        for row in rows:
            _skip(row, gettext("push is not set up on this site"))
        return
    try:
        for row in rows:
            payload = push_payload(row)
            errors: list[Exception] = []
            took = 0
            for device in devices.get(row.player_id, []):
                try:
                    pusher.send(device, payload)
                except Exception as exc:
                    errors.append(exc)
                else:
                    took += device.pk not in pusher.gone
            if took:
                row.status, row.reason = DeliveryStatus.SENT, ""
            elif errors:
                _failed(row, errors[0])
            else:
                _skip(row, gettext("no device"))
    finally:
        pusher.close()


def push_payload(row: Delivery) -> dict[str, Any]:
    """What the service worker shows: the subject, the body (a phone shows its start), and
    the page a tap opens."""
    event = EVENTS[row.event]
    with translation.override(language_of(row.player)):
        subject, body = words(event, row.context)
    row.subject = subject
    return {
        "title": subject,
        "body": body[:300],
        "url": reverse(event.link, args=[row.context[event.link_arg]] if event.link_arg else []),
        "tag": f"{row.event}:{row.player_id}",
    }


def _failed(row: Delivery, exc: Exception) -> None:
    log.warning("could not send %s", row.key, exc_info=exc)
    row.status = DeliveryStatus.FAILED
    row.reason = f"{type(exc).__name__}: {exc}"[:250]


# --- The words, in the reader's language --------------------------------------------------------


def language_of(player: Player) -> str:
    profile = getattr(player, "notify_profile", None)
    return profile.language if profile is not None else settings.LANGUAGE_CODE


def site_url(path: str) -> str:
    return settings.PEGBOARD_SITE_URL.rstrip("/") + path


def link_of(event: Event, context: Mapping[str, Any]) -> str:
    args = [context[event.link_arg]] if event.link_arg else []
    return site_url(reverse(event.link, args=args))


def words(event: Event, context: Mapping[str, Any]) -> tuple[str, str]:
    """The subject and the body in the active language."""
    values: dict[str, Any] = {}
    for name, value in context.items():
        value = _say(value)
        if value in ("", None):
            value = gettext("to be announced")
        elif name in event.dates and isinstance(value, str):
            value = formats.date_format(date.fromisoformat(value), "DATE_FORMAT")
        elif name in event.times and isinstance(value, str):
            moment = timezone.localtime(datetime.fromisoformat(value))
            value = formats.date_format(moment, "DATETIME_FORMAT")
        values[name] = value
    subject = f"[{context.get('league', 'Pegboard')}] {event.subject % values}"
    return subject[:250], str(event.body % values)


def unsubscribe_token(player_id: int, category: str) -> str:
    """The signed part of a one-click unsubscribe link (the same for a player and category)."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"p": player_id, "c": category})


def unsubscribe_read(token: str) -> tuple[int, str] | None:
    """The player and category a link unsubscribes, or None for a link that is not ours."""
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    player_id, category = data.get("p"), data.get("c")
    if not isinstance(player_id, int) or category not in Category.values:
        return None
    return player_id, category


def email_message(row: Delivery, *, address: str) -> EmailMultiAlternatives:
    """The mail for one delivery: a text and an HTML part in the player's language, the
    league's name in the subject, and one-click unsubscribe headers (RFC 8058)."""
    event = EVENTS[row.event]
    language = language_of(row.player)
    with translation.override(language):
        subject, body = words(event, row.context)
        row.subject = subject
        unsubscribe = site_url(
            reverse("league:unsubscribe", args=[unsubscribe_token(row.player_id, row.category)])
        )
        page = {
            "body": body,
            "link": link_of(event, row.context),
            "player": row.player,
            "category": Category(row.category).label,
            "unsubscribe": unsubscribe,
            "choices": site_url(reverse("league:notify_choices")),
            "league": row.context.get("league", ""),
            "language": language,
            "answer": PERSONAL_LINKS[row.event](row) if row.event in PERSONAL_LINKS else "",
        }
        message = EmailMultiAlternatives(
            subject=subject,
            body=render_to_string("notify/email.txt", page),
            to=[address],
            headers={
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "List-Id": f"{row.category}.pegboard",
                "Auto-Submitted": "auto-generated",
            },
        )
        message.attach_alternative(render_to_string("notify/email.html", page), "text/html")
    return message
