"""Leagues, seasons (each with its own copy of the rules) and venues."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.rules import RULE_FIELDS, Rules, default_tiebreaks  # noqa: F401 (migrations)


class League(Rules):
    """A league: its name and the default rules each new season starts from."""

    name = models.CharField(_("name"), max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name


class SeasonQuerySet(models.QuerySet["Season"]):
    def shown(self) -> SeasonQuerySet:
        """The seasons pages and lists show: not one a season import is still writing."""
        return self.filter(importing=False)


class Season(Rules):
    """A season of a league, with its own copy of the rules (see ``league.models.rules``)."""

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("league")
    )
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
    playoff_slots = models.JSONField(
        _("playoff slots"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("First-round seed numbers in slot order, fixed when the playoffs were drawn."),
    )
    standings_stale = models.BooleanField(
        default=True, editable=False, verbose_name=_("standings to recompute")
    )
    results_version = models.PositiveIntegerField(
        default=0, editable=False, verbose_name=_("results version")
    )
    # A season import writes in short transactions (score entry goes on meanwhile): until its
    # last one, the season is half written, shown nowhere (``Season.objects.shown()``).
    importing = models.BooleanField(default=False, editable=False, verbose_name=_("importing"))

    objects = SeasonQuerySet.as_manager()

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
