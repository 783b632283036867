"""Reads of notifications: a player's choices, a season's sent messages (the organiser's
log), the announcements the home page shows."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy

from league.kernel.notify import EVENTS
from league.models import (
    Announcement,
    Category,
    Channel,
    Delivery,
    Player,
    Season,
    SeasonState,
)


def notify_choices_of(player: Player) -> dict[str, Any]:
    """The grid a player's page shows: each category with each channel on or off, and the
    language of their mails (two queries)."""
    off = set(player.notify_off.values_list("category", "channel"))
    profile = getattr(player, "notify_profile", None) if player.pk else None
    return {
        "rows": [
            {
                "category": category,
                "label": category.label,
                "channels": [
                    {
                        "channel": channel,
                        "label": channel.label,
                        "name": f"{category.value}:{channel.value}",
                        "on": (category.value, channel.value) not in off,
                    }
                    for channel in Channel
                ],
            }
            for category in Category
        ],
        # Not chosen yet: the language the player reads the site in, saved with their choices.
        "language": profile.language if profile else _site_language(),
        "has_email": bool(player.user and player.user.email),
    }


_SYSTEMS = [
    ("iPhone", gettext_lazy("iPhone")),
    ("iPad", gettext_lazy("iPad")),
    ("Android", gettext_lazy("Android phone")),
    ("Windows", gettext_lazy("Windows computer")),
    ("Macintosh", gettext_lazy("Mac")),
    ("Linux", gettext_lazy("Linux computer")),
]
_BROWSERS = [("Firefox", "Firefox"), ("Edg", "Edge"), ("Chrome", "Chrome"), ("Safari", "Safari")]


def device_name(user_agent: str) -> str:
    """A device as its owner would name it ("Android phone, Chrome"), from its browser's
    User-Agent (the raw string means nothing at a bar)."""
    system = next((name for key, name in _SYSTEMS if key in user_agent), None)
    browser = next((name for key, name in _BROWSERS if key in user_agent), None)
    if system is None:
        return str(gettext_lazy("A phone"))
    if browser is None:
        return str(system)
    return str(gettext_lazy("%(device)s, %(browser)s") % {"device": system, "browser": browser})


def push_devices_of(player: Player) -> list[dict[str, Any]]:
    """The phones that get ``player``'s notifications, newest first, each with its name
    (one query)."""
    return [
        {"pk": device.pk, "name": device_name(device.user_agent), "since": device.created_at}
        for device in player.push_subscriptions.order_by("-created_at", "-pk")
    ]


def _site_language() -> str:
    active = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return active if active in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def season_deliveries(season: Season, *, limit: int = 50) -> list[Delivery]:
    """The season's latest messages, newest first, with who got them (one query)."""
    rows = list(
        Delivery.objects.filter(season=season).select_related("player").order_by("-id")[:limit]
    )
    for row in rows:
        event = EVENTS.get(row.event)
        row.audience = event.audience if event else ""  # type: ignore[attr-defined]
    return rows


def announcements_shown(user: Any = None, *, now: datetime | None = None) -> list[Announcement]:
    """The announcements not yet expired, for the home page's banner (one query). A signed-in
    player who is not an organiser sees those of the seasons they play in (on a team or on the
    sub list), as the mail went to them; a visitor and an organiser see every season's."""
    from django.db.models import Q

    from league.kernel.permissions import Action, can

    now = now or timezone.now()
    shown = Announcement.objects.filter(expires_at__gt=now, season__importing=False).exclude(
        season__state=SeasonState.DRAFT  # a draft is the organiser's alone
    )
    uid = getattr(user, "pk", None)
    player = isinstance(uid, int) and getattr(user, "is_authenticated", False)
    if player and not can(user, Action.MANAGE_LEAGUE):
        shown = shown.filter(
            Q(season__teams__players__user_id=uid) | Q(season__subs__player__user_id=uid)
        ).distinct()
    return list(shown.select_related("season__league").order_by("-created_at")[:5])


def season_announcements(season: Season) -> list[Announcement]:
    return list(season.announcements.all()[:20])
