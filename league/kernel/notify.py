"""Telling players about their nights, for both competitions: every event declared once (its
category, who hears it, its words in each language, its link), and one call to send it.

``notify(event, recipients, context, key=...)`` is called inside the writing transaction. Its
guarantees:

- **Nothing lost (an outbox).** The messages an event owes (one ``Delivery`` row per player
  and channel, ``pending``) are written in the event's own transaction: they exist if and only
  if the event does. After commit ``league.tasks.notify_dispatch`` sends them; when the broker
  refuses that task, beat's sweep (``notify_retry_failed``, ``dispatch()``) sends every row
  still owed once the worker runs again.
- **Once per event and person.** Each row's unique ``key`` is the event, what it is about
  (``key``), the player and the channel: a second send of the same event finds the row.
  A sender claims rows (``sending``, with ``claimed_at``) by one statement before it sends
  them, so two senders never both send one; each row's status is written as its message goes.
  A claim is a lease: rows a killed sender left in ``sending`` are claimed again once
  ``PEGBOARD_NOTIFY_LEASE`` seconds have passed, so after a crash each player is told once
  (only a message the mail server took in the instant before the kill, its status not yet
  written, can go twice).
- **Mails first.** A fan-out's mails go on the default queue; its pushes follow on their own
  task (``notify_push``, queue ``push``), so a slow push service never holds up a mail.
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
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext

from league.kernel import stored_texts
from league.kernel.push import Pusher, vapid_pair
from league.kernel.queue import queue_task
from league.models import Category as Category  # the apps' events name theirs
from league.models import (
    Channel,
    Delivery,
    DeliveryStatus,
    NotifyChoice,
    Player,
    PushSubscription,
)

log = logging.getLogger(__name__)

SEND_TASK = "league.tasks.notify_send"  # (event, recipients, context, key): tasks queued before
DISPATCH_TASK = "league.tasks.notify_dispatch"  # (event, key): the mails one notify() owes
PUSH_TASK = "league.tasks.notify_push"  # (event, key): its pushes, on their own queue
CLAIM_CHUNK = 50  # rows a sender claims at once: sent well within the lease
LEASE_USED = 0.8  # share of the lease a sender uses; the rest of its chunk goes back
MAX_ATTEMPTS = 5
MAX_PUSH_ATTEMPTS = 2  # a device that did not answer twice waits for the next notification
MAX_DEVICES = 5  # devices a player can have: the oldest goes when a sixth subscribes
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


# --- The events ---------------------------------------------------------------------------------
# Each app declares its own (``declare``, at the import of its module of events, which its
# ``AppConfig.ready()`` makes): the league's in ``league/notify_events.py``, the club nights' in
# ``tournaments/notify_events.py``. Each is sent by one trigger function of that app.

# Checks every event's message passes, at the event and again when it goes (an app's rule that
# holds whatever the event: the league's "nothing of a draft season"); each answers from the
# context whether the message is (still) due.
DUE_CHECKS: list[Callable[[Mapping[str, Any]], bool]] = []


def add_due_check(check: Callable[[Mapping[str, Any]], bool]) -> None:
    """Ask ``check(context)`` of every message before it is written and before it goes."""
    if check not in DUE_CHECKS:
        DUE_CHECKS.append(check)


def _due(context: Mapping[str, Any]) -> bool:
    return all(check(context) for check in DUE_CHECKS)


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


#: Where an event's mail goes when the app knows better than the player's account: a player
#: who registered for an event from its public page gave an address there and may have no
#: account. ``address(row)`` answers with an address, or "" to use the account's.
ADDRESSES: dict[str, Callable[[Delivery], str]] = {}


def add_address_source(event: Event, address: Callable[[Delivery], str]) -> None:
    ADDRESSES[event.code] = address


def address_of(row: Delivery) -> str:
    """The address ``row``'s mail goes to: the event's own source first, then the account's."""
    if row.event in ADDRESSES:
        address = ADDRESSES[row.event](row)
        if address:
            return address
    user = row.player.user
    return user.email if user is not None and user.email else ""


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
    """Tell ``recipients`` (players or their ids) about ``event``: the messages it owes are
    written now, in the caller's transaction, and sent after commit. ``key`` says what it is
    about (``"match:12"``): the same event and key reach a player once. ``context`` fills the
    event's words (plain values; dates become ISO text here)."""
    notify_each(event, [(recipients, context, key)])


