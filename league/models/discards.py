"""The cards a player was dealt, recorded by the player for their own study of their discards
(where the league allows it). A private note beside the deal, never part of its result."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.games import Game
from league.models.people import Player


class DealtHand(models.Model):
    """The cards dealt to the player in ``seat`` for deal ``number`` of ``game``.

    Keyed by the deal's number, not its row: a correction makes a new version of the deal, and
    the cards dealt stay what they were."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="dealt_hands", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="dealt_hands", verbose_name=_("player")
    )
    cards = models.JSONField(_("cards dealt"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now=True)

    class Meta:
        ordering = ["game", "number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "seat"], name="dealt_hand_once")
        ]
        verbose_name = _("cards dealt")
        verbose_name_plural = _("cards dealt")

    def __str__(self) -> str:
        return f"{self.game_id}/{self.number}/{self.seat}: {' '.join(self.cards)}"
