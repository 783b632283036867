"""A tournament's rules as its public page states them: each worded from the event's own settings
(the game, the game points, the skunks, the bye, the tie-breaks, the cut, the playoff length), so
the page cannot say another event's rules. The skunk margins name their source from the one
table leagues read too (``contest.points.skunk_defaults``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from contest.points import skunk_defaults
from contest.tiebreaks import METRICS, TOURNAMENT_CHAINS
from scoring.variants import VARIANTS
from tournaments.models import Tournament


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
    # Each metric as a rules sheet describes it (its own words, contest.tiebreaks); the playoff
    # and the draw, always last, are said on their own.
    described = (METRICS[k].described for k in t.tiebreaks if k in METRICS and k != "playoff")
    chain = [_(words) for words in described if words]
    params = {"chain": ", ".join(chain), "seed": t.draw_seed}
    if "playoff" in t.tiebreaks and chain:
        text = _(
            "Entrants are ranked by game points; entrants level on points are separated by "
            "%(chain)s, in that order. Entrants still level where the cut falls play a "
            "one-game playoff, scheduled by the director and never drawn; elsewhere a draw "
            "anyone can repeat from the event's draw seed (%(seed)s) orders them."
        )
    elif "playoff" in t.tiebreaks:
        text = _(
            "Entrants are ranked by game points. Entrants level on points where the cut falls "
            "play a one-game playoff, scheduled by the director and never drawn; elsewhere a "
            "draw anyone can repeat from the event's draw seed (%(seed)s) orders them."
        )
    elif chain:
        text = _(
            "Entrants are ranked by game points; entrants level on points are separated by "
            "%(chain)s, in that order, and entrants still level by a draw anyone can repeat "
            "from the event's draw seed (%(seed)s)."
        )
    else:
        text = _(
            "Entrants are ranked by game points; entrants level on points are separated by a "
            "draw anyone can repeat from the event's draw seed (%(seed)s)."
        )
    text %= params
    if tuple(t.tiebreaks) == TOURNAMENT_CHAINS["acc"]:
        source = _(
            "the ACC's order as secondary sources read its current rulebook, chosen in this "
            "event's settings"
        )
    else:
        source = _("this event's settings")
    return EventRule("T-5", _("Ranking and tie-breaks"), text, source)


def _seating(t: Tournament) -> EventRule:
    if t.games_per_opponent == 2:
        text = _(
            "Each qualifying pairing plays two games in a row at the same table, who deals "
            "first alternating; nobody plays another entrant more than two games."
        )
    else:
        text = _("Each qualifying game is against an opponent not met before, where possible.")
    pairs = len(t.keep_apart) if isinstance(t.keep_apart, list) else 0
    if pairs:
        text += " " + ngettext(
            "%(n)s pair of entrants (family, the same club) is kept apart: the seating never "
            "puts them at one table when it can avoid it.",
            "%(n)s pairs of entrants (family, the same club) are kept apart: the seating never "
            "puts them at one table when it can avoid it.",
            pairs,
        ) % {"n": pairs}
    return EventRule("T-9", _("Seating"), text, _("this event's settings"))


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
    schedule = (t.playoff_best_of_rounds or "").strip()
    if schedule:
        text = _(
            "A playoff match is the best of the games its round plays, counted back from the "
            "final: %(schedule)s (the final last; earlier rounds play the first number). The "
            "first to win a majority of them goes through."
        ) % {"schedule": schedule.replace(",", ", ")}
    elif t.playoff_best_of == 1:
        text = _("A playoff match is a single game; the winner goes through.")
    else:
        text = _(
            "A playoff match is the best of %(n)s games: the first to win %(need)s goes through."
        ) % {"n": t.playoff_best_of, "need": t.playoff_best_of // 2 + 1}
    if t.bracket_format == "double":
        text += " " + _(
            "Double elimination: a first loss sends an entrant into the losers' bracket, a "
            "second puts them out; the winners' bracket winner meets the losers' bracket "
            "winner in the grand final."
        )
        text += " " + (
            _("If the losers' bracket winner wins it, the two play one deciding match.")
            if t.grand_final_reset
            else _("The grand final decides, whoever wins it.")
        )
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


# Rule 12.2 clause by clause, as this event plays it (``contest.crosscheck`` applies them). The
# ACC's text at hand gives (a) to (g) whole and stops in (h) after "if an apparent qualifier's";
# (h) and (i) are worded as secondary sources read them, and the page says so.
_RULEBOOK = gettext_lazy("the ACC's tournament rules, Rule 12.2(%(clause)s)")
_SECONDARY = gettext_lazy(
    "a secondary source's reading of Rule 12.2(%(clause)s): the ACC's text at hand stops "
    "mid-sentence in (h)"
)
CLAUSES: tuple[tuple[str, object, object], ...] = (
    (
        "a",
        gettext_lazy("Disadvantage to the apparent qualifier"),
        gettext_lazy(
            "When the two cards give different spreads and one player is an apparent qualifier "
            "(inside the cut on the games verified so far), both cards take the figure worse "
            "for that qualifier: a qualifier's 21-point win against a 16-point loss is a "
            "16-point win."
        ),
    ),
    (
        "b",
        gettext_lazy("Disadvantage to two apparent qualifiers"),
        gettext_lazy(
            "When both players are apparent qualifiers, each takes the figure worse for them: "
            "a 17-point win claimed against a 16-point loss becomes a 16-point win and a "
            "17-point loss."
        ),
    ),
    (
        "c",
        gettext_lazy("A spread on one card only"),
        gettext_lazy("A spread marked on one card only is copied to the blank card."),
    ),
    (
        "d",
        gettext_lazy("Two wins or two losses, the spreads in different columns"),
        gettext_lazy("The card with its spread in the plus column takes the win."),
    ),
    (
        "e",
        gettext_lazy("Two wins or two losses, the spreads in the same column"),
        gettext_lazy("A loss for both players, each keeping its own spread in the minus column."),
    ),
    (
        "f",
        gettext_lazy("One win, both spreads in the same column"),
        gettext_lazy("The win stands and the wrong card's spread moves to its proper column."),
    ),
    (
        "g",
        gettext_lazy("Totals adjusted"),
        gettext_lazy(
            "The standings' game points and spreads are counted again from the settled cards."
        ),
    ),
)


def _clause(clause: str, title: object, text: object) -> EventRule:
    return EventRule(
        f"T-8{clause}",
        _("ACC Rule 12.2(%(clause)s): %(title)s") % {"clause": clause, "title": title},
        str(text),
        str(_RULEBOOK % {"clause": clause}),
    )


def _acc_clauses(t: Tournament) -> list[EventRule]:
    """Rule 12.2 (a) to (i), each worded as this event plays it."""
    rules = [_clause(c, title, text) for c, title, text in CLAUSES]
    if t.acc_no_harm:
        text = _(
            "On at this event: when an apparent qualifier's own card already holds the figure "
            "worse for them (a 16-point win written against the opponent's 21-point loss), both "
            "card entries stand, each player keeping what their own card says."
        )
    else:
        text = _(
            "Off at this event: (a) and (b) apply even when the qualifier's own card already "
            "holds the figure worse for them."
        )
    rules.append(
        EventRule(
            "T-8h",
            _("ACC Rule 12.2(h): no harm, no foul"),
            text,
            str(_SECONDARY % {"clause": "h"}),
        )
    )
    rules.append(
        EventRule(
            "T-8i",
            _("ACC Rule 12.2(i): the qualifiers told"),
            _(
                "Each apparent qualifier whose card the rule changed is told at once what their "
                "card now says (by mail or on their phone, as their settings have it); the "
                "scorecard page shows the ruling. A checker can undo a ruling."
            ),
            str(_SECONDARY % {"clause": "i"}),
        )
    )
    return rules


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
        if tournament.acc_rules:
            rules.extend(_acc_clauses(tournament))
    rules.append(_seating(tournament))
    return rules
