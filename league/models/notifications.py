"""Telling players about their nights: each message sent (a ``Delivery``), each player's
choices (``NotifyChoice``, ``NotifyProfile``) and a season's announcements. The declarations
of the events and the sending live in ``league.kernel.notify``."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.leagues import Season
from league.models.people import Player


class Channel(models.TextChoices):
    EMAIL = "email", _("email")
    PUSH = "push", _("this phone's notifications")


class Category(models.TextChoices):
    """What a player can turn off, one at a time (each event belongs to one)."""

    REMINDERS = "reminders", _("reminders before a night")
    CHANGES = "changes", _("a night or match moved, postponed or cancelled")
    RESULTS = "results", _("results to confirm, and club night standings")
    DISPUTES = "disputes", _("disputes on your games and their rulings")
    PLAYOFFS = "playoffs", _("the playoffs and your playoff matches")
    SUBS = "subs", _("a sub asked for")
    ANNOUNCEMENTS = "announcements", _("the organiser's announcements")
    STORIES = "stories", _("the week's story of your league")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    SENDING = "sending", _("sending")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed, will be tried again")
    SKIPPED = "skipped", _("not sent")


def new_token() -> str:
    return secrets.token_urlsafe(24)


class NotifyProfile(models.Model):
    """A player's language for what Pegboard sends them (made on first need)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="notify_profile", verbose_name=_("player")
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )

    class Meta:
        verbose_name = _("notification profile")
        verbose_name_plural = _("notification profiles")

    def __str__(self) -> str:
        return str(self.player)


class NotifyChoice(models.Model):
    """A category and channel a player turned off (everything else is on). Only the player
    changes these, on their own page or through an unsubscribe link."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="notify_off", verbose_name=_("player")
    )
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "category", "channel"], name="one_notify_choice"
            )
        ]
        verbose_name = _("notification turned off")
        verbose_name_plural = _("notifications turned off")

    def __str__(self) -> str:
        return f"{self.player}: {self.category} by {self.channel}"


class Delivery(models.Model):
    """One message for one player on one channel: who was told what, and when. ``key`` is the
    idempotency key (event, what it is about, player, channel): a second send finds it."""

    key = models.CharField(_("key"), max_length=200, unique=True)
    # What one notify() call owes (its event and key): the dispatcher's unit of work.
    batch = models.CharField(max_length=200, blank=True, db_index=True, editable=False)
    event = models.CharField(_("event"), max_length=40)
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("player")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("season"),
    )
    context = models.JSONField(_("context"), default=dict)
    subject = models.CharField(_("subject"), max_length=250, blank=True)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=DeliveryStatus.choices,
        default=DeliveryStatus.PENDING,
    )
    reason = models.CharField(_("why not"), max_length=250, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claim = models.CharField(max_length=32, blank=True, editable=False)
    # When the sender took it: a row left ``sending`` past the lease is claimed again.
    claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["season", "-created_at"], name="delivery_season_recent"),
            models.Index(fields=["status"], name="delivery_status"),
        ]
        verbose_name = _("notification sent")
        verbose_name_plural = _("notifications sent")

    def __str__(self) -> str:
        return f"{self.event} to {self.player} by {self.channel}"


class Announcement(models.Model):
    """The organiser's word to a season: mailed to its players and shown on the home page
    until it expires."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("season")
    )
    text = models.TextField(_("announcement"), max_length=1000)
    expires_at = models.DateTimeField(_("shown until"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return self.text[:60]


class PushSubscription(models.Model):
    """One device's Web Push subscription (its push service's address and keys). A 404 or 410
    from the push service deletes it: the browser dropped it."""

    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("player"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(_("device"), max_length=250, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.player}: {self.user_agent or self.endpoint[:40]}"
