"""The life of a game, written once: its states, what may happen in each, and who still has to
vouch for it. Every door (the phone page, the API, the admin, an import, a Celery task) goes
through the services, and the services ask this module; ``can()`` asks it too, so a button is
shown exactly when the service would accept the press.

The states::

    in progress --(a side reaches the target)--> finished --(both teams vouched)--> confirmed
                                                    |
                                                    +--(dispute)--> disputed --(ruled)--> confirmed
    any state but void --(a judge or league admin voids it)--> void (its number is free again)

A game's state is not set by hand: it follows from the facts (is the game over, is a dispute
open, how far has each team vouched), so it can never disagree with them.

Vouching: a team vouches for every deal up to the last one its players entered; confirming
vouches for the whole game; a game is confirmed when both teams have vouched for all its deals.
A team whose entry of a deal differs from the stored one (a rival entry) vouches for nothing
from that deal on until the difference is settled (a dispute, a correction, or accepting the
other numbers). A judge's ruling on a finished game vouches for both teams.

The same vouching serves tournament scorecards: each side's entry is its vouch.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.errors import Locked, ValidationFailed
from league.models.games import GameStatus


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
    RESCORE = "rescore"  # the season's rules changed (an audited decision)


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
    Event.RESCORE: frozenset({S.IN_PROGRESS, S.FINISHED, S.DISPUTED, S.CONFIRMED}),
}

# Why an event is refused in a state, in words for the table (the first match wins).
_REFUSALS: tuple[tuple[frozenset[GameStatus], frozenset[Event], str], ...] = (
    (frozenset({S.VOID}), frozenset(Event), gettext_lazy("This game was voided.")),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.RECORD_DEAL, Event.CORRECT_DEAL, Event.WITHDRAW_RIVAL}),
        gettext_lazy("This game is confirmed; only a judge can change it now."),
    ),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        gettext_lazy("This game is already confirmed."),
    ),
    (
        frozenset({S.CONFIRMED}),
        frozenset({Event.RAISE_DISPUTE}),
        gettext_lazy("This game is confirmed by both teams; ask a judge to review it."),
    ),
    (
        frozenset({S.FINISHED, S.DISPUTED}),
        frozenset({Event.RECORD_DEAL}),
        gettext_lazy("This game is over; correct a deal instead, or raise a dispute."),
    ),
    (
        frozenset({S.DISPUTED}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        gettext_lazy("This game is disputed: it waits for a judge's ruling."),
    ),
    (
        frozenset({S.IN_PROGRESS}),
        frozenset({Event.CONFIRM, Event.REJECT}),
        gettext_lazy("This game is not over yet."),
    ),
)


def allows(event: Event, status: str) -> bool:
    return status in ALLOWED[event]


def require(event: Event, status: str, *, current: dict[str, object] | None = None) -> None:
    """Refuse ``event`` in a state where it cannot happen, saying why (409 for a state that
    moved on, 400 for one that was never right)."""
    if allows(event, status):
        return
    for states, events, message in _REFUSALS:
        if status in states and event in events:
            raise Locked(str(message), current=current or {})
    raise ValidationFailed(_("This cannot be done to the game now."))
