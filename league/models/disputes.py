"""Disputes about a game, settled by a judge with a written ruling that cites a rule."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.games import Game
from league.models.people import Team

# The longest claim, in characters, at every door (the service checks it; the form, the API's
# serializer and the column read it from here).
CLAIM_LIMIT = 2000


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("open")
    IN_REVIEW = "in_review", _("in review")
    RESOLVED = "resolved", _("resolved")
    DISMISSED = "dismissed", _("dismissed")


class Dispute(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="disputes")
    deal_number = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_raised"
    )
    raised_by_team = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="disputes_raised"
    )
    claim = models.TextField(_("what is claimed"), max_length=CLAIM_LIMIT)
    rival = models.ForeignKey(
        "league.Deal",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
        help_text=_(
            "The other entry of the disputed deal, when the two teams entered it differently."
        ),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=DisputeStatus.choices, default=DisputeStatus.OPEN
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes_judged",
        verbose_name=_("judge"),
    )
    ruling = models.TextField(_("ruling"), blank=True)
    rule_reference = models.CharField(_("rule cited"), max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ruled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        deal = f", deal {self.deal_number}" if self.deal_number else ""
        return f"Dispute #{self.pk} on {self.game}{deal}"

    @property
    def is_closed(self) -> bool:
        return self.status in (DisputeStatus.RESOLVED, DisputeStatus.DISMISSED)
