"""The schedule: weeks of a season and the matches played in them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
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
    # A night called off for everyone (weather, a closed bar): kept in the schedule, said so.
    cancelled_reason = models.TextField(_("why the night is cancelled"), blank=True)

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
    # A postponed match keeps its week (its place in the standings and the round robin) and is
    # played on its own date (league.services.postponements).
    date = models.DateField(
        _("its own date"),
        null=True,
        blank=True,
        help_text=_("A postponed match's make-up date; empty: its week's date."),
    )
    # A game starts on the match's night (``checks.night_refusal``) unless the organiser allows
    # an earlier start for this match.
    early_start = models.BooleanField(
        _("may start before its night"),
        default=False,
        help_text=_("The organiser lets its games start before the night it is played."),
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

    @property
    def is_postponed(self) -> bool:
        return self.date is not None and self.date != self.week.date

    @property
    def when(self) -> Any:
        """The date it is played: its own, else its week's."""
        return self.date or self.week.date


class PostponementStatus(models.TextChoices):
    ASKED = "asked", _("asked, waiting for the other team")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    DECIDED = "decided", _("decided by the organiser")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Postponement(models.Model):
    """A request to play a match on another date (a captain's, which the other captain accepts
    or declines) or the organiser's decision. The match keeps its week; once accepted or
    decided, the match's ``date`` is the new one."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="postponements", verbose_name=_("match")
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("team that asked"),
    )
    date = models.DateField(_("proposed date"))
    reason = models.TextField(_("reason"))
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=PostponementStatus.choices,
        default=PostponementStatus.ASKED,
    )
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("asked by"),
    )
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("asked at"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))

    class Meta:
        ordering = ["match", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status="asked"),
                name="one_open_postponement_per_match",
            )
        ]
        verbose_name = _("postponement")
        verbose_name_plural = _("postponements")

    def __str__(self) -> str:
        return gettext("%(match)s to %(date)s") % {"match": self.match, "date": self.date}
