"""Forfeits: a team that did not turn up (or left) loses a match's unplayed games by the
season's forfeit rule. The games it loses are ordinary confirmed games that name the forfeit,
so the tallies, the standings and the playoffs count them like any other; undoing a forfeit
voids them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.models.people import Team
from league.models.schedule import Match


class Forfeit(models.Model):
    """One forfeit of a match (or of its remaining games): who forfeited it, why, who recorded
    it and, once undone by a judge, who undid it and why."""

    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="forfeits", verbose_name=_("match")
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="forfeits",
        verbose_name=_("team that forfeited"),
    )
    reason = models.TextField(_("reason"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("recorded at"))
    undone_at = models.DateTimeField(null=True, blank=True, verbose_name=_("undone at"))
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )
    undo_reason = models.TextField(_("why it was undone"), blank=True)

    class Meta:
        ordering = ["match", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(undone_at__isnull=True),
                name="one_standing_forfeit_per_match",
            )
        ]
        verbose_name = _("forfeit")
        verbose_name_plural = _("forfeits")

    def __str__(self) -> str:
        return gettext("%(team)s forfeited %(match)s") % {"team": self.team, "match": self.match}

    @property
    def is_standing(self) -> bool:
        return self.undone_at is None
