"""Known devices: the server's half of the login lockout's device cookies (league/lockout.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class KnownDevice(models.Model):
    """A browser or app that signed in as ``user``: its cookie names ``nonce``. Its own wrong
    passwords are counted here and lock it (``locked_until``); deleting the row (a new password,
    "sign out everywhere") revokes the cookie."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="known_devices",
        verbose_name=_("account"),
    )
    nonce = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    failures = models.PositiveIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("known device")
        verbose_name_plural = _("known devices")

    def __str__(self) -> str:
        return f"{self.user} #{self.pk}"