def notify_each(
    event: Event, told: Iterable[tuple[Iterable[Player | int], Mapping[str, Any], str]]
) -> None:
    """``notify`` for several things at once (``told``: recipients, context and key of each,
    e.g. every entrant of a night its own place), their messages written in one insert."""
    batches = []
    for recipients, context, key in told:
        ids = sorted({r if isinstance(r, int) else r.pk for r in recipients})
        if ids:
            batches.append((ids, {name: _plain(value) for name, value in context.items()}, key))
    if not batches or not owe_each(event=event.code, batches=batches):
        return
    keys = [key for _ids, _context, key in batches]

    def send() -> None:
        for key in keys:
            try:
                queue_task(DISPATCH_TASK, event.code, key)
            except Exception:  # the rows wait in the outbox: beat's sweep sends them
                log.warning("could not queue %s for %s: the sweep sends it", event.code, key)

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


def batch_of(event: str, key: str) -> str:
    """What one ``notify`` call owes, as its rows name it (an event about one thing)."""
    return f"{event}:{key}"[:200]


def owe(*, event: str, recipients: Sequence[int], context: Mapping[str, Any], key: str) -> int:
    """Write the messages ``event`` owes ``recipients`` (one ``Delivery`` per player and
    channel, ``pending``) in the caller's transaction; a row already written stays as it is.
    Returns how many rows the event owes (0: nobody to tell)."""
    return owe_each(event=event, batches=[(recipients, context, key)])


def owe_each(*, event: str, batches: Sequence[tuple[Sequence[int], Mapping[str, Any], str]]) -> int:
    """``owe`` for several keys of one event (``batches``: recipients, context, key), written
    in one insert."""
    declared = EVENTS[event]
    batches = [b for b in batches if _due(b[1])]
    if not batches:
        return 0  # an app's rule says nobody is told (the league: nothing of a draft season)
    pushed = _with_devices(sorted({p for recipients, _c, _k in batches for p in recipients}))
    rows = [
        Delivery(
            key=delivery_key(event, key, player_id, channel),
            batch=batch_of(event, key),
            event=event,
            category=declared.category,
            channel=channel,
            player_id=player_id,
            season_id=season_id if isinstance(season_id := context.get("season_id"), int) else None,
            context=dict(context),
        )
        for recipients, context, key in batches
        for player_id in recipients
        for channel in Channel
        if channel == Channel.EMAIL or player_id in pushed
    ]
    Delivery.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    return len(rows)


def deliver(
    *, event: str, recipients: Sequence[int], context: Mapping[str, Any], key: str
) -> Counter[str]:
    """Write what ``event`` owes (``owe``) and send it now (``dispatch``): the older task's
    way, kept for the tasks already queued. Returns how many rows ended in each status."""
    if not owe(event=event, recipients=recipients, context=context, key=key):
        return Counter()
    return dispatch(event=event, key=key)


def _with_devices(player_ids: Sequence[int]) -> set[int]:
    """The players with a device to push to (none when push is not configured)."""
    if vapid_pair() is None:
        return set()
    return set(
        PushSubscription.objects.filter(player_id__in=player_ids)
        .values_list("player_id", flat=True)
        .distinct()
    )


def _owed(rows: Any, now: datetime, *, retry: bool = True) -> Any:
    """The rows of ``rows`` still owed: waiting, claimed by a sender whose lease ran out (it
    died, or was killed, in the middle), and with ``retry`` failed ones with attempts left."""
    expired = now - timedelta(seconds=settings.PEGBOARD_NOTIFY_LEASE)
    owed = (
        Q(status=DeliveryStatus.PENDING)
        | Q(status=DeliveryStatus.SENDING, claimed_at__lt=expired)
        | Q(status=DeliveryStatus.SENDING, claimed_at__isnull=True)
    )
    if retry:
        owed |= Q(status=DeliveryStatus.FAILED, channel=Channel.EMAIL, attempts__lt=MAX_ATTEMPTS)
        owed |= Q(
            status=DeliveryStatus.FAILED, channel=Channel.PUSH, attempts__lt=MAX_PUSH_ATTEMPTS
        )
    return rows.filter(owed)


