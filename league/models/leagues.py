"""Leagues, their rules settings, seasons and venues."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.variants import VARIANTS

# Two-sided games only: a league match is one team against another.
LEAGUE_VARIANTS = [(key, v.name) for key, v in VARIANTS.items() if v.sides == 2]
DEFAULT_TIEBREAKS = ["weeks_won", "head_to_head", "spread", "draw"]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class League(models.Model):
    """A league and the rules it plays by; every number here is a setting, never a constant."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    variant = models.CharField(
        _("game"), max_length=32, choices=LEAGUE_VARIANTS, default="partnership-121"
    )
    target = models.PositiveSmallIntegerField(_("game to"), default=121)
    games_per_match = models.PositiveSmallIntegerField(_("games per match"), default=3)
    points_per_win = models.PositiveSmallIntegerField(_("league points per win"), default=1)
    skunk_margin = models.PositiveSmallIntegerField(
        _("skunk margin"), default=31, help_text=_("A win by this many points or more is a skunk.")
    )
    skunk_bonus = models.PositiveSmallIntegerField(_("skunk bonus points"), default=1)
    double_skunk_margin = models.PositiveSmallIntegerField(_("double skunk margin"), default=61)
    double_skunk_bonus = models.PositiveSmallIntegerField(
        _("double skunk bonus points"),
        default=0,
        help_text=_("Extra points for a double skunk, on top of the skunk bonus."),
    )
    tiebreaks = models.JSONField(_("tie-breaks after league points"), default=default_tiebreaks)
    requires_confirmation = models.BooleanField(
        _("results need the other team's confirmation"), default=True
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name

    def league_points(self, *, won: bool, skunk_level: int) -> int:
        """League points a team earns from one game under this league's settings."""
        if not won:
            return 0
        points = self.points_per_win
        if skunk_level >= 1:
            points += self.skunk_bonus
        if skunk_level >= 2:
            points += self.double_skunk_bonus
        return points


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    playoff_teams = models.PositiveSmallIntegerField(_("playoff teams"), default=4)
    draw_seed = models.BigIntegerField(
        _("draw seed"),
        default=0,
        help_text=_("Seeds the public, repeatable draw that breaks ties nothing else breaks."),
    )
    is_current = models.BooleanField(_("current"), default=True)
    playoff_seeding = models.JSONField(
        _("playoff seeding"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Team names, first seed first, fixed when the playoffs were drawn."),
    )
    standings_stale = models.BooleanField(default=True, editable=False)
    results_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["league__name", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique_in_league")
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"


class Venue(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    address = models.CharField(_("address"), max_length=250, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")

    def __str__(self) -> str:
        return self.name
