"""A tournament's rows: the event and its rules, entrants, qualifying rounds with their tables,
byes and scorecard entries, and the playoff bracket. Rules of play live in ``logic`` and the
services; these are the records."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from league.kernel import lifecycle
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


class TableStatus(models.TextChoices):
    """What is stored of a table's state (``lifecycle.CardState``, coarser): one card in is
    still open, a checker's settlement is verified. ``TableGame.state`` tells them apart."""

    OPEN = "open", _("waiting for scorecards")
    MISMATCH = "mismatch", _("scorecards disagree: with the checkers")
    VERIFIED = "verified", _("verified")


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
        _("status"), max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN
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
    def state(self) -> lifecycle.CardState:
        """Open, entered by one side, verified, mismatch or settled by a checker."""
        return lifecycle.scorecard_state(self.cards)


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


class PlayoffMatch(models.Model):
    """A bracket slot: ``round`` from 1, ``position`` from 0 in bracket order. Round 1 holds
    the drawn pairings; the winner of position p goes to position p // 2 of the next round."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="playoff_matches",
        verbose_name=_("tournament"),
    )
    round = models.PositiveSmallIntegerField(_("playoff round"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    top = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("top entrant"),
    )
    bottom = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("bottom entrant"),
    )
    winner = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    is_bye = models.BooleanField(default=False, verbose_name=_("bye"))

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "position"], name="playoff_slot_unique"
            )
        ]
        verbose_name = _("playoff match")
        verbose_name_plural = _("playoff matches")

    def __str__(self) -> str:
        return f"{self.tournament} · {_('playoff round')} {self.round}, {self.position + 1}"


class PlayoffGame(models.Model):
    match = models.ForeignKey(
        PlayoffMatch, on_delete=models.CASCADE, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    winner = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner")
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    key = models.CharField(
        _("entry key"), max_length=64, unique=True, null=True, blank=True
    )  # made by the phone or the admin form: the same game sent again is stored once

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="playoff_game_unique")
        ]
        verbose_name = _("playoff game")
        verbose_name_plural = _("playoff games")

    def __str__(self) -> str:
        return f"{self.match}: {_('game')} {self.number}"


class PlayoffCard(models.Model):
    """One side's card for the next game of a playoff match, from a player's phone: two that
    agree record the game; two that differ wait for the director, whose entry decides it."""

    match = models.ForeignKey(
        PlayoffMatch, on_delete=models.CASCADE, related_name="cards", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    side = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("side")
    )
    winner = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner")
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    key = models.CharField(_("entry key"), max_length=64, unique=True, null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        ordering = ["match", "number", "at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number", "side"], name="one_playoff_card_per_side_and_game"
            )
        ]
        verbose_name = _("playoff card")
        verbose_name_plural = _("playoff cards")

    def __str__(self) -> str:
        return f"{self.match}: {_('game')} {self.number} · {self.side}"

    @property
    def result(self) -> tuple[int | None, int | None]:
        return (self.winner_id, self.loser_score)


# ------------------------------------------------------------------------------------------
# Club seasons: a club's weekly nights, scored across the season
# ------------------------------------------------------------------------------------------


class Club(models.Model):
    """A club that runs a series of nights (an ACC Grass Roots club, a bar's weekly night)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    venue = models.CharField(_("where it plays"), max_length=160, blank=True)
    guest_nights = models.PositiveSmallIntegerField(
        _("nights a guest may play"),
        default=3,
        help_text=_("ACC clubs let a guest play a few weeks before joining: past this, say so."),
    )
    # Who plays at the club; each membership (``ClubMember``) keeps the ACC number and status.
    members: models.ManyToManyField[Player, ClubMember] = models.ManyToManyField(
        Player, through="ClubMember", related_name="clubs", blank=True, verbose_name=_("members")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_clubs",
        blank=True,
        verbose_name=_("directors"),
        help_text=_("Who runs the club's nights from the director's workspace."),
    )
    # A night's defaults: "Tonight" makes a night with these.
    night_games = models.PositiveSmallIntegerField(_("games a night"), default=9)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=20)
    entry_fee = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    house_percent = models.PositiveSmallIntegerField(
        _("house / club share (% of entry fees)"), default=10
    )
    # The night's special-hand pot, opened by "Tonight" when it names hands and an entry.
    pot_hands = models.JSONField(
        _("special hands that win the pot"),
        default=list,
        blank=True,
        help_text=_('Any of "24", "28", "29" and "four_of_a_kind"; none: no pot.'),
    )
    pot_fee = models.PositiveIntegerField(_("special-hand pot entry (cents)"), default=0)
    pot_rolls_over = models.BooleanField(
        _("an unclaimed special-hand pot rolls over to the next night"), default=True
    )
    send_night_story = models.BooleanField(
        _("send the night's story"),
        default=False,
        help_text=_(
            "When a night is closed, send its story (winner, final, upsets, special hands, "
            "skunks) to the club's members with an account, each in their language."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class MemberStatus(models.TextChoices):
    MEMBER = "member", _("ACC member")
    GUEST = "guest", _("guest")
    VISITOR = "visitor", _("visitor (a member of another club)")


class ClubMember(models.Model):
    """A player's standing at a club: their ACC number (for the director's online entry) and
    whether they are a member, a guest (whose nights are counted) or a visiting member."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    acc_number = models.CharField(_("ACC number"), max_length=12, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=MemberStatus.choices, default=MemberStatus.MEMBER
    )

    class Meta:
        ordering = ["club__name", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")
        ]
        verbose_name = _("club member")
        verbose_name_plural = _("club members")

    def __str__(self) -> str:
        return f"{self.player} · {self.club}"


class ClubPointsMode(models.TextChoices):
    GAME_POINTS = "game_points", _("the night's game points, from a threshold")
    TABLE = "table", _("points by place (a table: 1st, 2nd, ...)")


def default_points_table() -> list[int]:
    return list(logic.ClubPoints().table)


class ClubSeason(models.Model):
    """A club's season: its nights (tournaments linked to it) and how a night earns points."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("first night"), null=True, blank=True)
    points_mode = models.CharField(
        _("points per night"),
        max_length=16,
        choices=ClubPointsMode.choices,
        default=ClubPointsMode.GAME_POINTS,
    )
    threshold = models.PositiveSmallIntegerField(
        _("game points needed to score"),
        default=logic.ClubPoints().threshold,
        help_text=_("With game points: an entrant below this scores 0 that night."),
    )
    points_table = models.JSONField(
        _("points by place"),
        default=default_points_table,
        blank=True,
        help_text=_("With points by place: the points for 1st, 2nd, ... in order."),
    )

    class Meta:
        ordering = ["club__name", "-starts", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="club_season_name_unique")
        ]
        verbose_name = _("club season")
        verbose_name_plural = _("club seasons")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"

    @property
    def scheme(self) -> logic.ClubPoints:
        return logic.ClubPoints(
            mode=self.points_mode,
            threshold=self.threshold,
            table=tuple(int(p) for p in self.points_table or ()),
        )


# ------------------------------------------------------------------------------------------
# Money (optional per event): the purse's settings, side pots and the ledger. Amounts are
# whole cents (integers), never floats.
# ------------------------------------------------------------------------------------------


class PayoutMode(models.TextChoices):
    PERCENT = "percent", _("percent of the prize fund")
    AMOUNT = "amount", _("fixed amounts")


class Purse(models.Model):
    """An event's money settings and the state of its books; an event without one keeps no
    money. ``payout_table`` holds a number per paid place (percents or cents, per
    ``payout_mode``); empty, about the top quarter is paid (as many places as the cut)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="purse", verbose_name=_("tournament")
    )
    entry_fee = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    house_percent = models.PositiveSmallIntegerField(
        _("house / club share (% of entry fees)"), default=10
    )
    payout_mode = models.CharField(
        _("payout table in"), max_length=8, choices=PayoutMode.choices, default=PayoutMode.PERCENT
    )
    payout_table = models.JSONField(_("payout table"), default=list, blank=True)
    closed_at = models.DateTimeField(_("night closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("purse")
        verbose_name_plural = _("purses")

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class SidePotKind(models.TextChoices):
    SKUNK = "skunk", _("skunk pot")
    BIG_HAND = "big_hand", _("special-hand pot")


class SidePot(models.Model):
    """A side pot of an event: entrants buy in; its winners share what came in (and what an
    earlier night of the club carried into it)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="side_pots", verbose_name=_("tournament")
    )
    kind = models.CharField(_("pot"), max_length=16, choices=SidePotKind.choices)
    fee = models.PositiveIntegerField(_("entry (cents)"))
    hands = models.JSONField(
        _("hands that win it"), default=list, blank=True
    )  # the special-hand pot's: any of contest.special_hands.KINDS ("24", "28", "29", ...)
    rolls_over = models.BooleanField(
        _("rolls over to the club's next night when unclaimed"), default=False
    )

    class Meta:
        ordering = ["kind"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind"], name="one_side_pot_of_a_kind")
        ]
        verbose_name = _("side pot")
        verbose_name_plural = _("side pots")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.get_kind_display()}"


