"""The federation's records: regions and the clubs in them, points schedules as dated rows with
their source, the results an event sends up (and their review), and the points they earned."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from contest.grp import GrassRootsRates, PoolStyle
from contest.mrp import EventKind, KindRates, Schedule


class Region(models.Model):
    """A region of the federation: its clubs' events count in its table."""

    name = models.CharField(_("name"), max_length=80, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("region")
        verbose_name_plural = _("regions")

    def __str__(self) -> str:
        return self.name


class ClubRegion(models.Model):
    """The region a club belongs to (one each)."""

    club = models.OneToOneField(
        "tournaments.Club",
        on_delete=models.CASCADE,
        related_name="federation_region",
        verbose_name=_("club"),
    )
    region = models.ForeignKey(
        Region, on_delete=models.PROTECT, related_name="clubs", verbose_name=_("region")
    )
    number = models.CharField(
        _("ACC club number"), max_length=12, blank=True, help_text=_("As the ACC's portal asks.")
    )

    class Meta:
        verbose_name = _("club's region")
        verbose_name_plural = _("clubs' regions")

    def __str__(self) -> str:
        return f"{self.club} · {self.region}"


class PointsSchedule(models.Model):
    """A Master Rating Points schedule in force from ``effective_from`` (until the next one),
    with where its numbers come from. Its minimums are :class:`ScheduleMinimum` rows."""

    effective_from = models.DateField(_("in force from"), unique=True)
    source = models.TextField(_("source"), help_text=_("Where these numbers come from."))
    main_factor = models.PositiveSmallIntegerField(_("main: points per game point"), default=5)
    main_flat = models.PositiveSmallIntegerField(_("main: bottom-half qualifier"), default=5)
    main_playoff = models.PositiveSmallIntegerField(_("main: playoff factor"), default=7)
    consolation_factor = models.PositiveSmallIntegerField(
        _("consolation: points per game point"), default=3
    )
    consolation_flat = models.PositiveSmallIntegerField(
        _("consolation: bottom-half qualifier"), default=3
    )
    consolation_playoff = models.PositiveSmallIntegerField(
        _("consolation: playoff factor"), default=4
    )

    class Meta:
        ordering = ["-effective_from"]
        verbose_name = _("points schedule")
        verbose_name_plural = _("points schedules")

    def __str__(self) -> str:
        return str(_("Points schedule from %(date)s") % {"date": self.effective_from.isoformat()})

    def as_schedule(self, minimums: list[ScheduleMinimum] | None = None) -> Schedule:
        """The schedule as the pure maths reads it (``minimums``: its rows, if already read)."""
        rows = self.minimums.all() if minimums is None else minimums

        def of(kind: str) -> tuple[tuple[int, int], ...]:
            return tuple(sorted((r.games, r.minimum) for r in rows if r.kind == kind))

        return Schedule(
            effective_from=self.effective_from,
            source=self.source,
            main=KindRates(self.main_factor, self.main_flat, self.main_playoff, of("main")),
            consolation=KindRates(
                self.consolation_factor,
                self.consolation_flat,
                self.consolation_playoff,
                of("consolation"),
            ),
        )


class ScheduleMinimum(models.Model):
    """One row of a schedule: the minimum game points for a qualifying game count and kind."""

    schedule = models.ForeignKey(PointsSchedule, on_delete=models.CASCADE, related_name="minimums")
    kind = models.CharField(
        _("event kind"),
        max_length=16,
        choices=[
            (EventKind.MAIN.value, _("main event")),
            (EventKind.CONSOLATION.value, _("consolation")),
        ],
    )
    games = models.PositiveSmallIntegerField(_("qualifying games"))
    minimum = models.PositiveSmallIntegerField(_("minimum game points"))

    class Meta:
        ordering = ["kind", "games"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "kind", "games"], name="one_minimum_per_game_count"
            )
        ]
        verbose_name = _("minimum game points")
        verbose_name_plural = _("minimum game points")

    def __str__(self) -> str:
        return f"{self.kind} {self.games}: {self.minimum}"