def _claim(rows: Any, tried: set[int], *, retry: bool = True, chunk_size: int = 0) -> str | None:
    """Take up to ``CLAIM_CHUNK`` owed rows of ``rows`` (none of ``tried``, which grows) for
    this sender, in one statement: a row another sender claimed a moment before is not ours.
    The claim is a lease of ``PEGBOARD_NOTIFY_LEASE`` seconds; a chunk is sent well within it."""
    now = timezone.now()
    claim = secrets.token_hex(8)
    chunk = list(
        _owed(rows, now)
        .exclude(pk__in=tried)
        .order_by("pk")
        .values_list("pk", flat=True)[:CLAIM_CHUNK]
    )
    if not chunk:
        return None
    tried.update(chunk)
    _owed(Delivery.objects.filter(pk__in=chunk), now, retry=retry).update(
        status=DeliveryStatus.SENDING, claim=claim, claimed_at=now, attempts=F("attempts") + 1
    )
    return claim


def _send_all(rows: Any, *, retry: bool = True, chunk_size: int = 0) -> Counter[str]:
    """Claim and send the owed rows of ``rows`` a chunk at a time, each row once per call."""
    counts: Counter[str] = Counter()
    tried: set[int] = set()
    while True:
        claim = _claim(rows, tried, retry=retry, chunk_size=chunk_size)
        if claim is None:
            return counts
        counts += _send_claimed(claim)


def dispatch(*, event: str | None = None, key: str = "") -> Counter[str]:
    """Send what is owed: the mails of one ``notify`` call (``event`` and ``key``), or every
    message owed (no ``event``: beat's sweep, after a broker outage or a crash). Mails go
    here; the pushes follow on their own task. Returns how many rows ended in each status."""
    rows = Delivery.objects.all()
    if event is not None:
        rows = rows.filter(batch=batch_of(event, key))
    counts = _send_all(rows.filter(channel=Channel.EMAIL))
    sweep = event is None
    if _owed(rows.filter(channel=Channel.PUSH), timezone.now(), retry=sweep).exists():
        try:
            queue_task(PUSH_TASK, event, key)
        except Exception:
            log.warning("could not queue the pushes of %s %s: the sweep sends them", event, key)
    return counts


def dispatch_pushes(*, retry: bool = False) -> Counter[str]:
    """The push half of ``dispatch`` (its own task, on its own queue): every push waiting,
    whichever event it is of, so one task sends a fan-out's pushes side by side; with
    ``retry`` (beat's sweep) the failed ones with attempts left too. A push that failed is
    tried again by the sweep only, never at once."""
    chunk = settings.PEGBOARD_PUSH_THREADS * 4
    return _send_all(Delivery.objects.filter(channel=Channel.PUSH), retry=retry, chunk_size=chunk)


def retry_failed() -> Counter[str]:
    """Send every message still owed (beat's sweep): failed ones with attempts left, ones
    written while the broker was down, ones a dead sender had claimed."""
    return dispatch()


def _still_due(row: Delivery, memo: dict[str, bool]) -> bool:
    """Whether ``row``'s message still says something true (once per batch and send)."""
    if row.batch not in memo:
        declared = EVENTS[row.event]
        memo[row.batch] = _due(row.context) and (
            declared.still_due is None or declared.still_due(row.context)
        )
    return memo[row.batch]


def _send_claimed(claim: str) -> Counter[str]:
    """Send the rows of ``claim``, writing each one's status as it goes: a sender killed in
    the middle leaves the rest claimed, and they are claimed again once its lease runs out."""
    # Past most of the lease, another sender may take these rows: what is left is handed back.
    within = time.monotonic() + settings.PEGBOARD_NOTIFY_LEASE * LEASE_USED
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
    due: dict[str, bool] = {}
    emails: list[tuple[Delivery, EmailMultiAlternatives]] = []
    pushes: list[Delivery] = []
    for row in rows:
        if not _still_due(row, due):
            _skip(row, gettext("no longer needed"))
        elif (row.player_id, row.category, row.channel) in off:
            _skip(row, gettext("turned off by the player"))
        elif row.channel == Channel.EMAIL:
            address = address_of(row)
            if not address:
                _skip(row, gettext("no email address"))
            else:
                emails.append((row, email_message(row, address=address)))
                continue
        elif row.channel == Channel.PUSH:
            pushes.append(row)
            continue
        _record(row, counts)
    _send_emails(emails, counts, within=within)
    _send_pushes(pushes, counts)
    return counts


