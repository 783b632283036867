"""Games and their deals. A deal is never edited in place: a correction is a new version."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.dispatch import Signal
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.kernel.lifecycle import GameStatus  # the machine declares its states
from league.models.people import Player, Team
from league.models.schedule import Match
from scoring.outcome import SkunkLevel

# A game that is over: finished and waiting for a team to confirm it, disputed and waiting for a
# judge, or confirmed. The standings count these games; a season archive holds them as played.
OVER_STATUSES = frozenset({GameStatus.FINISHED, GameStatus.DISPUTED, GameStatus.CONFIRMED})
# Over, but not confirmed yet.
AWAITING_STATUSES = OVER_STATUSES - {GameStatus.CONFIRMED}


# The scorer declares the skunk levels; the league only names them for people.
SKUNK_NAMES = {
    SkunkLevel.NONE: _("no skunk"),
    SkunkLevel.SKUNK: _("skunk"),
    SkunkLevel.DOUBLE: _("double skunk"),
}
SKUNK_CHOICES = [(level.value, name) for level, name in SKUNK_NAMES.items()]


# Sent with ``match_ids`` after a write to games that goes around ``save()`` (a bulk insert, a
# ``QuerySet.update``): what is derived from a match's games (``league.services.tallies``)
# redoes those matches, in the same transaction. Saves and deletes send Django's own signals.
games_written = Signal()


class GameQuerySet(models.QuerySet["Game"]):
    """Bulk writes to games say which matches they touched (``games_written``)."""

    def update(self, **kwargs: Any) -> int:
        with transaction.atomic(using=self.db, savepoint=False):
            matches = set(self.values_list("match_id", flat=True))
            rows = super().update(**kwargs)
            moved_to = kwargs.get("match_id", getattr(kwargs.get("match"), "pk", None))
            if moved_to is not None:
                matches.add(moved_to)
            if matches:
                games_written.send(sender=Game, match_ids=matches)
        return rows

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Game]:
        with transaction.atomic(using=self.db, savepoint=False):
            made = super().bulk_create(objs, *args, **kwargs)
            matches = {game.match_id for game in made if game.status in OVER_STATUSES}
            if matches:
                games_written.send(sender=Game, match_ids=matches)
        return made

    def bulk_update(self, objs: Any, fields: Any, *args: Any, **kwargs: Any) -> int:
        objs = list(objs)
        with transaction.atomic(using=self.db, savepoint=False):
            rows = super().bulk_update(objs, fields, *args, **kwargs)
            matches = {game.match_id for game in objs}
            if matches:
                games_written.send(sender=Game, match_ids=matches)
        return rows


class Game(models.Model):
    """One game of a match. Scores and outcome are derived from the deals by the game service."""

    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"), default=0)
    home_side = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Which side (0: seats 0 and 2; 1: seats 1 and 3) the home team is."),
        verbose_name=_("home side"),
    )
    status = models.CharField(
        max_length=16,
        choices=GameStatus.choices,
        default=GameStatus.IN_PROGRESS,
        verbose_name=_("status"),
    )
    home_score = models.PositiveSmallIntegerField(default=0, verbose_name=_("home score"))
    away_score = models.PositiveSmallIntegerField(default=0, verbose_name=_("away score"))
    winner = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games_won",
        verbose_name=_("winner"),
    )
    margin = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("margin"))
    skunk_level = models.PositiveSmallIntegerField(
        choices=SKUNK_CHOICES, default=SkunkLevel.NONE, verbose_name=_("skunk")
    )
    home_points = models.PositiveSmallIntegerField(_("home league points"), default=0)
    away_points = models.PositiveSmallIntegerField(_("away league points"), default=0)
    deal_count = models.PositiveSmallIntegerField(default=0, verbose_name=_("deals played"))
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    # Vouching (league.kernel.lifecycle): how far each team vouched, and its first unsettled
    # rival entry.
    home_vouched = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("deals vouched for by the home team")
    )
    away_vouched = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("deals vouched for by the away team")
    )
    home_rival = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("home team's first rival entry")
    )
    away_rival = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("away team's first rival entry")
    )
    # The phone's key for "start this game": a second identical request gets the same game.
    start_key = models.CharField(max_length=64, null=True, blank=True, verbose_name=_("start key"))  # noqa: DJ001
    # A game lost by forfeit (no deal played): it names the forfeit, which says who and why.
    forfeit = models.ForeignKey(
        "league.Forfeit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("forfeit"),
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("confirmed at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    objects = GameQuerySet.as_manager()

    # Set on a game as it is read (from_db): whether the standings counted it then.
    counted_when_loaded: bool
    # Set by the API's prefetch of a game's deals (league.api.views.current_deals).
    current_deals: list[Deal]

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            # A voided game frees its number for the replay.
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=~models.Q(status="void"),
                name="game_number_unique",
            ),
            models.UniqueConstraint(fields=["start_key"], name="game_start_key_unique"),
            # One confirmation: a confirmed game always names who confirmed it.
            models.CheckConstraint(
                condition=~models.Q(status="confirmed") | models.Q(confirmed_at__isnull=False),
                name="confirmed_game_has_confirmation",
            ),
        ]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return gettext("%(match)s, game %(number)s") % {"match": self.match, "number": self.number}

    @classmethod
    def from_db(cls, db: str | None, field_names: Collection[str], values: Collection[Any]) -> Game:
        game = super().from_db(db, field_names, values)
        # Whether the standings counted this game as it was read: a save that takes it out of
        # them (a void, say) must still redo its match's tally (league.services.tallies).
        status = game.__dict__.get("status")
        game.counted_when_loaded = status is None or status in OVER_STATUSES
        return game

    @property
    def is_forfeit(self) -> bool:
        """Won by forfeit: no deal was played."""
        return self.forfeit_id is not None

    @property
    def is_over(self) -> bool:
        return self.status in OVER_STATUSES

    @property
    def skunk(self) -> SkunkLevel:
        return SkunkLevel(self.skunk_level)

    @property
    def is_skunk(self) -> bool:
        """A skunk or a double skunk."""
        return self.skunk >= SkunkLevel.SKUNK

    @property
    def is_double_skunk(self) -> bool:
        return self.skunk == SkunkLevel.DOUBLE

    @property
    def home_at_hole(self) -> int:
        """The home score as shown: a winner is shown at the game hole (the target), whatever
        was pegged past it; the margin is measured from there."""
        if self.winner_id is not None and self.winner_id == self.match.home_id:
            return self.away_score + (self.margin or 0)
        return self.home_score

    @property
    def away_at_hole(self) -> int:
        if self.winner_id is not None and self.winner_id == self.match.away_id:
            return self.home_score + (self.margin or 0)
        return self.away_score

    def team_for_side(self, side: int) -> Team:
        return self.match.home if side == self.home_side else self.match.away

    def side_for_team(self, team: Team) -> int:
        return self.home_side if team.pk == self.match.home_id else 1 - self.home_side


class GameSeat(models.Model):
    """Who sits where: seats clockwise; partners sit opposite (seats 0 and 2, 1 and 3)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    is_sub = models.BooleanField(
        _("sat as a sub"),
        default=False,
        help_text=_("A player of the season's sub list, sitting for an absent partner."),
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return gettext("seat %(seat)s: %(player)s") % {"seat": self.seat, "player": self.player}


class Deal(models.Model):
    """One deal of a game, as entered. Corrections add a new version and keep this one."""

    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="deals", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    version = models.PositiveSmallIntegerField(default=1, verbose_name=_("version"))
    is_current = models.BooleanField(default=True, verbose_name=_("current version"))
    dealer = models.PositiveSmallIntegerField(_("dealer (seat)"))
    starter = models.CharField(_("starter"), max_length=3, blank=True)
    heels = models.BooleanField(_("his heels"), default=False)
    pegging = models.JSONField(_("pegging per side"))
    shows = models.JSONField(_("shows per seat"))
    crib = models.PositiveSmallIntegerField(_("crib"), null=True, blank=True)
    cards = models.JSONField(_("cards"), null=True, blank=True)
    home_after = models.PositiveSmallIntegerField(default=0, verbose_name=_("home score after"))
    away_after = models.PositiveSmallIntegerField(default=0, verbose_name=_("away score after"))
    # NULL, not "": deals entered without a key must not collide on the unique constraint.
    key = models.CharField(max_length=64, null=True, blank=True, verbose_name=_("entry key"))  # noqa: DJ001
    fingerprint = models.CharField(max_length=64, blank=True, verbose_name=_("fingerprint"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    reason = models.TextField(_("reason for the correction"), blank=True)
    # A reason the system wrote (league.kernel.stored_texts): its code and parameters, so it
    # reads in the reader's language; ``reason`` keeps its words as written.
    reason_code = models.CharField(max_length=32, blank=True, default="", editable=False)
    reason_params = models.JSONField(blank=True, default=dict, editable=False)
    # A second entry of a deal number with other numbers is kept as a rival, never dropped,
    # until it is settled (a ruling, a correction that agrees with it, or its team accepting
    # the stored numbers).
    is_rival = models.BooleanField(default=False, verbose_name=_("rival entry"))
    settled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("settled at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("entered at"))

    class Meta:
        ordering = ["game", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=models.Q(is_current=True),
                name="one_current_version_per_deal",
            ),
            models.UniqueConstraint(fields=["game", "number", "version"], name="deal_version"),
            models.UniqueConstraint(fields=["key"], name="deal_idempotency_key"),
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        name = gettext("%(game)s, deal %(number)s") % {"game": self.game, "number": self.number}
        return name + (f" (v{self.version})" if self.version > 1 else "")

    @property
    def reason_text(self) -> str:
        """Why this version was entered, in the reader's language when the system wrote it."""
        from league.kernel.stored_texts import fixed, render

        return render(self.reason_code, self.reason_params, fixed(self.reason))

    def after_at_hole(self, target: int) -> tuple[int, int]:
        """The running totals (home, away) after this deal as shown: a side that went out is
        counted at the game hole (``target``), whatever the last deal pegged or counted past
        it, as ``Game.home_at_hole`` shows the result."""
        return min(self.home_after, target), min(self.away_after, target)
