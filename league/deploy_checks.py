"""``manage.py check --deploy`` warnings for a production site missing a setting it needs.

Each one is a site that works and quietly does the wrong thing: links in mails pointing at the
default address, no push ever sent, league nights at the wrong hour in calendars.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning
from django.db import DatabaseError

DEFAULT_SITE_URL = "http://127.0.0.1:8000"


@register(Tags.security, deploy=True)
def deployment_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.DEBUG:
        return []
    found: list[CheckMessage] = []
    if settings.PEGBOARD_SITE_URL.rstrip("/") == DEFAULT_SITE_URL:
        found.append(
            CheckWarning(
                "PEGBOARD_SITE_URL is its default, http://127.0.0.1:8000: every reminder, one-tap "
                "answer, unsubscribe link and calendar address in players' mail points there.",
                hint="Set PEGBOARD_SITE_URL=https://<your site's name> (.env.example).",
                id="pegboard.W001",
            )
        )
    from league.kernel.push import vapid_pair

    if vapid_pair() is None:
        found.append(
            CheckWarning(
                "No Web Push keys: no push notification is ever sent (mail still is).",
                hint="Run `manage.py vapid_keys` and put its two lines in the settings file; "
                "keep them with the backups (docs/backups.md).",
                id="pegboard.W002",
            )
        )
    if settings.TIME_ZONE == "UTC":
        from league.models import League, Venue

        try:
            venues = list(Venue.objects.filter(time_zone="").values_list("name", flat=True)[:5])
            # A venue without a zone of its own takes its league's: only a league without one
            # (or none yet) leaves its nights in UTC.
            if (
                venues
                and League.objects.exists()
                and not League.objects.filter(time_zone="").exists()
            ):
                venues = []
        except DatabaseError:  # no database yet (a check before the first migrate)
            venues = []
        if venues:
            found.append(
                CheckWarning(
                    "TIME_ZONE is UTC and some venues have no time zone of their own "
                    f"({', '.join(venues)}): their nights show at 19:00 UTC in players' calendars.",
                    hint="Set TIME_ZONE to the league's zone (Europe/Paris, America/Toronto), "
                    "or the league's and each venue's at /organise/time-zones/.",
                    id="pegboard.W003",
                )
            )
    return found
