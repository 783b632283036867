"""The schedule: weeks of a season and the matches played in them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models.leagues import Season, Venue
from league.models.people import Team


class Week(models.Model):
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="weeks")
    number = models.PositiveSmallIntegerField(_("week"))
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, null=True, blank=True)
    is_playoff = models.BooleanField(_("playoff round"), default=False)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="week_number_unique")
        ]
        verbose_name = _("week")
        verbose_name_plural = _("weeks")

    def __str__(self) -> str:
        return f"{self.season.name}, week {self.number}"


class Match(models.Model):
    """Two teams meeting in a week: several games, each recorded deal by deal."""

    week = models.ForeignKey(Week, on_delete=models.PROTECT, related_name="matches")
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_matches")
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    playoff_round = models.PositiveSmallIntegerField(null=True, blank=True)
    playoff_slot = models.PositiveSmallIntegerField(null=True, blank=True)

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
        return f"{self.home} v {self.away} (week {self.week.number})"

    def teams(self) -> tuple[Team, Team]:
        return (self.home, self.away)
