"""Who is coming: each player's answer for each night of their season (in, out or maybe).

Not a result and not a rule: an answer changes nothing that counts, so it is kept without an
audit entry, its latest value only (``answered_at`` says when)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.people import Player
from league.models.schedule import Week


class Answer(models.TextChoices):
    IN = "in", _("in")
    OUT = "out", _("out")
    MAYBE = "maybe", _("maybe")


class Availability(models.Model):
    """A player's answer for one night (a week of their season)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="availability", verbose_name=_("player")
    )
    week = models.ForeignKey(
        Week, on_delete=models.CASCADE, related_name="availability", verbose_name=_("night")
    )
    answer = models.CharField(_("answer"), max_length=8, choices=Answer.choices)
    answered_at = models.DateTimeField(_("answered at"), auto_now=True)

    class Meta:
        ordering = ["week", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "week"], name="availability_one_answer_per_night"
            )
        ]
        verbose_name = _("availability")
        verbose_name_plural = _("availability")

    def __str__(self) -> str:
        return f"{self.player}: {self.answer}"
