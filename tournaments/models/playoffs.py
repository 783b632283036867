"""The playoff bracket: matches, their games and the players' cards for a game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Entrant, Tournament


class PlayoffMatch(models.Model):
    """A bracket slot: ``round`` from 1, ``position`` from 0 in bracket order. Round 1 holds
    the drawn pairings; the winner of position p goes to position p // 2 of the next round."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="playoff_matches",
        verbose_name=_("tournament"),
    )
    round = models.PositiveSmallIntegerField(_("playoff round"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    top = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("top entrant"),
    )
    bottom = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("bottom entrant"),
    )
    winner = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    is_bye = models.BooleanField(default=False, verbose_name=_("bye"))

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "position"], name="playoff_slot_unique"
            )
        ]
        verbose_name = _("playoff match")
        verbose_name_plural = _("playoff matches")

    def __str__(self) -> str:
        return f"{self.tournament} · {_('playoff round')} {self.round}, {self.position + 1}"


class PlayoffGame(models.Model):
    match = models.ForeignKey(
        PlayoffMatch, on_delete=models.CASCADE, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    winner = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner")
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    key = models.CharField(
        _("entry key"), max_length=64, unique=True, null=True, blank=True
    )  # made by the phone or the admin form: the same game sent again is stored once

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="playoff_game_unique")
        ]
        verbose_name = _("playoff game")
        verbose_name_plural = _("playoff games")

    def __str__(self) -> str:
        return f"{self.match}: {_('game')} {self.number}"


class PlayoffCard(models.Model):
    """One side's card for the next game of a playoff match, from a player's phone: two that
    agree record the game; two that differ wait for the director, whose entry decides it."""

    match = models.ForeignKey(
        PlayoffMatch, on_delete=models.CASCADE, related_name="cards", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    side = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("side")
    )
    winner = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner")
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    key = models.CharField(_("entry key"), max_length=64, unique=True, null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        ordering = ["match", "number", "at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number", "side"], name="one_playoff_card_per_side_and_game"
            )
        ]
        verbose_name = _("playoff card")
        verbose_name_plural = _("playoff cards")

    def __str__(self) -> str:
        return f"{self.match}: {_('game')} {self.number} · {self.side}"

    @property
    def result(self) -> tuple[int | None, int | None]:
        return (self.winner_id, self.loser_score)
