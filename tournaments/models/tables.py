"""Qualifying rounds: the tables of a round, byes and the players' scorecard entries."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.kernel import lifecycle
from league.shared import Player
from tournaments.models.events import Entrant, Tournament


class RoundStatus(models.TextChoices):
    SEATED = "seated", _("seated")
    STARTED = "started", _("under way")


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.SEATED
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return gettext("%(tournament)s · round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class TableState(models.TextChoices):
    """Where a table's result stands: the one vocabulary of a table's state, read by the
    workspace, the director's floor view, the playoff cards, the API (``state``) and the
    templates. ``TableGame.status`` stores three of them (``STORED_STATES``: one card in is
    still open, a checker's settlement is verified); ``TableGame.state`` tells all five apart.
    The words the floor view's pages and the playoff card answer have always shown are read
    from here (``floor``, ``card_word``), never spelled elsewhere."""

    OPEN = "open", _("waiting for scorecards")  # no card yet
    ENTERED = "entered", _("one card in")  # one side's card is in: waiting for the other's
    VERIFIED = "verified", _("verified")  # two cards agree
    MISMATCH = "mismatch", _("scorecards disagree: with the checkers")
    SETTLED = "settled", _("settled by a checker")  # a checker's entry settled it

    @property
    def is_done(self) -> bool:
        """The table's result stands (two cards agree, or a checker settled it)."""
        return self in (TableState.VERIFIED, TableState.SETTLED)

    @property
    def stored(self) -> TableState:
        """What ``TableGame.status`` keeps of this state."""
        if self.is_done:
            return TableState.VERIFIED
        return TableState.MISMATCH if self == TableState.MISMATCH else TableState.OPEN

    @property
    def floor(self) -> str:
        """The director's floor view's word (its ``data-state`` and counts)."""
        return _FLOOR_WORDS[self]

    @property
    def card_word(self) -> str:
        """The playoff card answer's word (the API's ``card``) for a game in this state."""
        return _CARD_WORDS[self]


# What the stored column holds, in its choices' order (the migrations' choices, unchanged).
STORED_STATES = (TableState.OPEN, TableState.MISMATCH, TableState.VERIFIED)

_FLOOR_WORDS = {
    TableState.OPEN: "waiting",
    TableState.ENTERED: "one_card",
    TableState.VERIFIED: "done",
    TableState.SETTLED: "done",
    TableState.MISMATCH: "disagree",
}
_CARD_WORDS = {
    TableState.ENTERED: "waiting",
    TableState.VERIFIED: "recorded",
    TableState.MISMATCH: "disagree",
}


def table_state(cards: Iterable[lifecycle.ScorecardEntry]) -> TableState:
    """A table's state, from its cards through ``lifecycle.status_of``."""
    cards = list(cards)
    status = lifecycle.status_of(lifecycle.scorecard_facts(cards))
    if status == lifecycle.GameStatus.IN_PROGRESS:
        return TableState.OPEN
    if status == lifecycle.GameStatus.FINISHED:
        return TableState.ENTERED
    if status == lifecycle.GameStatus.DISPUTED:
        return TableState.MISMATCH
    return TableState.SETTLED if any(c.side is None for c in cards) else TableState.VERIFIED


class TableGame(models.Model):
    """One qualifying game at a numbered table; its result is set once verified."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round")
    )
    table = models.PositiveSmallIntegerField(_("table"))
    first = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("first entrant")
    )
    second = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("second entrant")
    )
    status = models.CharField(
        _("status"),
        max_length=16,
        choices=[(s.value, s.label) for s in STORED_STATES],
        default=TableState.OPEN,
    )
    winner = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True, verbose_name=_("verified at"))
    # Each side's own signed spread, set only when ACC Rule 12.2 left the two sides different
    # figures: 12.2(b) (a 16-point win, a 17-point loss) and 12.2(e) (a loss for both, with no
    # winner). The standings read these instead of the one result.
    first_spread = models.SmallIntegerField(_("first entrant's spread"), null=True, blank=True)
    second_spread = models.SmallIntegerField(_("second entrant's spread"), null=True, blank=True)

    class Meta:
        ordering = ["round__number", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="table_unique_in_round")
        ]
        verbose_name = _("table game")
        verbose_name_plural = _("table games")

    def __str__(self) -> str:
        return gettext("Table %(table)s: %(first)s v %(second)s") % {
            "table": self.table,
            "first": self.first,
            "second": self.second,
        }

    def side_of_player(self, player: Player) -> Entrant | None:
        """The entrant of this table that ``player`` plays for, or None."""
        for entrant in (self.first, self.second):  # players prefetched for a list: no query
            if any(p.pk == player.pk for p in entrant.players.all()):
                return entrant
        return None

    def side_index(self, entrant_id: int | None) -> int | None:
        """0 for the table's first entrant, 1 for its second, None for neither."""
        return {self.first_id: 0, self.second_id: 1}.get(entrant_id)  # type: ignore[arg-type]

    @property
    def cards(self) -> list[lifecycle.ScorecardEntry]:
        """The table's scorecards as ``lifecycle`` reads them (``scorecards`` prefetched or
        one query)."""
        return [
            lifecycle.ScorecardEntry(
                side=None if c.by_checker else self.side_index(c.side_id),
                result=(c.winner_id, c.loser_score),
            )
            for c in self.scorecards.all()
        ]

    @property
    def facts(self) -> lifecycle.Facts:
        return lifecycle.scorecard_facts(self.cards)

    @property
    def state(self) -> TableState:
        """Open, entered by one side, verified, mismatch or settled by a checker."""
        return table_state(self.cards)


class CheckersQueue(TableGame):
    """The games whose two scorecards disagree: TableGame as the checkers' admin lists it."""

    class Meta:
        proxy = True
        verbose_name = _("scorecard to check")
        verbose_name_plural = _("checkers' queue")


class AccRuling(TableGame):
    """The tables whose two cards ACC Rule 12.2 settled: TableGame as the checkers' admin
    lists them, with the clause applied, for a checker to undo."""

    class Meta:
        proxy = True
        verbose_name = _("table settled by the ACC rule")
        verbose_name_plural = _("tables settled by the ACC rule")


class PaperScorecard(TableGame):
    """The tables of a running round still waiting for a card: TableGame as a checker keying
    in a paper scorecard for one side lists it."""

    class Meta:
        proxy = True
        verbose_name = _("paper scorecard")
        verbose_name_plural = _("paper scorecards")


class Bye(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round")
    )
    entrant = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="byes", verbose_name=_("entrant")
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_bye_per_round")
        ]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")

    def __str__(self) -> str:
        return f"{self.round}: {self.entrant}"