def _record(row: Delivery, counts: Counter[str]) -> None:
    """Write ``row``'s status now (only while the claim is still ours)."""
    if row.status == DeliveryStatus.SENT:
        row.sent_at = timezone.now()
    Delivery.objects.filter(pk=row.pk, claim=row.claim).update(
        status=row.status, reason=row.reason, subject=row.subject, sent_at=row.sent_at
    )
    counts[row.status] += 1


def _hand_back(rows: list[Delivery]) -> None:
    """Give rows this sender claimed but will not send back to the next one (still ours)."""
    for row in rows:
        Delivery.objects.filter(pk=row.pk, claim=row.claim).update(
            status=DeliveryStatus.PENDING, attempts=F("attempts") - 1
        )


def _skip(row: Delivery, reason: str) -> None:
    row.status = DeliveryStatus.SKIPPED
    row.reason = reason


def _send_emails(
    emails: list[tuple[Delivery, EmailMultiAlternatives]], counts: Counter[str], *, within: float
) -> None:
    """One connection for them all; each row's status written as its mail goes. A slow mail
    server must not make the lease run out under us (the rows' next sender would mail them
    again): past ``within`` (``time.monotonic()``) the mails not sent are handed back."""
    if not emails:
        return
    connection = get_connection()
    try:
        connection.open()
    except Exception as exc:
        for row, _message in emails:
            _failed(row, exc)
            _record(row, counts)
        return
    try:
        for n, (row, message) in enumerate(emails):
            if time.monotonic() > within:
                _hand_back([left for left, _message in emails[n:]])
                break
            message.connection = connection
            try:
                message.send()
            except Exception as exc:
                _failed(row, exc)
            else:
                row.status = DeliveryStatus.SENT
                row.reason = ""
            _record(row, counts)
    finally:
        try:
            connection.close()
        except Exception:
            log.warning("the mail server's connection did not close cleanly", exc_info=True)


def _send_pushes(rows: list[Delivery], counts: Counter[str]) -> None:
    """Each row to every device of its player (``MAX_DEVICES`` at most), sent if one device
    took it. The players' pushes go side by side (``PEGBOARD_PUSH_THREADS``), each player's
    devices within ``PEGBOARD_PUSH_BUDGET`` seconds in all, so devices that never answer cost
    seconds, not the worker's hour. Only this thread touches the database."""
    if not rows:
        return
    devices: dict[int, list[PushSubscription]] = {}
    subscriptions = PushSubscription.objects.filter(
        player_id__in={r.player_id for r in rows}
    ).order_by("-created_at", "-pk")
    for device in subscriptions:
        devices.setdefault(device.player_id, []).append(device)
    pusher = Pusher()
    if pusher.vapid is None:
        for row in rows:
            _skip(row, gettext("push is not set up on this site"))
            _record(row, counts)
        return
    payloads = {row.pk: push_payload(row) for row in rows}

    def to_devices(row: Delivery) -> tuple[int, list[Exception]]:
        deadline = time.monotonic() + settings.PEGBOARD_PUSH_BUDGET
        took, errors = 0, list[Exception]()
        for device in devices.get(row.player_id, [])[:MAX_DEVICES]:
            left = deadline - time.monotonic()
            if left < 0.05:
                errors.append(TimeoutError("out of time for this player's devices"))
                break
            try:
                pusher.send(device, payloads[row.pk], within=left)
            except Exception as exc:
                errors.append(exc)
            else:
                took += device.pk not in pusher.gone
        return took, errors

    threads = max(1, min(len(rows), settings.PEGBOARD_PUSH_THREADS))
    try:
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="push") as pool:
            sending = {pool.submit(to_devices, row): row for row in rows}
            for done in as_completed(sending):
                row = sending[done]
                took, errors = done.result()
                if took:
                    row.status, row.reason = DeliveryStatus.SENT, ""
                elif errors:
                    _failed(row, errors[0])
                else:
                    _skip(row, gettext("no device"))
                _record(row, counts)
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
    log.warning("could not send %s: %s", row.key, type(exc).__name__)
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