class SubmissionStatus(models.TextChoices):
    SENT = "sent", _("waiting for the statistician")
    RETURNED = "returned", _("sent back to the director")
    APPROVED = "approved", _("approved")


class Submission(models.Model):
    """An event's results sent up by its director, once: the statistician approves them (their
    points are then stored) or sends them back with a reason, and the director sends again."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="federation_submission",
        verbose_name=_("event"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=SubmissionStatus.choices, default=SubmissionStatus.SENT
    )
    package = models.JSONField(_("results as sent"), default=dict)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    sent_at = models.DateTimeField(_("sent at"))
    times_sent = models.PositiveSmallIntegerField(_("times sent"), default=1)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    reason = models.TextField(_("reason sent back"), blank=True)

    class Meta:
        ordering = ["-sent_at"]
        verbose_name = _("results sent up")
        verbose_name_plural = _("results sent up")

    def __str__(self) -> str:
        return str(self.tournament)


def season_of(day: date) -> int:
    """The federation's season (1 Aug to 31 Jul) a day falls in, named by its first year.

    >>> season_of(date(2026, 7, 31)), season_of(date(2026, 8, 1))
    (2025, 2026)
    """
    return day.year if day.month >= 8 else day.year - 1


class PointsRow(models.Model):
    """What one member earned at one approved event: the tables and careers are sums of these."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="rows")
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    region = models.ForeignKey(
        Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    acc_number = models.CharField(_("ACC number"), max_length=12)
    name = models.CharField(_("name"), max_length=120)
    season = models.PositiveSmallIntegerField(_("season"))
    date = models.DateField(_("date"))
    kind = models.CharField(_("event kind"), max_length=16)
    rank = models.PositiveSmallIntegerField(_("place"))
    game_points = models.PositiveSmallIntegerField(_("game points"))
    qualified = models.BooleanField(_("qualified"), default=False)
    playoff_wins = models.PositiveSmallIntegerField(_("playoff wins"), default=0)
    qualifying_points = models.PositiveIntegerField(_("qualifying points"), default=0)
    playoff_points = models.PositiveIntegerField(_("playoff points"), default=0)
    bonus_points = models.PositiveIntegerField(_("special-hand bonus"), default=0)
    points = models.PositiveIntegerField(_("points"), default=0)
    gr_points = models.PositiveIntegerField(_("Grass Roots points"), default=0)
    hands_28 = models.PositiveSmallIntegerField(_("28 hands"), default=0)
    hands_29 = models.PositiveSmallIntegerField(_("29 hands"), default=0)
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date", "rank"]
        indexes = [
            models.Index(
                fields=["season", "acc_number"],
                name="points_season_member",
                condition=models.Q(points__gt=0),
            ),
            models.Index(
                fields=["region", "season", "acc_number"],
                name="points_region_season",
                condition=models.Q(points__gt=0),
            ),
            models.Index(fields=["acc_number", "date"], name="points_member_career"),
            models.Index(
                fields=["season", "acc_number"],
                name="gr_season_member",
                condition=models.Q(gr_points__gt=0),
            ),
            models.Index(
                fields=["region", "season", "acc_number"],
                name="gr_region_season",
                condition=models.Q(gr_points__gt=0),
            ),
        ]
        verbose_name = _("points row")
        verbose_name_plural = _("points rows")

    def __str__(self) -> str:
        return f"{self.acc_number} · {self.tournament_id}: {self.points}"


class GrassRootsSchedule(models.Model):
    """Grass Roots points per club night, in force from ``effective_from`` (until the next
    one), with their source: a player who reaches ``threshold`` game points earns
    ``at_threshold`` points and ``per_game_point`` more for each game point above it."""

    effective_from = models.DateField(_("in force from"), unique=True)
    source = models.TextField(_("source"), help_text=_("Where these numbers come from."))
    threshold = models.PositiveSmallIntegerField(_("game points needed to score"), default=12)
    at_threshold = models.PositiveSmallIntegerField(_("points at the threshold"), default=12)
    per_game_point = models.PositiveSmallIntegerField(
        _("points per game point above it"), default=1
    )

    class Meta:
        ordering = ["-effective_from"]
        verbose_name = _("Grass Roots points schedule")
        verbose_name_plural = _("Grass Roots points schedules")

    def __str__(self) -> str:
        return str(
            _("Grass Roots points from %(date)s") % {"date": self.effective_from.isoformat()}
        )

    def as_rates(self) -> GrassRootsRates:
        return GrassRootsRates(self.threshold, self.at_threshold, self.per_game_point)


class Title(models.Model):
    """A lifetime title and the lifetime points that earn it (Master at 2,000 ...)."""

    name = models.CharField(_("name"), max_length=60, unique=True)
    name_fr = models.CharField(_("name in French"), max_length=60)
    points = models.PositiveIntegerField(_("lifetime points"), unique=True)
    source = models.TextField(_("source"))

    class Meta:
        ordering = ["points"]
        verbose_name = _("title")
        verbose_name_plural = _("titles")

    def __str__(self) -> str:
        return self.name

    def label(self, language: str | None) -> str:
        """The title's name in ``language`` (French has its own column)."""
        return self.name_fr if (language or "").startswith("fr") and self.name_fr else self.name


class HandBonus(models.Model):
    """Points for each special hand held in sanctioned play (a 29), from a date."""

    effective_from = models.DateField(_("in force from"))
    hand = models.CharField(_("hand"), max_length=4, choices=[("28", "28"), ("29", "29")])
    points = models.PositiveSmallIntegerField(_("points per hand"))
    source = models.TextField(_("source"))

    class Meta:
        ordering = ["hand", "-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "effective_from"], name="one_bonus_per_day")
        ]
        verbose_name = _("special-hand bonus")
        verbose_name_plural = _("special-hand bonuses")

    def __str__(self) -> str:
        return f"{self.hand}: {self.points}"


class InvitationRule(models.Model):
    """Who the Tournament of Champions invites for a season, from a date: the ``top_gr``
    members of the national Grass Roots table and, if ``club_champions``, every club's
    champion (the most Grass Roots points at its nights)."""

    effective_from = models.DateField(_("in force from"), unique=True)
    top_gr = models.PositiveSmallIntegerField(_("top Grass Roots members invited"), default=50)
    club_champions = models.BooleanField(_("every club champion invited"), default=True)
    source = models.TextField(_("source"))

    class Meta:
        ordering = ["-effective_from"]
        verbose_name = _("invitation rule")
        verbose_name_plural = _("invitation rules")

    def __str__(self) -> str:
        return str(_("Invitations from %(date)s") % {"date": self.effective_from.isoformat()})


class PayoutStyle(models.Model):
    """How a Q pool is shared among its qualifiers, as weights: the place ``i`` of ``n`` (from
    0) weighs ``base_weight + step x (n - 1 - i)``, the first place times ``lead_multiplier``.
    Equal: 1, 0, 1; equal with the top qualifier double: 1, 0, 2; graduated: 1, 1, 1."""

    code = models.SlugField(_("code"), max_length=20, unique=True)
    name = models.CharField(_("name"), max_length=80)
    name_fr = models.CharField(_("name in French"), max_length=80)
    base_weight = models.PositiveSmallIntegerField(_("base weight"), default=1)
    step = models.PositiveSmallIntegerField(_("extra weight per place above the last"), default=0)
    lead_multiplier = models.PositiveSmallIntegerField(_("first place's multiplier"), default=1)
    source = models.TextField(_("source"))

    class Meta:
        ordering = ["code"]
        verbose_name = _("payout style")
        verbose_name_plural = _("payout styles")

    def __str__(self) -> str:
        return self.name

    def label(self, language: str | None) -> str:
        return self.name_fr if (language or "").startswith("fr") and self.name_fr else self.name

    def as_style(self) -> PoolStyle:
        return PoolStyle(self.base_weight, self.step, self.lead_multiplier)


class QPool(models.Model):
    """A Q pool of a main event or consolation (at most two): the entrants who bought in, at
    ``entry`` cents each, share it by ``style`` if they qualify."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="q_pools"
    )
    number = models.PositiveSmallIntegerField(_("pool"))
    entry = models.PositiveIntegerField(_("entry (cents)"))
    style = models.ForeignKey(PayoutStyle, on_delete=models.PROTECT, verbose_name=_("payout"))
    entrants = models.JSONField(_("who bought in"), default=list)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_q_pool_number")
        ]
        verbose_name = _("Q pool")
        verbose_name_plural = _("Q pools")

    def __str__(self) -> str:
        return f"{self.tournament} · Q{self.number}"


class FeeRate(models.Model):
    """The sanctioning fee per entrant of an event kind, from a date, with why it was set."""

    kind = models.CharField(
        _("event kind"),
        max_length=16,
        choices=[
            (EventKind.MAIN.value, _("main event")),
            (EventKind.CONSOLATION.value, _("consolation")),
        ],
    )
    effective_from = models.DateField(_("in force from"))
    per_entrant = models.PositiveIntegerField(_("fee per entrant (cents)"))
    reason = models.TextField(_("reason"), help_text=_("Why this rate: kept on record."))

    class Meta:
        ordering = ["kind", "-effective_from"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "effective_from"], name="one_fee_rate_per_day")
        ]
        verbose_name = _("sanctioning fee rate")
        verbose_name_plural = _("sanctioning fee rates")

    def __str__(self) -> str:
        return f"{self.kind} {self.effective_from.isoformat()}: {self.per_entrant}"


class Commissioner(models.Model):
    """A regional commissioner: reviews the results their region's clubs send up and assigns
    clubs to their region."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="commissions"
    )
    region = models.ForeignKey(
        Region, on_delete=models.CASCADE, related_name="commissioners", verbose_name=_("region")
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "region"], name="one_commission_per_region")
        ]
        verbose_name = _("regional commissioner")
        verbose_name_plural = _("regional commissioners")

    def __str__(self) -> str:
        return f"{self.user} · {self.region}"


