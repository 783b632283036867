"""Where a league plays: its time zone, and each venue's (empty: its league's), set by the
organiser at ``/organise/``. Calendar feeds give their times in it (``TZID``)."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import League, Venue


def zone_names() -> list[str]:
    """Every time zone a league or venue may be in, sorted (``Europe/Paris``)."""
    return sorted(z for z in available_timezones() if "/" in z and not z.startswith("Etc/"))


def _checked(zone: str) -> str:
    zone = (zone or "").strip()
    if not zone:
        return ""
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(
            _("%(zone)s is not a time zone: choose one like Europe/Paris.") % {"zone": zone},
            field="time_zone",
        ) from None
    return zone


def league_time_zone_set(*, league: League, user: Actor, zone: str) -> League:
    """The league's time zone (empty: the site's), on record."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    zone = _checked(zone)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.time_zone != zone:
            before = league.time_zone
            league.time_zone = zone
            league.save(update_fields=["time_zone"])
            audit_log(
                actor=user,
                action=AuditAction.LEAGUE_UPDATE,
                obj=league,
                before={"time_zone": before},
                after={"time_zone": zone},
            )
    return league


def venue_time_zone_set(*, venue: Venue, user: Actor, zone: str) -> Venue:
    """A venue's time zone (empty: the league's that plays there), on record."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    zone = _checked(zone)
    with transaction.atomic():
        venue = Venue.objects.select_for_update().get(pk=venue.pk)
        if venue.time_zone != zone:
            before = venue.time_zone
            venue.time_zone = zone
            venue.save(update_fields=["time_zone"])
            audit_log(
                actor=user,
                action=AuditAction.VENUE_UPDATE,
                obj=venue,
                before={"time_zone": before},
                after={"time_zone": zone},
            )
    return venue
