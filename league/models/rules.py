"""The rules a season is played by, declared once: a league keeps its defaults in these fields,
and each season keeps its own copy, made from the league's when the season is created and frozen
once its first game is played (so changing the league's defaults never re-scores history)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from contest.points import GamePoints
from scoring.variants import VARIANTS, Variant

# The games a league may play, named in the page's language (the scorer names them in English).
GAME_NAMES: dict[str, Promise] = {
    "singles-121": _("two-player six-card cribbage to 121"),
    "partnership-121": _("four-player partnership cribbage to 121"),
    "five-card-61": _("five-card cribbage to 61"),
    "seven-card-181": _("seven-card cribbage to 181"),
}
# The standard games played once around the board, to 61 (the ACC: "The game of Cribbage can
# end at either 121 points or 61 points"): the same deal and play, a shorter race.
SHORT_TARGET = 61
SHORT_GAME_NAMES: dict[str, Promise] = {
    "singles-121": _("two-player six-card cribbage to 61"),
    "partnership-121": _("four-player partnership cribbage to 61"),
}


def targets_of(variant: str) -> tuple[int, ...]:
    """The targets a league may play ``variant`` to: its own, and 61 for the standard two- and
    four-handed games."""
    own = VARIANTS[variant].target
    return (own, SHORT_TARGET) if variant in SHORT_GAME_NAMES else (own,)


def game_name(variant: str, target: int) -> Promise | str:
    """The game a season plays, named with its target, in the page's language."""
    if target == SHORT_TARGET and variant in SHORT_GAME_NAMES:
        return SHORT_GAME_NAMES[variant]
    return GAME_NAMES.get(variant, VARIANTS[variant].name)


# Two-sided games only: a league match is one team against another.
LEAGUE_VARIANTS = [
    (key, capfirst(GAME_NAMES.get(key, v.name)))  # type: ignore[type-var]  # kept lazy
    for key, v in VARIANTS.items()
    if v.sides == 2
]
DEFAULT_TIEBREAKS = ["weeks_won", "head_to_head", "spread", "draw"]

# Every setting a season copies from its league, in the order the forms show them.
RULE_FIELDS = (
    "variant",
    "target",
    "games_per_match",
    "playoff_games_per_match",
    "points_per_win",
    "skunk_margin",
    "skunk_bonus",
    "double_skunk_margin",
    "double_skunk_bonus",
    "tiebreaks",
    "requires_confirmation",
    "irregularities",
    "publish_rulings",
)
# The rules that are whole numbers (a form's number box, the check "a whole number of at least"):
# every rule but the game, the chain of tie-breaks and the yes-or-no and list settings.
NUMBER_RULES = tuple(
    name
    for name in RULE_FIELDS
    if name
    not in ("variant", "tiebreaks", "requires_confirmation", "irregularities", "publish_rulings")
)
# Settings that change no score: changing them never re-scores a game, and ``publish_rulings``
# (who may read the rulings, not how the game is played) stays open once a season is under way.
NON_SCORING_FIELDS = ("irregularities", "publish_rulings")
UNFROZEN_FIELDS = ("publish_rulings",)


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


def no_irregularities() -> list[str]:
    """Irregularity rules are optional: a league turns on the ones it plays."""
    return []


class Rules(models.Model):
    """Every number a league plays by is a setting, never a constant."""

    variant = models.CharField(
        _("game"), max_length=32, choices=LEAGUE_VARIANTS, default="partnership-121"
    )
    target = models.PositiveSmallIntegerField(
        _("game to"),
        default=121,
        help_text=_(
            "121 for the usual games (or 61, once around the board), 61 for five-card, 181 for "
            "seven-card."
        ),
    )
    games_per_match = models.PositiveSmallIntegerField(_("games per match"), default=3)
    playoff_games_per_match = models.PositiveSmallIntegerField(
        _("games per playoff match"),
        default=3,
        help_text=_("An odd number, so a playoff match always has a winner (best of 3, of 5)."),
    )
    points_per_win = models.PositiveSmallIntegerField(_("league points per win"), default=1)
    skunk_margin = models.PositiveSmallIntegerField(
        _("skunk margin"), default=31, help_text=_("A win by this many points or more is a skunk.")
    )
    skunk_bonus = models.PositiveSmallIntegerField(_("skunk bonus points"), default=1)
    double_skunk_margin = models.PositiveSmallIntegerField(_("double skunk margin"), default=61)
    double_skunk_bonus = models.PositiveSmallIntegerField(
        _("double skunk bonus points"),
        default=0,
        help_text=_("Extra points for a double skunk, on top of the skunk bonus."),
    )
    tiebreaks = models.JSONField(_("tie-breaks after league points"), default=default_tiebreaks)
    requires_confirmation = models.BooleanField(
        _("results need the other team's confirmation"), default=True
    )
    irregularities = models.JSONField(
        _("irregularity rules played"),
        default=no_irregularities,
        blank=True,
        help_text=_(
            "The ids of the optional irregularity rules (X-1, X-2, ...) this league plays."
        ),
    )
    publish_rulings = models.BooleanField(
        _("publish rulings"),
        default=False,
        help_text=_("Everyone may read the judges' rulings under the rules they cite."),
    )

    class Meta:
        abstract = True

    @property
    def game_variant(self) -> Variant:
        """The scorer's description of the game these rules play."""
        return VARIANTS[self.variant]

    def rules_dict(self) -> dict[str, Any]:
        """The settings as plain data (what a season copies, and what an archive writes)."""
        return {name: getattr(self, name) for name in RULE_FIELDS}

    def result_points(self) -> GamePoints:
        """What one game pays under these rules (``contest.points``' ladder): a win, plus the
        skunk bonus for a skunk and for a double skunk, plus the double-skunk bonus on top for a
        double skunk (0 by default: the league sheet pays one extra point); a loss pays 0."""
        return GamePoints.with_bonuses(
            win=self.points_per_win,
            skunk_bonus=self.skunk_bonus,
            double_skunk_bonus=self.double_skunk_bonus,
        )

    def league_points(self, *, won: bool, skunk_level: int) -> int:
        """League points a team earns from one game under these rules."""
        return self.result_points().earned(won=won, level=skunk_level)

    def skunk_line(self) -> int:
        """The highest losing score that is still a skunk: the loser must pass it to avoid one."""
        return self.target - self.skunk_margin
