"""Calendar feeds: secret addresses a phone's calendar subscribes to, and one event per match
kept with its history (UID, SEQUENCE, LAST-MODIFIED), so a moved night moves by itself and a
cancelled one stays, marked cancelled."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.leagues import Season
from league.models.people import Player, Team
from league.models.schedule import Match


def feed_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarFeed(models.Model):
    """One secret feed address: a player's own matches, a team's, or a whole season's.
    Resetting it gives a new token; the old address then answers 404."""

    token = models.CharField(max_length=64, unique=True, default=feed_token, editable=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="calendar_feeds"
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="calendar_feeds"
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="calendar_feeds"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(player__isnull=False, team__isnull=True, season__isnull=True)
                    | models.Q(player__isnull=True, team__isnull=False, season__isnull=True)
                    | models.Q(player__isnull=True, team__isnull=True, season__isnull=False)
                ),
                name="calendar_feed_of_one_thing",
            ),
            models.UniqueConstraint(fields=["player"], name="one_feed_per_player"),
            models.UniqueConstraint(fields=["team"], name="one_feed_per_team"),
            models.UniqueConstraint(fields=["season"], name="one_feed_per_season"),
        ]
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")

    def __str__(self) -> str:
        return str(self.player or self.team or self.season)


class CalendarEntry(models.Model):
    """A match as the calendars last saw it. ``data`` is what the event says; when it
    changes, ``sequence`` goes up and ``modified_at`` moves. A match deleted from the schedule
    keeps its entry, ``cancelled``."""

    uid = models.CharField(max_length=120, unique=True)
    match = models.OneToOneField(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="calendar_entry"
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="calendar_entries"
    )
    home = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    away = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    data = models.JSONField(default=dict)
    sequence = models.PositiveIntegerField(default=0)
    cancelled = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    modified_at = models.DateTimeField()

    class Meta:
        verbose_name = _("calendar event")
        verbose_name_plural = _("calendar events")

    def __str__(self) -> str:
        return self.uid
