"""The schedule: weeks of a season and the matches played in them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.models.leagues import Season, Venue
from league.models.people import Team


class Week(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="weeks", verbose_name=_("season")
    )
    number = models.PositiveSmallIntegerField(_("week"))
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("venue")
    )
    is_playoff = models.BooleanField(_("playoff round"), default=False)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="week_number_unique")
        ]
        verbose_name = _("week")
        verbose_name_plural = _("weeks")

    def __str__(self) -> str:
        return gettext("%(season)s, week %(number)s") % {
            "season": self.season.name,
            "number": self.number,
        }


class Match(models.Model):
    """Two teams meeting in a week: several games, each recorded deal by deal."""

    week = models.ForeignKey(
        Week, on_delete=models.PROTECT, related_name="matches", verbose_name=_("week")
    )
    home = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home team")
    )
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away team")
    )
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    playoff_round = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("playoff round")
    )
    playoff_slot = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("playoff slot")
    )

    class Meta:
        ordering = ["week__number", "table"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="match_two_different_teams"
            ),
            # Advancing the bracket twice (two workers) cannot create a slot's match twice.
            models.UniqueConstraint(
                fields=["week", "playoff_slot"],
                condition=models.Q(playoff_round__isnull=False),
                name="one_match_per_playoff_slot",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(home)s v %(away)s (week %(week)s)") % {
            "home": self.home,
            "away": self.away,
            "week": self.week.number,
        }

    def teams(self) -> tuple[Team, Team]:
        return (self.home, self.away)
