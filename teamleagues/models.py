"""Team leagues' records: a league and its organisers, its match format (settings, with a row per
board), seasons of divisions, the teams (a club or pub, a captain, players and reserves), the
fixtures, the boards the captains name, and each leg as both captains entered it.

Writes go through ``teamleagues/services.py``; what a match or a table adds up to is computed
by ``contest.teamleague`` from these rows, never stored twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from contest.teamleague import MatchRules


class Kind(models.TextChoices):
    SINGLES = "singles", _("Singles")
    PAIRS = "pairs", _("Pairs")


class Variant(models.TextChoices):
    SIX_CARD = "six-card", _("Six-card")
    FIVE_CARD = "five-card", _("Five-card")


class DecidedBy(models.TextChoices):
    BOARDS = "boards", _("Boards won")
    LEGS = "legs", _("Legs won")
    POINTS = "points", _("Leg and board points")


class Naming(models.TextChoices):
    SAME_PAIR = "same_pair", _("Same pair all night: each board named before its first leg")
    BEFORE_MATCH = "before_match", _("Names in before the match: every board before any leg")


class EntryMode(models.TextChoices):
    LEG_RESULT = "leg_result", _("A leg's result: winner and loser's score")
    DEAL_BY_DEAL = "deal_by_deal", _("Deal by deal")


class Side(models.TextChoices):
    HOME = "home", _("Home")
    AWAY = "away", _("Away")


class TeamLeague(models.Model):
    """A team league: a name and the people who run it."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="team_leagues_organised",
        verbose_name=_("organisers"),
    )
    feeds = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="feeders",
        verbose_name=_("qualifies into"),
        help_text=_(
            "The next level (zone, then provincial, then national): its organisers enter "
            "this league's cup winners."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("team league")
        verbose_name_plural = _("team leagues")

    def __str__(self) -> str:
        return self.name


class MatchFormat(models.Model):
    """How a league's match is played and scored (a league's settings, one row per league)."""

    league = models.OneToOneField(
        TeamLeague, on_delete=models.CASCADE, related_name="format", verbose_name=_("league")
    )
    team_size = models.PositiveSmallIntegerField(
        _("players a side"), default=10, help_text=_("From 2 to 10 players named for a match.")
    )
    reserves = models.PositiveSmallIntegerField(_("reserves a team may list"), default=4)
    legs_per_board = models.PositiveSmallIntegerField(_("legs per board"), default=3)
    best_of = models.BooleanField(
        _("best of the legs"),
        default=False,
        help_text=_("A board ends once a side has won most of its legs; otherwise all are played."),
    )
    target = models.PositiveSmallIntegerField(_("a leg is played to"), default=121)
    points_per_leg = models.PositiveSmallIntegerField(_("points per leg won"), default=1)
    points_per_board = models.PositiveSmallIntegerField(_("points per board won"), default=0)
    points_win = models.PositiveSmallIntegerField(_("points for a match won"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("points for a match drawn"), default=1)
    decided_by = models.CharField(
        _("the match is won on"), max_length=10, choices=DecidedBy.choices, default=DecidedBy.LEGS
    )
    naming = models.CharField(
        _("naming the players"), max_length=14, choices=Naming.choices, default=Naming.SAME_PAIR
    )
    entry_mode = models.CharField(
        _("entry at the table"),
        max_length=14,
        choices=EntryMode.choices,
        default=EntryMode.LEG_RESULT,
    )

    class Meta:
        verbose_name = _("match format")
        verbose_name_plural = _("match formats")

    def __str__(self) -> str:
        return str(_("Match format of %(league)s") % {"league": self.league})

    def rules(self) -> MatchRules:
        return MatchRules(
            legs=self.legs_per_board,
            best_of=self.best_of,
            per_leg=self.points_per_leg,
            per_board=self.points_per_board,
            win=self.points_win,
            draw=self.points_draw,
            decided_by=self.decided_by,
        )


class FormatBoard(models.Model):
    """One board of a match, in the order it is played: singles or pairs, and its game."""

    format = models.ForeignKey(
        MatchFormat, on_delete=models.CASCADE, related_name="boards", verbose_name=_("format")
    )
    number = models.PositiveSmallIntegerField(_("board"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    variant = models.CharField(
        _("game"), max_length=10, choices=Variant.choices, default=Variant.SIX_CARD
    )

    class Meta:
        ordering = ["format_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["format", "number"], name="tl_format_board_unique")
        ]
        verbose_name = _("board of the format")
        verbose_name_plural = _("boards of the format")

    def __str__(self) -> str:
        return f"{self.number}: {self.get_kind_display()}"

    @property
    def size(self) -> int:
        return 2 if self.kind == Kind.PAIRS else 1


class Team(models.Model):
    """A club's or pub's team, from season to season (its divisions are its history)."""

    league = models.ForeignKey(
        TeamLeague, on_delete=models.CASCADE, related_name="teams", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=120)
    venue = models.CharField(_("club or pub"), max_length=120, blank=True)
    captain = models.ForeignKey(
        "league.Player",
        on_delete=models.PROTECT,
        related_name="team_league_captaincies",
        verbose_name=_("captain"),
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="tl_team_name_unique")
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player on a team's list: a regular or a reserve."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team")
    )
    player = models.ForeignKey(
        "league.Player",
        on_delete=models.PROTECT,
        related_name="team_league_memberships",
        verbose_name=_("player"),
    )
    reserve = models.BooleanField(_("reserve"), default=False)

    class Meta:
        ordering = ["team_id", "reserve", "pk"]
        constraints = [models.UniqueConstraint(fields=["team", "player"], name="tl_member_unique")]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class SeasonState(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class TeamSeason(models.Model):
    """A season of a team league: its divisions, how many go up and down at its end."""

    league = models.ForeignKey(
        TeamLeague, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    state = models.CharField(
        _("state"), max_length=8, choices=SeasonState.choices, default=SeasonState.OPEN
    )
    promoted = models.PositiveSmallIntegerField(_("promoted from each division"), default=2)
    relegated = models.PositiveSmallIntegerField(_("relegated from each division"), default=2)
    playoffs = models.BooleanField(
        _("play-offs"),
        default=False,
        help_text=_(
            "The team just above the drop plays the team just below promotion for a place."
        ),
    )
    tiebreaks = models.JSONField(
        _("tie-breaks"),
        default=list,
        blank=True,
        help_text=_(
            "After points, in order: legs_difference, legs_for, boards_difference, "
            "boards_for, matches_won, head_to_head, draw."
        ),
    )
    draw_seed = models.PositiveIntegerField(_("seed of the draw"), default=0)
    averages_minimum = models.PositiveSmallIntegerField(
        _("matches to qualify for the averages"),
        default=5,
        help_text=_("A player's average counts for the honours once they played this many."),
    )
    previous = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next",
        verbose_name=_("previous season"),
    )

    class Meta:
        ordering = ["league_id", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="tl_season_name_unique")
        ]
        verbose_name = _("team league season")
        verbose_name_plural = _("team league seasons")

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Division(models.Model):
    """A division of a season (level 1 the top), its own table."""

    season = models.ForeignKey(
        TeamSeason, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=80)
    level = models.PositiveSmallIntegerField(_("level"), help_text=_("1 is the top division."))

    class Meta:
        ordering = ["season_id", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="tl_division_level_unique")
        ]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")

    def __str__(self) -> str:
        return f"{self.season} · {self.name}"


class Entry(models.Model):
    """A team in a division for a season, and where it finished (set when the season closes)."""

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="entries", verbose_name=_("division")
    )
    season = models.ForeignKey(
        TeamSeason, on_delete=models.CASCADE, related_name="entries", verbose_name=_("season")
    )
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="entries", verbose_name=_("team")
    )
    position = models.PositiveSmallIntegerField(_("final position"), null=True, blank=True)
    moved = models.CharField(_("moved"), max_length=8, blank=True)  # "up", "down" or ""

    class Meta:
        ordering = ["division_id", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="tl_entry_once_a_season")
        ]
        verbose_name = _("team in a division")
        verbose_name_plural = _("teams in divisions")

    def __str__(self) -> str:
        return f"{self.team} · {self.division}"


