"""Players and teams."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.leagues import Season


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("account"),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A team for one season: two players in doubles (one in singles) and a captain."""

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="teams", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=120)
    players = models.ManyToManyField(Player, related_name="teams", verbose_name=_("players"))
    captain = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="captain_of", verbose_name=_("captain")
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_name_unique_in_season")
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name
