"""Ratings (information only): a player's or pair's openskill rating, and the results rated.

Both are a cache of the confirmed games and verified tables, rebuilt whole by
``league.services.ratings.ratings_recompute`` (``manage.py recompute_ratings``); nothing in the
standings, seeding or results reads them.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.people import Player


class Rating(models.Model):
    """A player's rating (no ``partner``) or a pair's (``player`` the lower id of the two)."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    partner = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partner"),
    )
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("games rated"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["player", "partner"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(partner__isnull=True),
                name="one_rating_per_player",
            ),
            models.UniqueConstraint(fields=["player", "partner"], name="one_rating_per_pair"),
            models.CheckConstraint(
                condition=models.Q(partner__isnull=True) | models.Q(player__lt=models.F("partner")),
                name="pair_rating_lower_id_first",
            ),
        ]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player_id}/{self.partner_id or '-'}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatedGame(models.Model):
    """A result the ratings counted: its source ("game" or "table"), id, time and what it said,
    so a later update knows whether to add results or replay everything."""

    source = models.CharField(_("source"), max_length=8)
    ref = models.PositiveBigIntegerField(_("reference"))
    at = models.DateTimeField(_("stood at"))
    fingerprint = models.CharField(_("fingerprint"), max_length=255)

    class Meta:
        ordering = ["at", "source", "ref"]
        constraints = [
            models.UniqueConstraint(fields=["source", "ref"], name="rated_game_once"),
        ]
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")

    def __str__(self) -> str:
        return f"{self.source} {self.ref}"
