"""The life of a game, written once: its states, what may happen in each, and who still has to
vouch for it. Every door (the phone page, the API, the admin, an import, a Celery task) goes
through the services, and the services ask this module; ``can()`` asks it too, so a button is
shown exactly when the service would accept the press.

The states::

    in progress --(a side reaches the target)--> finished --(both teams vouched)--> confirmed
                                                    |
                                                    +--(dispute)--> disputed --(ruled)--> confirmed
    any state but void --(a judge or league admin voids it)--> void (its number is free again)
    in progress, no deal yet --(its teams cancel it)--> void (a game started by mistake)

A game's state is not set by hand: it follows from the facts (is the game over, is a dispute
open, how far has each team vouched), so it can never disagree with them.

Vouching: a team vouches for every deal up to the last one its players entered; confirming
vouches for the whole game; a game is confirmed when both teams have vouched for all its deals.
A team's second entry of a deal it entered, with other numbers, corrects its own entry (a team
is never its own rival, and a correction is refused once the game is confirmed). A team whose
entry of a deal the other team entered differs from the stored one (a rival entry) vouches for
nothing from that deal on until the difference is settled (a dispute, a correction, or
accepting the other numbers). A judge's ruling on a finished game vouches for both teams.

The same vouching serves tournament scorecards: each side's entry is its vouch. A table's game
is one "deal" to vouch for (its result): no card yet is a game in progress, one card a finished
game waiting for the other side, two matching cards (or a checker's entry, which rules for both
sides) a confirmed one, two cards that disagree a disputed one (the checkers' queue). So the
same ``require`` refuses a card on a verified table, and ``require_side`` a second card from a
side whose card is in. ``scorecard_facts`` maps a table's cards onto ``Facts``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from league.kernel.errors import Locked, Refusal, ValidationFailed


class GameStatus(models.TextChoices):
    """A game's states, declared by the machine that says which follows from what (the league's
    ``Game.status`` stores them)."""

    IN_PROGRESS = "in_progress", gettext_lazy("in progress")
    FINISHED = "finished", gettext_lazy("finished, waiting for confirmation")
    DISPUTED = "disputed", gettext_lazy("disputed, waiting for a judge")
    CONFIRMED = "confirmed", gettext_lazy("confirmed")
    VOID = "void", gettext_lazy("void")


@dataclass(frozen=True)
class Side:
    """One team's standing in a game: how far it vouched, and its first unsettled rival entry."""

    vouched: int = 0  # deals 1..vouched are vouched for by this team
    rival: int = 0  # the first deal where this team's entry differs and is unsettled (0: none)

    @property
    def effective(self) -> int:
        """How far the team's vouch holds: not past a deal it disagrees on."""
        return min(self.vouched, self.rival - 1) if self.rival else self.vouched


@dataclass(frozen=True)
class Facts:
    """What a game's state follows from."""

    deals: int
    finished: bool
    void: bool
    open_disputes: int
    home: Side
    away: Side
    needs_confirmation: bool = True

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.home, self.away)


def status_of(facts: Facts) -> GameStatus:
    """The one state the facts put a game in."""
    if facts.void:
        return GameStatus.VOID
    if not facts.finished:
        return GameStatus.IN_PROGRESS
    if facts.open_disputes:
        return GameStatus.DISPUTED
    if all(not _still_to_vouch(facts, side) for side in facts.sides):
        return GameStatus.CONFIRMED
    return GameStatus.FINISHED


def _still_to_vouch(facts: Facts, side: Side) -> bool:
    if side.rival:
        return True  # a difference must be settled, even where no confirmation is asked
    return facts.needs_confirmation and side.effective < facts.deals


def awaiting(facts: Facts) -> tuple[bool, bool]:
    """Whether the home and the away team still have to vouch for the finished game."""
    if status_of(facts) != GameStatus.FINISHED:
        return (False, False)
    return (_still_to_vouch(facts, facts.home), _still_to_vouch(facts, facts.away))