class Scope(models.TextChoices):
    NATIONAL = "national", _("national")
    REGION = "region", _("region")
    CLUB = "club", _("club")


class MemberSeason(models.Model):
    """A member's totals for a season, kept as results count (rebuilt from the points rows when
    results are approved or recomputed): nationally, in each region and at each club they
    earned points in. The tables, the champions and the invitations read these."""

    season = models.PositiveSmallIntegerField(_("season"))
    scope = models.CharField(_("scope"), max_length=8, choices=Scope.choices)
    region = models.ForeignKey(
        Region, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    acc_number = models.CharField(_("ACC number"), max_length=12)
    name = models.CharField(_("name"), max_length=120)
    points = models.PositiveIntegerField(_("points"), default=0)
    events = models.PositiveIntegerField(_("events"), default=0)
    gr_points = models.PositiveIntegerField(_("Grass Roots points"), default=0)
    nights = models.PositiveIntegerField(_("nights"), default=0)

    class Meta:
        indexes = [
            models.Index(fields=["season", "scope", "region", "-points"], name="totals_points"),
            models.Index(fields=["season", "scope", "region", "-gr_points"], name="totals_gr"),
            models.Index(fields=["season", "scope", "club", "-gr_points"], name="totals_club"),
            models.Index(fields=["season", "acc_number"], name="totals_member"),
        ]
        verbose_name = _("member's season")
        verbose_name_plural = _("members' seasons")

    def __str__(self) -> str:
        return f"{self.season} {self.scope} {self.acc_number}"
