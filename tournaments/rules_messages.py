"""A tournament's rule refusals in the reader's language.

``logic`` stays free of Django and says its refusals in English, each with a code, the setting
it is about and its values (``logic.RulesError``). Here the league says them again,
translatable, for the organiser who set them. Every place where a ``RulesError`` becomes a
message for a person goes through :func:`rules_message`; an ACC ruling that left each side its
own figure is worded by :func:`acc_sides_words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from tournaments.logic import RulesError

#: code of ``logic.RulesError`` -> the sentence, with the error's parameters.
MESSAGES: Mapping[str, Promise] = {
    "unknown_tiebreak": gettext_lazy("%(key)s is not a tie-break; the tie-breaks are %(known)s."),
    "target_too_low": gettext_lazy("A game must be played to at least %(least)s points."),
    "qualify_one_in_too_low": gettext_lazy(
        "One qualifier in how many entrants: at least %(least)s."
    ),
    "best_of_not_odd": gettext_lazy(
        "A playoff match is played best of an odd number of games (1, 3, 5...), not %(value)s."
    ),
}


def rules_message(exc: RulesError) -> str:
    """The refusal in the active language (the English of ``logic`` for an unknown code)."""
    template = MESSAGES.get(exc.code)
    if template is None:
        return str(exc)
    return str(template) % exc.params


def acc_sides_words(game: Any) -> str:
    """What an ACC ruling that left each side its own figure (Rule 12.2(b) with two spreads,
    12.2(e)) gave the table ``game`` (a ``TableGame``), in the reader's language; "" for a
    table with one result."""
    if game.first_spread is None or game.second_spread is None:
        return ""
    sides = [(game.first, game.first_spread), (game.second, game.second_spread)]
    if all(spread < 0 for _entrant, spread in sides):
        return gettext("a loss for both: %(first)s by %(a)s, %(second)s by %(b)s") % {
            "first": game.first.name,
            "a": -game.first_spread,
            "second": game.second.name,
            "b": -game.second_spread,
        }
    (winner, won), (loser, lost) = sorted(sides, key=lambda side: -side[1])
    return gettext("%(winner)s won by %(won)s, %(loser)s lost by %(lost)s") % {
        "winner": winner.name,
        "won": won,
        "loser": loser.name,
        "lost": -lost,
    }