def game_facts(
    game: Any, *, open_disputes: int | None = None, finished: bool | None = None
) -> Facts:
    """The facts of a league game, built here only: what its state follows from, and what
    every door asks (the button, the API's flags, the form and the service read the same).

    From the game row and its season (no query when the season came with the game), the open
    disputes read from the stored state. The service that settles the state passes
    ``open_disputes`` counted, and ``finished`` for a game built in memory, whose winner (an
    unsaved team) has no key yet."""
    if open_disputes is None:
        open_disputes = 1 if game.status == GameStatus.DISPUTED else 0
    return Facts(
        deals=game.deal_count,
        finished=game.winner_id is not None if finished is None else finished,
        void=game.status == GameStatus.VOID,
        open_disputes=open_disputes,
        home=Side(vouched=game.home_vouched, rival=game.home_rival),
        away=Side(vouched=game.away_vouched, rival=game.away_rival),
        needs_confirmation=game.match.week.season.requires_confirmation,
    )


def game_status(
    game: Any, *, open_disputes: int | None = None, finished: bool | None = None
) -> GameStatus:
    """The state a league game's facts put it in: ``status_of(game_facts(...))`` in one call,
    what a service settles after a change."""
    return status_of(game_facts(game, open_disputes=open_disputes, finished=finished))


def awaiting_teams(game: Any, facts: Facts | None = None) -> set[int]:
    """Ids of the teams that still have to vouch for the finished ``game``."""
    if game.status != GameStatus.FINISHED:
        return set()
    home, away = awaiting(game_facts(game) if facts is None else facts)
    match = game.match
    return {t for t, waiting in ((match.home_id, home), (match.away_id, away)) if waiting}


class Event(enum.StrEnum):
    """Everything that can happen to a game once it has started."""

    RECORD_DEAL = "record_deal"
    CORRECT_DEAL = "correct_deal"  # by the team that entered it, before confirmation
    WITHDRAW_RIVAL = "withdraw_rival"
    CONFIRM = "confirm"
    REJECT = "reject"
    RAISE_DISPUTE = "raise_dispute"
    RULE = "rule"
    VOID = "void"
    CANCEL = "cancel"  # a game started by mistake, before its first deal: voided by its teams
    RESCORE = "rescore"  # the season's rules changed (an audited decision)
    ENTER_SCORECARD = "enter_scorecard"  # one side's card of a tournament table's result
    SETTLE_SCORECARDS = "settle_scorecards"  # a checker's entry, which rules for both sides


S = GameStatus
ALLOWED: dict[Event, frozenset[GameStatus]] = {
    Event.RECORD_DEAL: frozenset({S.IN_PROGRESS}),
    Event.CORRECT_DEAL: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED}),
    Event.WITHDRAW_RIVAL: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED}),
    Event.CONFIRM: frozenset({S.FINISHED}),
    Event.REJECT: frozenset({S.FINISHED}),
    Event.RAISE_DISPUTE: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED}),
    Event.RULE: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED, S.CONFIRMED}),
    Event.VOID: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED, S.CONFIRMED}),
    Event.CANCEL: frozenset({S.IN_PROGRESS}),
    Event.RESCORE: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED, S.CONFIRMED}),
    Event.ENTER_SCORECARD: frozenset({S.IN_PROGRESS, S.FINISHED}),
    Event.SETTLE_SCORECARDS: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED}),
}

