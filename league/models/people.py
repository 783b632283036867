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
    shares_discards = models.BooleanField(
        _("shares their discards"),
        default=False,
        help_text=_(
            "The player's own choice: their season's cost of discards a deal shows in the "
            "league's table of the best discarders (information only)."
        ),
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


class SeasonSub(models.Model):
    """A player on a season's sub list: not on a team of that season, ready to sit for an
    absent partner (``league.services.subs``; the game's seat says who sat as a sub)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="subs", verbose_name=_("season")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="sub_for_seasons", verbose_name=_("player")
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        ordering = ["season", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="sub_once_per_season")
        ]
        verbose_name = _("sub")
        verbose_name_plural = _("sub list")

    def __str__(self) -> str:
        return self.player.name


class HeldInvitation(models.Model):
    """An invitation to choose a password, asked for a player while their season was a draft:
    held until the season is published, then sent once (``league.services.people``)."""

    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        related_name="held_invitations",
        verbose_name=_("season"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="held_invitations",
        verbose_name=_("player"),
    )
    base_url = models.CharField(_("site address"), max_length=200)
    held_at = models.DateTimeField(_("held at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["season", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"], name="invitation_held_once_per_season"
            )
        ]
        verbose_name = _("held invitation")
        verbose_name_plural = _("held invitations")

    def __str__(self) -> str:
        return self.player.name