class Scorecard(models.Model):
    """One side's entry of a game's result (a player's phone, or a checker's paper card)."""

    game = models.ForeignKey(
        TableGame, on_delete=models.CASCADE, related_name="scorecards", verbose_name=_("game")
    )
    side = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("side"),
    )  # None: a checker's ruling
    winner = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )  # None only for an ACC ruling that makes it a loss for both (12.2(e))
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    by_checker = models.BooleanField(default=False, verbose_name=_("entered by a checker"))
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))
    key = models.CharField(
        _("entry key"), max_length=64, unique=True, null=True, blank=True
    )  # made by the phone: the same card sent again is stored once
    deals = models.JSONField(
        _("deals"), null=True, blank=True
    )  # a card entered deal by deal: {"first_dealer": seat, "deals": [the one deal shape]}
    acc_clause = models.CharField(
        _("ACC rule applied"), max_length=24, blank=True, default=""
    )  # a ruling made by ACC Rule 12.2, not by a checker: the clauses it applied, "12.2(a)"
    # An ACC ruling's own figure for each side, when the two differ (12.2(b), 12.2(e)).
    first_spread = models.SmallIntegerField(_("first entrant's spread"), null=True, blank=True)
    second_spread = models.SmallIntegerField(_("second entrant's spread"), null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("scorecard entry")
        verbose_name_plural = _("scorecard entries")

    def __str__(self) -> str:
        return f"{self.game}: {self.winner} ({self.loser_score})"

    @property
    def result(self) -> tuple[int | None, int | None]:
        return (self.winner_id, self.loser_score)