# Why an event is refused in a state: (states, events, code, sentence); the first match wins.
_REFUSALS: tuple[tuple[frozenset[GameStatus], frozenset[Event], str, Promise], ...] = (
    (frozenset({S.VOID}), frozenset(Event), "void", gettext_lazy("This game was voided.")),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.ENTER_SCORECARD, Event.SETTLE_SCORECARDS}),
        "table_verified",
        gettext_lazy("This table's result is verified: it can no longer change."),
    ),
    (
        frozenset({S.DISPUTED}),
        frozenset({Event.ENTER_SCORECARD}),
        "table_disagrees",
        gettext_lazy("The two scorecards of this table disagree: a checker settles it now."),
    ),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.RECORD_DEAL, Event.CORRECT_DEAL, Event.WITHDRAW_RIVAL}),
        "confirmed_judge_only",
        gettext_lazy("This game is confirmed; only a judge can change it now."),
    ),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        "already_confirmed",
        gettext_lazy("This game is already confirmed."),
    ),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.RAISE_DISPUTE}),
        "confirmed_ask_judge",
        gettext_lazy("This game is confirmed by both teams; ask a judge to review it."),
    ),
    (
        frozenset({S.FINISHED, S.DISPUTED}),
        frozenset({Event.RECORD_DEAL}),
        "game_over",
        gettext_lazy("This game is over; correct a deal instead, or raise a dispute."),
    ),
    (
        frozenset({S.DISPUTED}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        "disputed",
        gettext_lazy("This game is disputed: it waits for a judge's ruling."),
    ),
    (
        frozenset({S.IN_PROGRESS}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        "not_over",
        gettext_lazy("This game is not over yet."),
    ),
)
_NOT_NOW = gettext_lazy("This cannot be done to the game now.")


def allows(event: Event, status: str) -> bool:
    return status in ALLOWED[event]


def state_refusal(event: Event, status: str) -> Refusal | None:
    """Why ``event`` cannot happen in state ``status`` (None if it can): a conflict with how
    the game stands (409), or, for a state that was never right for it, a plain refusal (400)."""
    if status in ALLOWED[event]:
        return None
    for states, events, code, text in _REFUSALS:
        if status in states and event in events:
            return Refusal(code, text, error=Locked)
    return Refusal("not_now", _NOT_NOW, error=ValidationFailed)


def require(event: Event, status: str, *, current: dict[str, object] | None = None) -> None:
    """Refuse ``event`` in a state where it cannot happen, saying why (``state_refusal``)."""
    refused = state_refusal(event, status)
    if refused is not None:
        raise refused.exception(current=current)


def refusal_for_side(event: Event, facts: Facts, side: int) -> Refusal | None:
    """Why side ``side`` (0: home or the table's first entrant, 1: the other) may not do
    ``event`` now, or None if it may. Besides the state, a side vouches once: a side whose
    vouch covers the whole game has nothing left to enter (a second scorecard is refused)."""
    refused = state_refusal(event, status_of(facts))
    if refused is not None:
        return refused
    if event == Event.ENTER_SCORECARD and facts.sides[side].vouched >= facts.deals:
        return Refusal("card_in", _CARD_IN, error=Locked)
    return None


_CARD_IN = gettext_lazy(
    "Your side's scorecard is already in. If it is wrong, a checker settles the table."
)


def allows_side(event: Event, facts: Facts, side: int) -> bool:
    return refusal_for_side(event, facts, side) is None


def require_side(
    event: Event, facts: Facts, side: int, *, current: dict[str, object] | None = None
) -> None:
    """``require`` for one side: refused (409) in a state that does not allow ``event``, or
    once that side has vouched for the whole game."""
    refused = refusal_for_side(event, facts, side)
    if refused is not None:
        raise refused.exception(current=current)


# --------------------------------------------------------------------------------------------
# Tournament scorecards on the same facts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScorecardEntry:
    """One entry of a table's result: ``side`` 0 or 1 (the table's first or second entrant),
    None for a checker's entry; ``result`` is (winner, loser's score)."""

    side: int | None
    result: tuple[int | None, int | None]  # (None, None): a ruling of a loss for both


def scorecard_facts(cards: Iterable[ScorecardEntry]) -> Facts:
    """A table's cards as the facts of a one-deal game. A checker's entry rules for both
    sides; two side cards that differ are each a rival entry and an open dispute.

    >>> status_of(scorecard_facts([ScorecardEntry(0, (7, 90))])).value
    'finished'
    >>> status_of(scorecard_facts([ScorecardEntry(0, (7, 90)), ScorecardEntry(1, (7, 95))])).value
    'disputed'
    """
    cards = list(cards)
    if any(c.side is None for c in cards):
        ruled = Side(vouched=1)
        return Facts(deals=1, finished=True, void=False, open_disputes=0, home=ruled, away=ruled)
    by_side = {c.side: c.result for c in cards}
    both = len(by_side) == 2
    differ = both and by_side[0] != by_side[1]
    sides = [Side(vouched=1 if s in by_side else 0, rival=1 if differ else 0) for s in (0, 1)]
    return Facts(
        deals=1,
        finished=bool(by_side),
        void=False,
        open_disputes=1 if differ else 0,
        home=sides[0],
        away=sides[1],
    )
