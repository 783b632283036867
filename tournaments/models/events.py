"""The event and its rules, its entrants and their players."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.shared import Player
from tournaments import logic


class Kind(models.TextChoices):
    CLUB_NIGHT = "club-night", _("club night")
    MAIN = "main", _("main event")
    CONSOLATION = "consolation", _("consolation")
    SATELLITE = "satellite", _("satellite")


class TournamentVariant(models.TextChoices):
    SINGLES = "singles-121", _("singles to 121")
    PARTNERSHIP = "partnership-121", _("partnership (teams of two) to 121")


class TournamentStage(models.TextChoices):
    REGISTRATION = "registration", _("registration")
    QUALIFYING = "qualifying", _("qualifying")
    PLAYOFFS = "playoffs", _("playoffs")
    FINISHED = "finished", _("finished")


# The event's rule settings: each column of ``Tournament`` and the ``TournamentRules`` field it
# holds, declared once (the rules property, creating an event, editing one and the archive read
# this, not a list of their own).
RULE_FIELDS = {
    "target": "target",
    "skunk_margin": "skunk_margin",
    "double_skunk_margin": "double_skunk_margin",
    "points_win": "win",
    "points_skunk": "skunk",
    "points_double_skunk": "double_skunk",
    "points_loss": "loss",
    "bye_game_points": "bye_game_points",
    "bye_spread": "bye_spread",
    "tiebreaks": "tiebreaks",
    "qualify_one_in": "qualify_one_in",
    "playoff_best_of": "playoff_best_of",
}


def default_tiebreaks() -> list[str]:
    return list(logic.TournamentRules().tiebreaks)


class Tournament(models.Model):
    """One event and its rules, every setting editable per event (ACC defaults)."""

    name = models.CharField(_("name"), max_length=160, unique=True)
    date = models.DateField(_("date"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.CLUB_NIGHT)
    variant = models.CharField(
        _("variant"),
        max_length=20,
        choices=TournamentVariant.choices,
        default=TournamentVariant.SINGLES,
    )
    stage = models.CharField(
        _("stage"),
        max_length=16,
        choices=TournamentStage.choices,
        default=TournamentStage.REGISTRATION,
    )
    games_per_entrant = models.PositiveSmallIntegerField(
        _("qualifying games"), default=9, help_text=_("Club nights 9; main events 12 to 22.")
    )
    target = models.PositiveSmallIntegerField(_("game to"), default=121)
    skunk_margin = models.PositiveSmallIntegerField(_("skunk margin"), default=31)
    double_skunk_margin = models.PositiveSmallIntegerField(_("double skunk margin"), default=61)
    points_win = models.PositiveSmallIntegerField(_("game points for a win"), default=2)
    points_skunk = models.PositiveSmallIntegerField(_("game points for a skunk"), default=3)
    points_double_skunk = models.PositiveSmallIntegerField(
        _("game points for a double skunk"), default=3
    )
    points_loss = models.PositiveSmallIntegerField(_("game points for a loss"), default=0)
    bye_game_points = models.PositiveSmallIntegerField(_("game points for a bye"), default=2)
    bye_spread = models.IntegerField(_("spread for a bye"), default=0)
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_tiebreaks)
    qualify_one_in = models.PositiveSmallIntegerField(_("one qualifier in"), default=4)
    playoff_best_of = models.PositiveSmallIntegerField(_("playoff matches best of"), default=3)
    draw_seed = models.PositiveIntegerField(_("draw seed"), default=0)
    acc_rules = models.BooleanField(
        _("cross-check by ACC rules"),
        default=True,
        help_text=_(
            "Two scorecards that disagree are settled by ACC Rule 12.2 when it can (on by "
            "default for club nights); the rest go to the checkers."
        ),
    )
    acc_no_harm = models.BooleanField(
        _("ACC Rule 12.2(h): no harm, no foul"),
        default=True,
        help_text=_(
            "When an apparent qualifier's own card already holds the figure worse for them, "
            "both card entries stand. The rule's text at hand stops mid-sentence: this is how "
            "secondary sources read it. Off: rules (a) and (b) apply instead."
        ),
    )
    games_per_opponent = models.PositiveSmallIntegerField(
        _("games against each opponent"),
        default=1,
        help_text=_("1, or 2: each pairing plays two games in a row, who deals first alternating."),
    )
    keep_apart = models.JSONField(
        _("kept apart"),
        default=list,
        blank=True,
        help_text=_(
            "Pairs of entrants the seating never puts at one table when it can avoid it "
            "(family, the same club): each [name, name]."
        ),
    )
    tiebreak_playoffs = models.JSONField(
        _("tie-break playoffs"),
        default=list,
        blank=True,
        help_text=_(
            "The one-game playoffs played to separate entrants level at the cut, each "
            "[winner, loser], where the tie-breaks end in a playoff."
        ),
    )
    club_season = models.ForeignKey(
        "ClubSeason",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="nights",
        verbose_name=_("club season"),
        help_text=_("The club season this night counts toward, if any."),
    )
    club = models.ForeignKey(
        "Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="club_nights",
        verbose_name=_("club"),
        help_text=_("The club whose night this is (made from its defaults), if any."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"),
        default=0,
        help_text=_("The round clock counts down this long from a round's start; 0: no clock."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> logic.TournamentRules:
        values = {name: getattr(self, field) for field, name in RULE_FIELDS.items()}
        # Stored JSON may be anything a form let through (``0``, ``[[1]]``): each key as text,
        # so the rules' own check refuses what is no tie-break, in words, instead of a 500.
        raw = values["tiebreaks"]
        keys = raw if isinstance(raw, list | tuple) else [raw]
        tiebreaks = tuple(k if isinstance(k, str) else str(k) for k in keys)
        return logic.TournamentRules(**{**values, "tiebreaks": tiebreaks})

    @property
    def is_partnership(self) -> bool:
        return self.variant == TournamentVariant.PARTNERSHIP


class EntrantStatus(models.TextChoices):
    REGISTERED = "registered", _("registered")
    CHECKED_IN = "checked_in", _("checked in")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Entrant(models.Model):
    """A player (singles) or a team of two (partnership), by a name unique in the event."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entrants", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=120)
    number = models.PositiveIntegerField(_("entry number"))  # registration order
    players: models.ManyToManyField[Player, EntrantPlayer] = models.ManyToManyField(
        Player,
        through="EntrantPlayer",
        related_name="tournament_entries",
        blank=True,
        verbose_name=_("players"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=EntrantStatus.choices, default=EntrantStatus.REGISTERED
    )
    seed = models.PositiveSmallIntegerField(_("playoff seed"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="entrant_name_unique"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_unique"),
        ]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")

    def __str__(self) -> str:
        return self.name


class EntrantPlayer(models.Model):
    """A player of an entrant, in the order the entry names them."""

    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="roster", verbose_name=_("entrant")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(default=0, verbose_name=_("position"))

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "player"], name="entrant_player_unique")
        ]
        verbose_name = _("entrant's player")
        verbose_name_plural = _("entrants' players")

    def __str__(self) -> str:
        return str(self.player)