class Fixture(models.Model):
    """A match between two teams: in a division's table, a play-off, or a cup's round."""

    division = models.ForeignKey(
        Division,
        on_delete=models.CASCADE,
        related_name="fixtures",
        null=True,
        blank=True,
        verbose_name=_("division"),
    )
    season = models.ForeignKey(
        TeamSeason, on_delete=models.CASCADE, related_name="fixtures", verbose_name=_("season")
    )
    round = models.PositiveSmallIntegerField(_("round"), default=1)
    home = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="home_fixtures", verbose_name=_("home")
    )
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="away_fixtures", verbose_name=_("away")
    )
    date = models.DateField(_("date"), null=True, blank=True)
    playoff = models.BooleanField(_("play-off"), default=False)
    cup_round = models.ForeignKey(
        "CupRound",
        on_delete=models.CASCADE,
        related_name="fixtures",
        null=True,
        blank=True,
        verbose_name=_("cup round"),
    )
    slot = models.PositiveSmallIntegerField(_("place in the round"), default=0)
    decided_for = models.CharField(
        _("level, decided for"),
        max_length=4,
        choices=Side.choices,
        blank=True,
        help_text=_("A knockout or play-off left level: the side the organiser put through."),
    )

    class Meta:
        ordering = ["season_id", "division_id", "round", "pk"]
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

    def get_absolute_url(self) -> str:
        return reverse("teamleagues:fixture", args=[self.pk])

    def team_of(self, side: str) -> Team:
        return self.home if side == Side.HOME else self.away


