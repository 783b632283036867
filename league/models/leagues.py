"""Leagues, seasons (each with its own copy of the rules) and venues."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.db.models import Min, Q
from django.utils.translation import gettext_lazy as _

from league.models.rules import RULE_FIELDS, Rules, default_tiebreaks  # noqa: F401 (migrations)


class DealtCards(models.TextChoices):
    """Whether a league's players may record the cards they were dealt."""

    OFF = "off", _("Off")
    ALLOWED = "allowed", _("Allowed: a player may record them")
    ASKED = "asked", _("Asked: each player is asked for them after a deal")


class League(Rules):
    """A league: its name and the default rules each new season starts from."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    # Not a rule of play (so not copied to seasons): whether players record their dealt cards.
    dealt_cards = models.CharField(
        _("cards dealt"),
        max_length=8,
        choices=DealtCards.choices,
        default=DealtCards.OFF,
        help_text=_(
            "Whether players may record the cards they were dealt, to see what each discard "
            "cost them (private to each player)."
        ),
    )
    # Where its nights are played: calendar feeds and reminders give their times in it (a venue
    # with its own zone keeps it; ``league.services.time_zones``).
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_(
            "Where the league plays, as Europe/Paris or America/Toronto. Empty: the site's."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name


class SeasonState(models.TextChoices):
    """A season's life: draft -> published -> running -> finished.

    ``running`` is never stored: a published season runs from its first night's date (see
    :meth:`Season.state_on`), so "current" follows from the state and the dates and cannot
    disagree with them. The other three are stored and change only through the services of
    ``league/services/seasons.py`` (publish, back to draft, finish, reopen), on record.
    """

    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


def _first_night_filter() -> Q:
    return Q(weeks__is_playoff=False)


class SeasonQuerySet(models.QuerySet["Season"]):
    def shown(self) -> SeasonQuerySet:
        """Every season that exists for its league's organisers: not one a season import is
        still writing."""
        return self.filter(importing=False)

    def public(self) -> SeasonQuerySet:
        """The seasons everyone sees: not a draft (only organisers see those)."""
        return self.shown().exclude(state=SeasonState.DRAFT)

    def with_first_night(self) -> SeasonQuerySet:
        """Each season with ``first_night_date``: the date of its first regular week (None if
        no week is dated)."""
        return self.annotate(first_night_date=Min("weeks__date", filter=_first_night_filter()))

    def running(self, today: dt.date) -> SeasonQuerySet:
        """Published seasons whose first night has come (or whose nights have no date)."""
        return (
            self.public()
            .with_first_night()
            .filter(state=SeasonState.PUBLISHED)
            .filter(Q(first_night_date__lte=today) | Q(first_night_date__isnull=True))
        )

    def upcoming(self, today: dt.date) -> SeasonQuerySet:
        """Published seasons still to start: a league's "next season"."""
        return (
            self.public()
            .with_first_night()
            .filter(Q(state=SeasonState.PUBLISHED) & Q(first_night_date__gt=today))
        )

    def open(self) -> SeasonQuerySet:
        """Running or next: published and not finished (a captain's matches come from these)."""
        return self.public().filter(state=SeasonState.PUBLISHED)


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
    state = models.CharField(
        _("state"),
        max_length=12,
        choices=[(c.value, c.label) for c in SeasonState if c is not SeasonState.RUNNING],
        default=SeasonState.DRAFT,
        editable=False,
        help_text=_("Changed by publishing or finishing the season, never by hand."),
    )
    finished_reason = models.CharField(
        _("why it was finished"), max_length=500, blank=True, editable=False
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, editable=False)
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
    # What a forfeit is worth (league.services.forfeits). The defaults: the team that turned up
    # wins every game not yet played, each at the points of a win, with no skunk and no spread.
    forfeit_games = models.PositiveSmallIntegerField(
        _("games awarded for a forfeit"),
        null=True,
        blank=True,
        help_text=_("Empty: every game of the match not yet played."),
    )
    forfeit_points = models.PositiveSmallIntegerField(
        _("league points per forfeited game"),
        null=True,
        blank=True,
        help_text=_("Empty: the points of a win."),
    )
    forfeit_wins_week = models.BooleanField(
        _("a forfeit counts as a week won"),
        default=True,
        help_text=_(
            "On: a match with a forfeit is over, and the team with more games (those played and "
            "those the forfeit gave) wins the week. Off: a match with a forfeit gives nobody the "
            "week, even when the team that came had already won the games played; its games "
            "still count as won and lost, with their league points."
        ),
    )
    # Results that close (league.services.closing): a finished game nobody disputed is confirmed
    # by the league after this many hours; empty: never.
    close_after_hours = models.PositiveSmallIntegerField(
        _("results close after (hours)"),
        null=True,
        blank=True,
        default=72,
        help_text=_(
            "A finished game the other team has neither confirmed nor disputed is confirmed by "
            "the league after this many hours. Empty: never."
        ),
    )
    makeup_days = models.PositiveSmallIntegerField(
        _("days to play a postponed match"),
        default=14,
        help_text=_(
            "A postponed match is played within this many days of its night, and never in the "
            "season's last two weeks."
        ),
    )
    # The week's story (league.selectors.recap) mailed to the season's players once every match
    # of a week is over (league.services.notify.notify_week_stories). Off unless chosen.
    send_week_story = models.BooleanField(
        _("send the week's story"),
        default=False,
        help_text=_(
            "Once every match of a week is over, send its story (results, upsets, special "
            "hands, skunks, standings moves) to the season's players, each in their language."
        ),
    )
    # When the setting was last turned on: the weeks over before it are not sent (no flood of
    # old stories when a league turns it on mid-season).
    week_story_since = models.DateTimeField(
        _("sending the week's story since"), null=True, blank=True, editable=False
    )
    playoff_min_nights = models.PositiveSmallIntegerField(
        _("nights to play for the playoffs"),
        null=True,
        blank=True,
        help_text=_(
            "Each player of a team must have played at least this many nights for the team to "
            "be drawn into the playoffs. Empty: no such rule."
        ),
    )
    playoff_absent_nights_count = models.BooleanField(
        _("nights not played through no fault count for the playoffs"),
        default=True,
        help_text=_(
            "A night the other team forfeited counts as a night played for each player of the "
            "team that came, and a cancelled night for each player of both teams. Off: only the "
            "nights a player sat at a table count."
        ),
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

    def first_night(self) -> dt.date | None:
        """The date of the first regular week (as ``with_first_night`` annotated it, else read
        once)."""
        if "first_night_date" not in self.__dict__:
            self.__dict__["first_night_date"] = self.weeks.filter(is_playoff=False).aggregate(
                d=Min("date")
            )["d"]
        night: dt.date | None = self.__dict__["first_night_date"]
        return night

    def state_on(self, today: dt.date) -> SeasonState:
        """The season's state on ``today``: ``running`` is a published season whose first night
        has come (a season whose nights have no date runs once published)."""
        if self.state != SeasonState.PUBLISHED:
            return SeasonState(self.state)
        night = self.first_night()
        return SeasonState.RUNNING if night is None or night <= today else SeasonState.PUBLISHED

    def is_current_on(self, today: dt.date) -> bool:
        """Running on ``today``: the season being played (its scoreboard, "current")."""
        return self.state_on(today) is SeasonState.RUNNING


class Venue(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    address = models.CharField(_("address"), max_length=250, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("Where the venue is, as Europe/Paris or America/Toronto. Empty: its league's."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")

    def __str__(self) -> str:
        return self.name
