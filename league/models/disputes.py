"""Disputes about a game, settled by a judge with a written ruling that cites a rule."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
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
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="disputes", verbose_name=_("game")
    )
    deal_number = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="disputes_raised",
        verbose_name=_("raised by"),
    )
    raised_by_team = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes_raised",
        verbose_name=_("team"),
    )
    claim = models.TextField(_("what is claimed"), max_length=CLAIM_LIMIT)
    # A claim the system wrote (league.kernel.stored_texts): its code and parameters, so it
    # reads in the reader's language; ``claim`` keeps the text as first written.
    claim_code = models.CharField(max_length=32, blank=True, default="", editable=False)
    claim_params = models.JSONField(default=dict, blank=True, editable=False)
    rival = models.ForeignKey(
        "league.Deal",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
        help_text=_(
            "The other entry of the disputed deal, when the two teams entered it differently."
        ),
        verbose_name=_("rival entry"),
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
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("raised at"))
    ruled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ruled at"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        if self.deal_number:
            return gettext("Dispute #%(pk)s on %(game)s, deal %(deal)s") % {
                "pk": self.pk,
                "game": self.game,
                "deal": self.deal_number,
            }
        return gettext("Dispute #%(pk)s on %(game)s") % {"pk": self.pk, "game": self.game}

    @property
    def claim_text(self) -> str:
        """What is claimed, in the reader's language when the system wrote it."""
        from league.kernel.stored_texts import render

        return render(self.claim_code, self.claim_params, self.claim)

    @property
    def ruling_text(self) -> str:
        """The ruling, in the reader's language when the system wrote it ("The game was
        voided.")."""
        from league.kernel.stored_texts import fixed

        return fixed(self.ruling)

    @property
    def is_closed(self) -> bool:
        return self.status in (DisputeStatus.RESOLVED, DisputeStatus.DISMISSED)
