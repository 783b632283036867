"""The scorer's words in the reader's language: its refusals (one sentence per code of
``scoring.errors``) and the lines of a show's breakdown ("fifteen two", "run of three").

The scorer stays free of Django and says everything in English; it also gives each refusal a
code and its numbers, and each breakdown line a kind, its cards and its points. Here the league
says it again, translatable, with the seats named by their players and the sides by their
teams, the way the table talks. Every place where a scorer error becomes a message for a person
goes through :func:`scoring_message`, and every breakdown shown to a person through
:func:`show_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring.cards import Card, format_cards
from scoring.errors import ScoringError
from scoring.show import ShowScore

#: code (or code.variant, chosen by :func:`_key`) -> the sentence. Parameters ending in
#: ``_name`` are a seat's player or a side's team.
MESSAGES: Mapping[str, Promise] = {
    "not_a_card": gettext_lazy("%(token)s is not a card."),
    "unreadable_card": gettext_lazy("%(token)s is not a card: write it like 5H, 10H, TH or 5♥."),
    "duplicate_card": gettext_lazy("%(card)s appears twice; a deck has only one of each card."),
    "card_repeated": gettext_lazy("A card appears twice."),
    "pegging_not_list": gettext_lazy("Enter the pegging as one number per side."),
    "shows_not_mapping": gettext_lazy("Enter the shows as points per seat."),
    "hands_not_mapping": gettext_lazy("Enter the hands as cards per seat."),
    "hand_not_list": gettext_lazy("Enter %(seat_name)s's hand as a list of cards."),
    "crib_cards_not_list": gettext_lazy("Enter the crib as a list of cards."),
    "cards_not_list": gettext_lazy("Enter the cards as a list like 5H JC."),
    "not_a_seat_number": gettext_lazy("%(seat)s is not a seat number."),
    "seat_not_a_number": gettext_lazy(
        "%(seat)s is not a seat number: the seats are 0 to %(last)s."
    ),
    "no_such_seat": gettext_lazy(
        "There is no seat %(seat)s at this table: the seats are 0 to %(last)s."
    ),
    "not_a_deal": gettext_lazy("%(deal)s is not a deal."),
    "bad_target": gettext_lazy("A game is played to a positive number of points, not %(target)s."),
    "unknown_variant": gettext_lazy("Unknown game %(key)s; known games are %(known)s."),
    "not_a_variant": gettext_lazy("%(variant)s is not a game of cribbage the scorer knows."),
    "bad_first_dealer": gettext_lazy(
        "The first dealer is a seat from 0 to %(last)s, not %(dealer)s."
    ),
    "bad_scores": gettext_lazy(
        "A game of %(variant)s keeps %(sides)s scores of 0 or more, not %(scores)s."
    ),
    "two_winners": gettext_lazy("Only one side can reach %(target)s."),
    "bad_deal_count": gettext_lazy("The number of deals played can't be %(deals)s."),
    "over_before_start": gettext_lazy("A game to %(target)s would be over before the first deal."),
    "game_over": gettext_lazy(
        "The game is over: %(side_name)s reached %(target)s. No more deals can be recorded."
    ),
    "wrong_dealer": gettext_lazy(
        "The deal passes clockwise: %(expected_name)s deals this hand, not %(dealer_name)s."
    ),
    "starter_not_a_card": gettext_lazy("The starter must be a card, not %(starter)s."),
    "card_twice": gettext_lazy(
        "%(card)s is entered twice (%(first_place)s and %(second_place)s); "
        "a deck has only one of each card."
    ),
    "hand_size": gettext_lazy(
        "Each player keeps %(size)s cards for the show: %(seat_name)s's hand has %(count)s."
    ),
    "crib_size": gettext_lazy("The crib has %(size)s cards, not %(count)s."),
    "starter_needed": gettext_lazy("Enter the starter too: the cards can't be counted without it."),
    "heels_not_bool": gettext_lazy("His heels is either pegged or not (yes or no), not %(heels)s."),
    "heels_without_jack": gettext_lazy(
        "The starter is %(starter)s, not a Jack: there is no two for his heels."
    ),
    "heels_missing": gettext_lazy(
        "The starter is %(starter)s: the dealer's side pegs two for his heels."
    ),
    "pegging_count": gettext_lazy("Enter the pegging points of each of the %(sides)s sides."),
    "pegging_count.two": gettext_lazy("Enter the pegging points of both sides: two numbers."),
    "pegging_not_int": gettext_lazy("Pegging points are a whole number, not %(points)s."),
    "pegging_negative": gettext_lazy("Pegging points can't be negative."),
    "pegging_over_dealer": gettext_lazy(
        "The dealer's side can peg at most %(most)s in one deal, not %(points)s."
    ),
    "pegging_over_other": gettext_lazy(
        "A side that didn't deal can peg at most %(most)s in one deal, not %(points)s."
    ),
    "pegging_over_total": gettext_lazy(
        "All sides together can peg at most %(most)s in one deal, not %(points)s."
    ),
    "show_not_int": gettext_lazy("A hand's points are a whole number, not %(points)s."),
    "crib_not_int": gettext_lazy("A crib's points are a whole number, not %(points)s."),
    "impossible_show": gettext_lazy("A hand can never score %(points)s."),
    "impossible_show.most": gettext_lazy(
        "A hand can never score %(points)s: the most it can make is %(most)s."
    ),
    "impossible_crib": gettext_lazy("A crib can never score %(points)s."),
    "impossible_crib.most": gettext_lazy(
        "A crib can never score %(points)s: the most it can make is %(most)s."
    ),
    "show_over_claim": gettext_lazy(
        "%(seat_name)s's hand: %(cards)s with %(starter)s turned make %(actual)s, so %(claim)s "
        "can't be claimed (an under-count stands: we play no muggins)."
    ),
    "crib_over_claim": gettext_lazy(
        "The crib: %(cards)s with %(starter)s turned make %(actual)s, so %(claim)s can't be "
        "claimed (an under-count stands: we play no muggins)."
    ),
    "pegging_after_heels": gettext_lazy(
        "The game ended on his heels, before the play: the pegging of %(side_name)s doesn't count."
    ),
    "two_out_in_play": gettext_lazy(
        "Only one side can reach %(target)s in the play: the game stops the moment the first "
        "side gets there. Enter the other side's pegging up to that moment."
    ),
    "show_after_end": gettext_lazy(
        "The game ended when %(side_name)s reached %(target)s %(ended_where)s: "
        "%(seat_name)s's show doesn't count."
    ),
    "show_missing": gettext_lazy("%(seat_name)s's show is missing: the game wasn't over yet."),
    "crib_after_end": gettext_lazy(
        "The game ended when %(side_name)s reached %(target)s %(ended_where)s: "
        "the crib doesn't count."
    ),
    "crib_missing": gettext_lazy("The crib's count is missing: the game wasn't over yet."),
    "bad_margin": gettext_lazy("%(name)s must be a positive whole number, not %(value)s."),
    "double_skunk_below_skunk": gettext_lazy(
        "A double skunk (%(double)s) can't take a smaller margin than a skunk (%(skunk)s)."
    ),
    "too_few_sides": gettext_lazy("A game has at least two sides."),
    "score_not_int": gettext_lazy("A score is a whole number of points, not %(score)s."),
    "score_negative": gettext_lazy("A score can't be negative (%(score)s)."),
    "not_over": gettext_lazy("Nobody has reached %(target)s yet: the game isn't over."),
    "count_over_31": gettext_lazy("The count would be %(count)s; it may never pass 31."),
    "wrong_player_count": gettext_lazy(
        "%(variant)s is played by %(players)s players, not %(count)s."
    ),
    "bad_dealer_seat": gettext_lazy(
        "The dealer sits in seat 0 to %(last)s, not in seat %(dealer)s."
    ),
    "pegging_hand_size": gettext_lazy(
        "%(seat_name)s holds %(count)s cards; each player plays %(size)s in %(variant)s."
    ),
    "card_not_held": gettext_lazy(
        "%(seat_name)s does not hold %(card)s: it is in %(holder_name)s's hand."
    ),
    "card_not_held.played": gettext_lazy(
        "%(seat_name)s does not hold %(card)s: it has already been played."
    ),
    "card_over_31": gettext_lazy(
        "%(card)s would take the count from %(count)s to %(total)s; it may never pass 31."
    ),
    "false_go": gettext_lazy(
        "%(seat_name)s cannot say go holding %(card)s: the count is %(count)s, so it fits under 31."
    ),
    "play_over": gettext_lazy("The play of this deal is over."),
    "not_your_turn": gettext_lazy("It is %(turn_name)s's turn to play, not %(seat_name)s's."),
    "play_over_before_card": gettext_lazy("The play was over before %(card)s could be laid."),
    "no_pegging_bound": gettext_lazy("No pegging bound is known for %(variant)s."),
    "show_hand_cards": gettext_lazy(
        "A hand to show has %(least)s to %(most)s cards, not %(count)s."
    ),
    "dealt_count": gettext_lazy("This game deals %(dealt)s cards, not %(count)s."),
}

#: The parameters that are a seat (named by its player) or a side (named by its team).
SEAT_PARAMS = ("seat", "expected", "dealer", "turn", "holder", "ended_seat")
SIDE_PARAMS = ("side",)


def _key(code: str, params: Mapping[str, object]) -> str:
    """Which sentence of a code fits these numbers."""
    if code in ("impossible_show", "impossible_crib"):
        points, most = params["points"], params["most"]
        if isinstance(points, int) and isinstance(most, int) and points > most:
            return f"{code}.most"
    if code == "pegging_count" and params["sides"] == 2:
        return "pegging_count.two"
    if code == "card_not_held" and params["holder"] is None:
        return "card_not_held.played"
    return code


def _named(value: object, names: Sequence[str], fallback: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    return fallback % {"n": value}


def scoring_message(
    error: ScoringError, *, seats: Sequence[str] = (), sides: Sequence[str] = ()
) -> str:
    """``error`` as a sentence in the active language, ``seats`` and ``sides`` named (by
    seat and side number) where known."""
    params: dict[str, object] = dict(error.params)
    for name in SEAT_PARAMS:
        if name in params:
            params[f"{name}_name"] = _named(params[name], seats, _("seat %(n)s"))
    for name in SIDE_PARAMS:
        if name in params:
            params[f"{name}_name"] = _named(params[name], sides, _("side %(n)s"))
    if error.code == "card_twice":
        for which in ("first", "second"):
            place, seat = params[which], params[f"{which}_seat"]
            if place == "hand":
                player = _named(seat, seats, _("seat %(n)s"))
                params[f"{which}_place"] = _("%(player)s's hand") % {"player": player}
            elif place == "crib":
                params[f"{which}_place"] = _("the crib")
            else:
                params[f"{which}_place"] = _("the starter")
    if "ended_on" in params:
        where = {
            "heels": _("on his heels"),
            "pegging": _("in the play"),
            "crib": _("on the crib"),
        }.get(str(params["ended_on"]))
        if where is None:
            player = _named(params["ended_seat"], seats, _("seat %(n)s"))
            where = _("on %(player)s's show") % {"player": player}
        params["ended_where"] = where
    sentence = MESSAGES.get(_key(error.code, error.params))
    if sentence is None:  # a code this table does not know yet: the scorer's own words
        return str(error)
    return str(sentence) % params


# --- A show's breakdown -------------------------------------------------------------------------

#: The numbers as a player says them aloud while counting ("fifteen two", "run of three").
#: Past twenty the scorer itself writes digits, and so does this table.
NUMBER_WORDS: Mapping[int, Promise] = {
    2: pgettext_lazy("counted aloud", "two"),
    3: pgettext_lazy("counted aloud", "three"),
    4: pgettext_lazy("counted aloud", "four"),
    5: pgettext_lazy("counted aloud", "five"),
    6: pgettext_lazy("counted aloud", "six"),
    7: pgettext_lazy("counted aloud", "seven"),
    8: pgettext_lazy("counted aloud", "eight"),
    9: pgettext_lazy("counted aloud", "nine"),
    10: pgettext_lazy("counted aloud", "ten"),
    11: pgettext_lazy("counted aloud", "eleven"),
    12: pgettext_lazy("counted aloud", "twelve"),
    13: pgettext_lazy("counted aloud", "thirteen"),
    14: pgettext_lazy("counted aloud", "fourteen"),
    15: pgettext_lazy("counted aloud", "fifteen"),
    16: pgettext_lazy("counted aloud", "sixteen"),
    17: pgettext_lazy("counted aloud", "seventeen"),
    18: pgettext_lazy("counted aloud", "eighteen"),
    19: pgettext_lazy("counted aloud", "nineteen"),
    20: pgettext_lazy("counted aloud", "twenty"),
}

#: code of a breakdown line -> its words; ``%(number)s`` is the line's number said aloud.
SHOW_LINES: Mapping[str, Promise] = {
    "fifteen": gettext_lazy("fifteen %(number)s"),
    "pair": gettext_lazy("pair"),
    "pair_royal": gettext_lazy("pair royal"),
    "double_pair_royal": gettext_lazy("double pair royal"),
    "run": gettext_lazy("run of %(number)s"),
    "flush": gettext_lazy("flush of %(number)s"),
    "nobs": gettext_lazy("one for his nobs"),
}

_PAIRS = {2: "pair", 6: "pair_royal", 12: "double_pair_royal"}


def _spoken(n: int) -> str:
    word = NUMBER_WORDS.get(n)
    return str(n) if word is None else str(word)


class ShowLine(NamedTuple):
    """One line of a breakdown, said in the active language."""

    kind: str  # the scorer's: "fifteen", "pair", "run", "flush" or "nobs"
    code: str  # a stable key: "fifteen", "pair", "pair_royal", "double_pair_royal", ...
    params: dict[str, int]  # the fifteens' running count, a run's length, a flush's size
    label: str  # "quinze deux", "suite de trois"
    cards: tuple[Card, ...]
    points: int


def _translated(show: ShowScore) -> list[ShowLine]:
    """``show``'s breakdown in the active language, in the order a player counts it aloud.

    Each line's code and parameters are read from the scorer's kind, cards and points alone,
    so the scorer's English never has to be parsed.
    """
    lines: list[ShowLine] = []
    count = 0
    for item in show.breakdown():
        params: dict[str, int] = {}
        if item.kind == "fifteen":
            count += item.points
            code, params = "fifteen", {"count": count}
        elif item.kind == "pair":
            code = _PAIRS[item.points]
        elif item.kind == "run":
            code, params = "run", {"length": item.points}
        elif item.kind == "flush":
            code, params = "flush", {"size": item.points}
        else:
            code = item.kind
        sentence = SHOW_LINES.get(code)
        if sentence is None:  # a line this table does not know yet: the scorer's own words
            label = item.label
        else:
            number = next(iter(params.values()), 0)
            label = str(sentence) % {"number": _spoken(number)}
        lines.append(ShowLine(item.kind, code, params, label, item.cards, item.points))
    return lines


def show_lines(show: ShowScore) -> list[dict[str, object]]:
    """``show``'s breakdown for JSON: each line's ``code`` and ``params`` (stable, for a
    program), its ``label`` in the active language, and the scorer's ``kind``, ``cards`` and
    ``points``."""
    return [
        {
            "kind": line.kind,
            "code": line.code,
            "params": line.params,
            "label": line.label,
            "cards": [str(c) for c in line.cards],
            "points": line.points,
        }
        for line in _translated(show)
    ]


def show_as_dict(show: ShowScore) -> dict[str, object]:
    """The scorer's JSON summary of ``show`` with its breakdown in the active language."""
    return {**show.as_dict(), "breakdown": show_lines(show)}


def show_sentences(show: ShowScore) -> list[str]:
    """``show``'s breakdown as sentences for a page (``quinze deux : 5H JC``), then its total."""
    sentences = [
        _("%(line)s: %(cards)s") % {"line": item.label, "cards": format_cards(item.cards)}
        for item in _translated(show)
    ]
    return [*sentences, f"= {show.total}"]
