"""A tournament's rules as its public page states them: each worded from the event's own settings
(the game, the game points, the skunks, the bye, the tie-breaks, the cut, the playoff length), so
the page cannot say another event's rules. The skunk margins name their source from the one
table leagues read too (``contest.points.skunk_defaults``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from contest.points import skunk_defaults
from scoring.variants import VARIANTS
from tournaments.models import Tournament

# The tie-breaks a tournament may chain, named for its readers (keys: contest.tiebreaks).
TIEBREAK_NAMES = {
    "games_won": gettext_lazy("games won"),
    "spread": gettext_lazy("spread (points scored minus points conceded)"),
    "skunks": gettext_lazy("skunks won"),
}


@dataclass(frozen=True)
class EventRule:
    """One rule of an event: its id on the page, title, text and where it comes from."""

    id: str
    title: str
    text: str
    source: str


def _points(n: int) -> str:
    return ngettext("%(n)s game point", "%(n)s game points", n) % {"n": n}


def _game(t: Tournament) -> EventRule:
    game = VARIANTS[t.variant]  # the scorer's description: cards dealt and kept
    numbers = {"dealt": game.dealt, "discard": game.dealt - game.hand_size, "target": t.target}
    if game.players > game.sides:
        text = _(
            "Partnership cribbage: teams of two, partners opposite, each player dealt %(dealt)s "
            "cards and putting %(discard)s in the crib; a game is won by the first team to reach "
            "%(target)s."
        )
    else:
        text = _(
            "Two-player cribbage, each player dealt %(dealt)s cards and putting %(discard)s in "
            "the crib; a game is won by the first player to reach %(target)s."
        )
    text %= numbers
    text += " " + ngettext(
        "Each entrant plays %(n)s qualifying game.",
        "Each entrant plays %(n)s qualifying games.",
        t.games_per_entrant,
    ) % {"n": t.games_per_entrant}
    return EventRule("T-1", _("The game"), text, _("this event's settings"))


def _game_points(t: Tournament) -> EventRule:
    text = _(
        "A game won earns %(win)s, a skunk %(skunk)s, a double skunk %(double)s; a game lost "
        "earns %(loss)s."
    ) % {
        "win": _points(t.points_win),
        "skunk": _points(t.points_skunk),
        "double": _points(t.points_double_skunk),
        "loss": _points(t.points_loss),
    }
    return EventRule("T-2", _("Game points"), text, _("this event's settings"))


def _skunk(t: Tournament) -> EventRule:
    params = {
        "skunk": t.skunk_margin,
        "line": t.target - t.skunk_margin,
        "double": t.double_skunk_margin,
        "double_line": t.target - t.double_skunk_margin,
        "target": t.target,
    }
    if params["double_line"] > 0:
        text = _(
            "A win by %(skunk)s points or more is a skunk (the loser at %(line)s or below); by "
            "%(double)s or more, a double skunk (the loser at %(double_line)s or below). The "
            "winner counts as %(target)s however far past it they pegged."
        )
    else:  # the ACC's 61 in a game to 61: a shut-out
        text = _(
            "A win by %(skunk)s points or more is a skunk (the loser at %(line)s or below); by "
            "%(double)s or more, a double skunk (the loser did not score). The winner counts as "
            "%(target)s however far past it they pegged."
        )
    text %= params
    default = skunk_defaults(t.target)
    if (t.skunk_margin, t.double_skunk_margin) == (
        default.skunk_margin,
        default.double_skunk_margin,
    ):
        if default.source == "acc":
            source = _("the ACC glossary: a skunk is a win by 31 or more, a double skunk by 61")
        else:
            source = _(
                "house convention: no document gives a skunk for a game to %(target)s, so the "
                "ACC's proportions at 121 are kept"
            ) % {"target": t.target}
    else:
        source = _(
            "this event's settings; the default for a game to %(target)s is %(skunk)s and "
            "%(double)s"
        ) % {
            "target": t.target,
            "skunk": default.skunk_margin,
            "double": default.double_skunk_margin,
        }
    return EventRule("T-3", _("Skunks"), text, source)


def _bye(t: Tournament) -> EventRule:
    text = _(
        "An entrant left without a table in a round has a bye: it counts as a game played and "
        "won, and earns %(points)s and a spread of %(spread)s."
    ) % {"points": _points(t.bye_game_points), "spread": t.bye_spread}
    return EventRule("T-4", _("Byes"), text, _("this event's settings"))


def _tiebreaks(t: Tournament) -> EventRule:
    chain = [str(TIEBREAK_NAMES[k]) for k in t.tiebreaks if k in TIEBREAK_NAMES]
    if chain:
        text = _(
            "Entrants are ranked by game points; entrants level on points are separated by "
            "%(chain)s, in that order, and entrants still level by a draw anyone can repeat "
            "from the event's draw seed (%(seed)s)."
        ) % {"chain": ", ".join(chain), "seed": t.draw_seed}
    else:
        text = _(
            "Entrants are ranked by game points; entrants level on points are separated by a "
            "draw anyone can repeat from the event's draw seed (%(seed)s)."
        ) % {"seed": t.draw_seed}
    return EventRule("T-5", _("Ranking and tie-breaks"), text, _("this event's settings"))


def _cut(t: Tournament) -> EventRule:
    if t.qualify_one_in == 1:
        text = _("After the qualifying games every entrant qualifies for the playoffs.")
    else:
        text = _(
            "After the qualifying games one entrant in %(n)s qualifies for the playoffs (a "
            "fraction counts as one more), in the order of the standings; the top seeds have "
            "byes when the bracket is not full."
        ) % {"n": t.qualify_one_in}
    return EventRule("T-6", _("The cut"), text, _("this event's settings"))


def _playoffs(t: Tournament) -> EventRule:
    if t.playoff_best_of == 1:
        text = _("A playoff match is a single game; the winner goes through.")
    else:
        text = _(
            "A playoff match is the best of %(n)s games: the first to win %(need)s goes through."
        ) % {"n": t.playoff_best_of, "need": t.playoff_best_of // 2 + 1}
    return EventRule("T-7", _("Playoff matches"), text, _("this event's settings"))


# The event's ACC cross-checking setting (``Tournament.acc_rules``, added by the cross-checking
# work in parallel): read when the model has it, so this page states it once that lands and
# says nothing about it before. It words T-8 from the setting, on or off.
CROSS_CHECKING_FIELD = "acc_rules"


def _cross_checking(t: Tournament) -> EventRule | None:
    on = getattr(t, CROSS_CHECKING_FIELD, None)
    if on is None:
        return None
    if on:
        settled = _(
            "Two scorecards that disagree are settled by ACC rule 12.2 where it can settle them, "
            "without asking the players; a checker settles the rest."
        )
        standings = _(
            "What a ruling does to the standings: each side keeps the figure the rule gives it, "
            "even when the two differ (12.2(b): the winner counts a 16-point win while the loser "
            "counts a 17-point loss), and when the rule gives a loss to both sides (12.2(e)) "
            "each counts a game lost and nobody a game won."
        )
        text = f"{settled} {standings}"
        source = _("the ACC's tournament rules, as this event's settings turn them on")
    else:
        text = _("A checker settles every table whose two scorecards disagree.")
        source = _("this event's settings")
    return EventRule("T-8", _("Cross-checking scorecards"), text, source)


def tournament_rules(tournament: Tournament) -> list[EventRule]:
    """The event's rules in page order, worded in the active language."""
    rules = [
        _game(tournament),
        _game_points(tournament),
        _skunk(tournament),
        _bye(tournament),
        _tiebreaks(tournament),
        _cut(tournament),
        _playoffs(tournament),
    ]
    cross_checking = _cross_checking(tournament)
    if cross_checking is not None:
        rules.append(cross_checking)
    return rules