class LedgerKind(models.TextChoices):
    FEE = "fee", _("entry fee")
    POT_ENTRY = "pot_entry", _("side pot entry")
    PAYOUT = "payout", _("payout")
    POT_PAYOUT = "pot_payout", _("side pot won")
    HOUSE = "house", _("house / club share")
    REFUND = "refund", _("refund")
    POT_CARRIED_IN = "pot_carried_in", _("side pot carried from the club's last night")
    POT_CARRIED_OUT = "pot_carried_out", _("side pot carried to the club's next night")


MONEY_IN = frozenset({LedgerKind.FEE, LedgerKind.POT_ENTRY, LedgerKind.POT_CARRIED_IN})
# What a side pot holds: its entries and what an earlier night carried into it.
POT_IN = frozenset({LedgerKind.POT_ENTRY, LedgerKind.POT_CARRIED_IN})


class LedgerEntry(models.Model):
    """One movement of money at the night: fees and pot entries in; payouts, pots won, the
    house share and refunds out. ``amount`` is positive cents; the kind says which way."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="ledger", verbose_name=_("tournament")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=LedgerKind.choices)
    # RESTRICT, not PROTECT: an entrant with money on the books is not deleted alone, but
    # deleting the whole tournament takes its ledger with it.
    entrant = models.ForeignKey(
        Entrant,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("entrant"),
    )
    pot = models.ForeignKey(
        SidePot,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("side pot"),
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    amount = models.PositiveIntegerField(_("amount (cents)"))
    # A pot carried in: the earlier night's carrying out it takes up (each is taken up once).
    carried_from = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="carried_to",
        verbose_name=_("carried from"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.amount}"

    @property
    def is_in(self) -> bool:
        return self.kind in MONEY_IN

    @property
    def signed(self) -> int:
        """Cents into the books (positive) or out of them (negative)."""
        return self.amount if self.is_in else -self.amount