class Board(models.Model):
    """A board of a fixture, copied from the format when the fixture is made; its players are
    named by the captains. A side that cannot play it forfeits it."""

    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="boards", verbose_name=_("fixture")
    )
    number = models.PositiveSmallIntegerField(_("board"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    variant = models.CharField(_("game"), max_length=10, choices=Variant.choices)
    forfeited_by = models.CharField(
        _("forfeited by"), max_length=4, choices=Side.choices, blank=True
    )

    class Meta:
        ordering = ["fixture_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="tl_board_unique")
        ]
        verbose_name = _("board")
        verbose_name_plural = _("boards")

    def __str__(self) -> str:
        return f"{self.fixture} · {self.number}"

    @property
    def size(self) -> int:
        return 2 if self.kind == Kind.PAIRS else 1


class BoardPlayer(models.Model):
    """A player a captain named on a board; ``reserve`` when they came off the reserves."""

    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="players", verbose_name=_("board")
    )
    side = models.CharField(_("side"), max_length=4, choices=Side.choices)
    player = models.ForeignKey(
        "league.Player",
        on_delete=models.PROTECT,
        related_name="team_league_boards",
        verbose_name=_("player"),
    )
    reserve = models.BooleanField(_("reserve"), default=False)

    class Meta:
        ordering = ["board_id", "side", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="tl_board_player_unique")
        ]
        verbose_name = _("player on a board")
        verbose_name_plural = _("players on boards")

    def __str__(self) -> str:
        return f"{self.player} · {self.board}"


class LegState(models.TextChoices):
    WAITING = "waiting", _("Waiting for the other captain")
    AGREED = "agreed", _("Agreed")
    DISAGREE = "disagree", _("The captains disagree")
    SETTLED = "settled", _("Settled by the organiser")


class Leg(models.Model):
    """One leg of a board as each captain entered it (winner and the loser's score). It stands
    when both agree, or when the organiser settles it; a disagreement is shown, never dropped."""

    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="legs", verbose_name=_("board")
    )
    number = models.PositiveSmallIntegerField(_("leg"))
    home_winner = models.CharField(
        _("home captain: winner"), max_length=4, choices=Side.choices, blank=True
    )
    home_loser_score = models.PositiveSmallIntegerField(
        _("home captain: loser's score"), null=True, blank=True
    )
    away_winner = models.CharField(
        _("away captain: winner"), max_length=4, choices=Side.choices, blank=True
    )
    away_loser_score = models.PositiveSmallIntegerField(
        _("away captain: loser's score"), null=True, blank=True
    )
    winner = models.CharField(_("winner"), max_length=4, choices=Side.choices, blank=True)
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    state = models.CharField(
        _("state"), max_length=8, choices=LegState.choices, default=LegState.WAITING
    )

    class Meta:
        ordering = ["board_id", "number"]
        constraints = [models.UniqueConstraint(fields=["board", "number"], name="tl_leg_unique")]
        verbose_name = _("leg")
        verbose_name_plural = _("legs")

    def __str__(self) -> str:
        return f"{self.board} · {self.number}"

    @property
    def stands(self) -> bool:
        return self.state in (LegState.AGREED, LegState.SETTLED)


class CupKind(models.TextChoices):
    CUP = "cup", _("Cup")
    PLATE = "plate", _("Plate (the cup's first-round losers)")


class Cup(models.Model):
    """A knockout within a season: a cup, or a plate for a cup's first-round losers."""

    season = models.ForeignKey(
        TeamSeason, on_delete=models.CASCADE, related_name="cups", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=6, choices=CupKind.choices, default=CupKind.CUP)
    parent = models.OneToOneField(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="plate",
        verbose_name=_("cup it is the plate of"),
    )
    seeded = models.BooleanField(_("seeded"), default=False)
    bracket_order = models.JSONField(_("slot order"), default=list, blank=True)
    entrants = models.JSONField(_("teams in seed order"), default=list, blank=True)

    class Meta:
        ordering = ["season_id", "pk"]
        verbose_name = _("cup")
        verbose_name_plural = _("cups")

    def __str__(self) -> str:
        return self.name


class CupRound(models.Model):
    """A round of a cup, dated."""

    cup = models.ForeignKey(
        Cup, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("cup")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)

    class Meta:
        ordering = ["cup_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "number"], name="tl_cup_round_unique")
        ]
        verbose_name = _("cup round")
        verbose_name_plural = _("cup rounds")

    def __str__(self) -> str:
        return f"{self.cup} · {self.number}"


class Qualification(models.Model):
    """A team entered into the next level's league as the winner of a lower level's cup."""

    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, related_name="qualification", verbose_name=_("team")
    )
    cup = models.ForeignKey(
        Cup, on_delete=models.PROTECT, related_name="qualifiers", verbose_name=_("won")
    )

    class Meta:
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")

    def __str__(self) -> str:
        return f"{self.team} · {self.cup}"
