"""Deals and games: the numbers a captain enters, checked by the rules and added up in order.

A deal is entered as numbers (his heels, pegging per side, each player's show, the crib),
optionally with the cards. The scorer refuses numbers no legal deal can produce, and adds the
rest in the order they are pegged at the table: his heels, the play, the shows clockwise from the
dealer's left with the dealer last, then the crib. The game ends the instant a side reaches the
target, even in the middle of the shows: nothing after that moment may be entered.

>>> game = Game("singles-121")
>>> result = game.record(DealEntry(0, pegging=(4, 3), shows={1: 8, 0: 12}, crib=5))
>>> result.scores_after, game.next_dealer
((21, 11), 1)

Every refusal names the field that was wrong, so a form can put the message beside it:

>>> game.record(DealEntry(1, pegging=(2, 2), shows={0: 19, 1: 6}, crib=2))
Traceback (most recent call last):
...
scoring.errors.InvalidDealError: A hand can never score 19.
>>> game.scores  # a refused deal changes nothing
(21, 11)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from types import MappingProxyType
from typing import TypedDict, TypeGuard, cast

from scoring.cards import DECK, Card, format_cards
from scoring.distribution import possible_totals
from scoring.errors import GameOverError, InvalidCardError, InvalidDealError, ScoringError
from scoring.outcome import (
    DEFAULT_DOUBLE_SKUNK_MARGIN,
    DEFAULT_SKUNK_MARGIN,
    Outcome,
    outcome_for,
)
from scoring.pegging import max_pegging, max_pegging_total
from scoring.show import show_total
from scoring.variants import VARIANTS, Variant, get_variant

HEELS_POINTS = 2
"""Two for his heels: the dealer's side pegs 2 when the starter is a Jack."""

THREE_FOR_LAST_POINTS = 3
"""Five-card cribbage: the first non-dealer pegs 3 before the game begins."""

JACK = 11
_CARDS = frozenset(DECK)


def _is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a bool: ``True`` is not one point."""
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------------
# What may be entered
# --------------------------------------------------------------------------------------------


class PeggingLimits(TypedDict):
    """The most one side can peg in one deal's play (go and last card included)."""

    dealer: int
    non_dealer: int
    total: int  # all sides together


class EntryRules(TypedDict):
    """What :func:`entry_rules` returns: plain JSON for the score-entry page."""

    variant: str
    players: int
    sides: int
    side_of_seat: list[int]
    target: int
    hand_size: int
    crib_size: int
    show_totals: list[int]
    crib_totals: list[int]
    pegging_max: PeggingLimits
    heels_points: int
    three_for_last_points: int


@dataclass(frozen=True, slots=True)
class _Limits:
    show_totals: frozenset[int]
    crib_totals: frozenset[int]
    peg_dealer: int
    peg_other: int
    peg_total: int


@functools.cache
def _limits(variant: Variant) -> _Limits:
    return _Limits(
        show_totals=possible_totals(variant.hand_size),
        crib_totals=possible_totals(variant.crib_size, crib=True),
        peg_dealer=max_pegging(variant, dealer=True),
        peg_other=max_pegging(variant, dealer=False),
        peg_total=max_pegging_total(variant),
    )


def entry_rules(variant: Variant | str, *, target: int | None = None) -> EntryRules:
    """The allowed numbers of a deal, as JSON, for checking scores as they are typed.

    ``target`` overrides the variant's (a league may play to its own). The server checks
    everything again; this only lets the page warn early.

    >>> rules = entry_rules("partnership-121")
    >>> rules["target"], rules["side_of_seat"], rules["pegging_max"]["dealer"] > 0
    (121, [0, 1, 0, 1], True)
    >>> 19 in rules["show_totals"], max(rules["crib_totals"])
    (False, 29)
    """
    v = _variant(variant, target)
    limits = _limits(v)
    return {
        "variant": v.key,
        "players": v.players,
        "sides": v.sides,
        "side_of_seat": [v.side_of(seat) for seat in range(v.players)],
        "target": v.target,
        "hand_size": v.hand_size,
        "crib_size": v.crib_size,
        "show_totals": sorted(limits.show_totals),
        "crib_totals": sorted(limits.crib_totals),
        "pegging_max": {
            "dealer": limits.peg_dealer,
            "non_dealer": limits.peg_other,
            "total": limits.peg_total,
        },
        "heels_points": HEELS_POINTS,
        "three_for_last_points": THREE_FOR_LAST_POINTS if v.three_for_last else 0,
    }


def _variant(variant: Variant | str, target: int | None = None) -> Variant:
    """The variant (by key or itself), played to ``target`` if a league sets its own."""
    v = variant if isinstance(variant, Variant) else get_variant(variant)
    if target is None or target == v.target:
        return v
    if not _is_int(target) or target < 1:
        raise ScoringError(
            f"A game is played to a positive number of points, not {target!r}.",
            code="bad_target",
            params={"target": repr(target)},
        )
    return dataclasses.replace(v, target=target)


def _variant_repr(v: Variant) -> str:
    if VARIANTS.get(v.key) == v:
        return f"get_variant({v.key!r})"
    return repr(v)


# --------------------------------------------------------------------------------------------
# A deal as entered
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One deal as a captain enters it: numbers, and the cards if they were written down.

    - ``dealer``: the dealer's seat (seats are numbered clockwise from 0).
    - ``starter``: the starter card, if entered.
    - ``heels``: whether the dealer's side pegged two for his heels; ``None`` means "as the
      starter says" (no heels when the starter was not entered).
    - ``pegging``: points pegged in the play by each side, go and last card included, in side
      order. Leave it empty only when the game ended on his heels, before the play.
    - ``shows``: seat -> points shown, for the shows that were counted (all of them, unless the
      game ended before some).
    - ``crib``: the crib's points, or ``None`` when the game ended before it was counted.
    - ``hands``: seat -> the cards that player kept for the show (any seats; optional).
    - ``crib_cards``: the crib's cards (optional).

    Containers are copied, so an entry never changes once made.

    >>> DealEntry(1, pegging=[3, 5], shows={0: 8, 1: 6}, crib=4)
    DealEntry(1, pegging=(3, 5), shows={0: 8, 1: 6}, crib=4)
    """

    dealer: int
    _: KW_ONLY
    starter: Card | None = None
    heels: bool | None = None
    pegging: tuple[int, ...] = ()
    shows: Mapping[int, int] = field(default_factory=dict)
    crib: int | None = None
    hands: Mapping[int, Sequence[Card]] | None = None
    crib_cards: Sequence[Card] | None = None

    def __post_init__(self) -> None:
        # Copy every container, so the caller's lists and dicts can't change a recorded deal.
        # Values are not judged here: validate_deal does that, naming the field.
        pegging: object = self.pegging
        if isinstance(pegging, str | bytes | Mapping) or not isinstance(pegging, Iterable):
            raise InvalidDealError(
                "Enter the pegging as one number per side.",
                code="pegging_not_list",
                field="pegging",
            )
        object.__setattr__(self, "pegging", tuple(pegging))
        shows: object = self.shows
        if not isinstance(shows, Mapping):
            raise InvalidDealError(
                "Enter the shows as points per seat.", code="shows_not_mapping", field="shows"
            )
        object.__setattr__(self, "shows", MappingProxyType(dict(shows)))
        hands: object = self.hands
        if hands is not None:
            if not isinstance(hands, Mapping):
                raise InvalidDealError(
                    "Enter the hands as cards per seat.", code="hands_not_mapping", field="hands"
                )
            copied: dict[object, tuple[object, ...]] = {}
            for seat, cards in hands.items():
                if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
                    raise InvalidDealError(
                        f"Enter seat {seat}'s hand as a list of cards.",
                        code="hand_not_list",
                        params={"seat": seat},
                        field=f"hands.{seat}",
                    )
                copied[seat] = tuple(cards)
            object.__setattr__(self, "hands", MappingProxyType(copied))
        crib_cards: object = self.crib_cards
        if crib_cards is not None:
            if isinstance(crib_cards, str | bytes) or not isinstance(crib_cards, Iterable):
                raise InvalidDealError(
                    "Enter the crib as a list of cards.",
                    code="crib_cards_not_list",
                    field="crib_cards",
                )
            object.__setattr__(self, "crib_cards", tuple(crib_cards))

    def __hash__(self) -> int:
        hands = None if self.hands is None else tuple(sorted(self.hands.items(), key=repr))
        return hash(
            (
                self.dealer,
                self.starter,
                self.heels,
                self.pegging,
                tuple(sorted(self.shows.items(), key=repr)),
                self.crib,
                hands,
                self.crib_cards,
            )
        )

    def __repr__(self) -> str:
        parts = [repr(self.dealer)]
        if self.starter is not None:
            parts.append(f"starter={self.starter!r}")
        if self.heels is not None:
            parts.append(f"heels={self.heels!r}")
        parts.append(f"pegging={self.pegging!r}")
        parts.append(f"shows={dict(self.shows)!r}")
        parts.append(f"crib={self.crib!r}")
        if self.hands is not None:
            parts.append(f"hands={dict(self.hands)!r}")
        if self.crib_cards is not None:
            parts.append(f"crib_cards={self.crib_cards!r}")
        return f"DealEntry({', '.join(parts)})"

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready copy (cards as text, seats as keys); :meth:`from_dict` reads it back.

        >>> DealEntry(0, pegging=(2, 1), shows={1: 4, 0: 7}, crib=0).as_dict()["shows"]
        {'1': 4, '0': 7}
        """
        return {
            "dealer": self.dealer,
            "starter": None if self.starter is None else str(self.starter),
            "heels": self.heels,
            "pegging": list(self.pegging),
            "shows": {str(seat): points for seat, points in self.shows.items()},
            "crib": self.crib,
            "hands": None
            if self.hands is None
            else {str(seat): [str(c) for c in cards] for seat, cards in self.hands.items()},
            "crib_cards": None if self.crib_cards is None else [str(c) for c in self.crib_cards],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DealEntry:
        """Read what :meth:`as_dict` wrote (or the same shape from a form or an import file).

        Seats may be written as text (JSON keys are); cards as text like ``"5H"``. A card that
        can't be read raises :class:`InvalidDealError` naming its field.

        >>> DealEntry.from_dict({"dealer": 0, "starter": "JH", "pegging": [0, 2],
        ...                      "shows": {"1": 4, "0": 7}, "crib": 0})
        DealEntry(0, starter=Card.from_str('JH'), pegging=(0, 2), shows={1: 4, 0: 7}, crib=0)
        """
        raw_hands = data.get("hands")
        hands: dict[int, tuple[Card, ...]] | None = None
        if raw_hands is not None:
            if not isinstance(raw_hands, Mapping):
                raise InvalidDealError(
                    "Enter the hands as cards per seat.", code="hands_not_mapping", field="hands"
                )
            hands = {
                _seat_key(seat, "hands"): _read_cards(cards, f"hands.{seat}")
                for seat, cards in raw_hands.items()
            }
        raw_shows = data.get("shows", {})
        if not isinstance(raw_shows, Mapping):
            raise InvalidDealError(
                "Enter the shows as points per seat.", code="shows_not_mapping", field="shows"
            )
        raw_crib_cards = data.get("crib_cards")
        raw_starter = data.get("starter")
        starter = None if raw_starter is None else _read_cards([raw_starter], "starter")[0]
        # The values are passed on unjudged (hence the casts): validate_deal judges them
        # and names the field, whichever door the deal came through.
        return cls(
            cast(int, data.get("dealer")),
            starter=starter,
            heels=cast("bool | None", data.get("heels")),
            pegging=cast("tuple[int, ...]", data.get("pegging", ())),
            shows={_seat_key(seat, "shows"): points for seat, points in raw_shows.items()},
            crib=cast("int | None", data.get("crib")),
            hands=hands,
            crib_cards=None
            if raw_crib_cards is None
            else _read_cards(raw_crib_cards, "crib_cards"),
        )


def _seat_key(seat: object, where: str) -> int:
    if _is_int(seat):
        return seat
    if isinstance(seat, str) and seat.strip().isdigit():
        return int(seat)
    raise InvalidDealError(
        f"{seat!r} is not a seat number.",
        code="not_a_seat_number",
        params={"seat": repr(seat)},
        field=f"{where}.{seat}",
    )


def _read_cards(cards: object, where: str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, Iterable):
        raise InvalidDealError(
            "Enter the cards as a list like 5H JC.", code="cards_not_list", field=where
        )
    out: list[Card] = []
    for card in cards:
        if isinstance(card, Card):
            out.append(card)
            continue
        try:
            out.append(Card.from_str(card))
        except InvalidCardError as exc:
            raise InvalidDealError(
                str(exc), code=exc.code, params=exc.params, field=where
            ) from None
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Where a game stands, and what one deal did to it
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands between deals: enough to check the next deal, nothing more.

    A league that keeps the scores and the number of deals played in its database can
    rebuild this without replaying the deals. :meth:`start` adds the five-card game's
    "three for last" to a new game.

    >>> GameState.start("five-card-61", first_dealer=0)
    GameState(get_variant('five-card-61'), scores=(0, 3), first_dealer=0, deals=0)
    """

    variant: Variant
    scores: tuple[int, ...]
    _: KW_ONLY
    first_dealer: int = 0
    deals: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise ScoringError(
                f"{self.variant!r} is not a game of cribbage the scorer knows.",
                code="not_a_variant",
                params={"variant": repr(self.variant)},
            )
        v = self.variant
        if not _is_int(self.first_dealer) or not 0 <= self.first_dealer < v.players:
            raise InvalidDealError(
                f"The first dealer is a seat from 0 to {v.players - 1}, not {self.first_dealer!r}.",
                code="bad_first_dealer",
                params={"dealer": repr(self.first_dealer), "last": v.players - 1},
                field="first_dealer",
            )
        object.__setattr__(self, "scores", tuple(self.scores))
        if len(self.scores) != v.sides or not all(_is_int(s) and s >= 0 for s in self.scores):
            raise ScoringError(
                f"A game of {v.name} keeps {v.sides} scores of 0 or more, not {self.scores!r}.",
                code="bad_scores",
                params={"variant": v.name, "sides": v.sides, "scores": repr(self.scores)},
            )
        if sum(1 for s in self.scores if s >= v.target) > 1:
            raise ScoringError(
                f"Only one side can reach {v.target}.",
                code="two_winners",
                params={"target": v.target},
            )
        if not _is_int(self.deals) or self.deals < 0:
            raise ScoringError(
                f"The number of deals played can't be {self.deals!r}.",
                code="bad_deal_count",
                params={"deals": repr(self.deals)},
            )

    @classmethod
    def start(
        cls, variant: Variant | str, *, first_dealer: int = 0, target: int | None = None
    ) -> GameState:
        """A new game (to ``target``, if not the variant's), with "three for last" already
        pegged in the five-card game."""
        v = _variant(variant, target)
        scores = [0] * v.sides
        if v.three_for_last and _is_int(first_dealer) and 0 <= first_dealer < v.players:
            scores[v.side_of(v.next_seat(first_dealer))] += THREE_FOR_LAST_POINTS
        state = cls(v, tuple(scores), first_dealer=first_dealer)
        if state.finished:
            raise ScoringError(
                f"A game to {v.target} would be over before the first deal.",
                code="over_before_start",
                params={"target": v.target},
            )
        return state

    def __repr__(self) -> str:
        return (
            f"GameState({_variant_repr(self.variant)}, scores={self.scores!r}, "
            f"first_dealer={self.first_dealer!r}, deals={self.deals!r})"
        )

    @property
    def next_dealer(self) -> int:
        """The seat that deals next: the deal passes clockwise one seat per deal."""
        return (self.first_dealer + self.deals) % self.variant.players

    @property
    def winner(self) -> int | None:
        """The side that reached the target, or ``None`` while the game goes on."""
        for side, score in enumerate(self.scores):
            if score >= self.variant.target:
                return side
        return None

    @property
    def finished(self) -> bool:
        return self.winner is not None


class Stage(enum.StrEnum):
    """The parts of a deal, in the order their points are pegged."""

    HEELS = "heels"
    PEGGING = "pegging"
    SHOW = "show"
    CRIB = "crib"

    def __repr__(self) -> str:
        return f"Stage.{self.name}"


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a peg: ``side`` pegs ``points`` at ``stage`` (``seat``: whose show or crib).

    >>> Step(Stage.SHOW, side=1, points=8, seat=3).field
    'shows.3'
    """

    stage: Stage
    _: KW_ONLY
    side: int
    points: int
    seat: int | None = None

    @property
    def field(self) -> str:
        """The :class:`DealEntry` field this step came from, as error fields name it."""
        if self.stage is Stage.PEGGING:
            return f"pegging.{self.side}"
        if self.stage is Stage.SHOW:
            return f"shows.{self.seat}"
        return str(self.stage)

    def __str__(self) -> str:
        if self.stage is Stage.HEELS:
            return f"two for his heels to side {self.side}"
        if self.stage is Stage.PEGGING:
            return f"side {self.side} pegging {self.points}"
        if self.stage is Stage.SHOW:
            return f"seat {self.seat}'s show of {self.points}"
        return f"the crib's {self.points}"


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one deal did: the scores before and after, each peg move, and where the game ended.

    ``ended_at`` is the step on which a side reached the target, or ``None``.
    """

    entry: DealEntry
    before: GameState
    after: GameState
    steps: tuple[Step, ...]
    ended_at: Step | None = None

    @property
    def index(self) -> int:
        """Which deal of the game this was: 0 for the first."""
        return self.before.deals

    @property
    def scores_before(self) -> tuple[int, ...]:
        """The scores per side before this deal."""
        return self.before.scores

    @property
    def scores_after(self) -> tuple[int, ...]:
        """The scores per side after this deal (where the pegs stand on the board)."""
        return self.after.scores

    @property
    def points(self) -> tuple[int, ...]:
        """Points each side pegged in this deal."""
        return tuple(a - b for a, b in zip(self.after.scores, self.before.scores, strict=True))

    @property
    def finished(self) -> bool:
        """Whether the game ended in this deal."""
        return self.ended_at is not None

    @property
    def winner(self) -> int | None:
        return self.after.winner


# --------------------------------------------------------------------------------------------
# Checking a deal
# --------------------------------------------------------------------------------------------


def validate_deal(game: GameState | Game, entry: DealEntry) -> DealResult:
    """Check ``entry`` as the next deal of ``game`` and say what it would do, changing nothing.

    Raises :class:`InvalidDealError` (its ``field`` names what was wrong: ``"dealer"``,
    ``"starter"``, ``"heels"``, ``"pegging"``, ``"pegging.1"``, ``"shows.2"``, ``"crib"``,
    ``"hands.3"``, ``"crib_cards"``), or :class:`GameOverError` when the game is already over.

    >>> state = GameState.start("singles-121")
    >>> validate_deal(state, DealEntry(0, pegging=(3, 2), shows={1: 6, 0: 10}, crib=2)).scores_after
    (15, 8)
    >>> validate_deal(state, DealEntry(1, pegging=(3, 2), shows={1: 6, 0: 10}, crib=2))
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidDealError: The deal passes clockwise: seat 0 deals this hand, not seat 1.
    """
    state = game.state if isinstance(game, Game) else game
    v = state.variant
    if state.finished:
        raise GameOverError(
            f"The game is over: side {state.winner} reached {v.target}. "
            "No more deals can be recorded.",
            code="game_over",
            params={"side": state.winner, "target": v.target},
        )
    if not isinstance(entry, DealEntry):
        raise InvalidDealError(
            f"{entry!r} is not a deal.", code="not_a_deal", params={"deal": repr(entry)}
        )
    limits = _limits(v)

    dealer = _check_dealer(state, entry.dealer)
    dealer_side = v.side_of(dealer)
    heels = _check_cards_and_heels(v, entry)
    pegging = _check_pegging(v, entry.pegging, dealer_side, limits)
    shows = _check_shows(v, entry, limits)
    crib = _check_crib(entry, limits)

    # Add the points up in the order they are pegged, stopping at the target.
    scores = list(state.scores)
    steps: list[Step] = []
    ended_at: Step | None = None

    def peg(step: Step) -> None:
        nonlocal ended_at
        steps.append(step)
        scores[step.side] += step.points
        if ended_at is None and scores[step.side] >= v.target:
            ended_at = step

    if heels:
        peg(Step(Stage.HEELS, side=dealer_side, points=HEELS_POINTS, seat=dealer))

    if ended_at is not None:
        for side, points in enumerate(pegging):
            if points:
                raise InvalidDealError(
                    f"The game ended on his heels, before the play: side {side}'s pegging "
                    "doesn't count.",
                    code="pegging_after_heels",
                    params={"side": side},
                    field=f"pegging.{side}",
                )
    elif not pegging:
        raise InvalidDealError(
            _pegging_count_message(v),
            code="pegging_count",
            params={"sides": v.sides},
            field="pegging",
        )
    else:
        out = [side for side, points in enumerate(pegging) if scores[side] + points >= v.target]
        if len(out) > 1:
            raise InvalidDealError(
                f"Only one side can reach {v.target} in the play: the game stops the moment "
                "the first side gets there. Enter the other side's pegging up to that moment.",
                code="two_out_in_play",
                params={"target": v.target},
                field="pegging",
            )
        # A side that went out pegged last: what the others pegged came before that moment.
        for side in sorted(range(v.sides), key=lambda side: side in out):
            peg(Step(Stage.PEGGING, side=side, points=pegging[side]))

    for seat in v.show_order(dealer):
        if ended_at is not None:
            if seat in shows:
                raise InvalidDealError(
                    f"{_ended_sentence(v, ended_at)}: seat {seat}'s show doesn't count.",
                    code="show_after_end",
                    params={"seat": seat, **_ended_params(v, ended_at)},
                    field=f"shows.{seat}",
                )
            continue
        if seat not in shows:
            raise InvalidDealError(
                f"Seat {seat}'s show is missing: the game wasn't over yet.",
                code="show_missing",
                params={"seat": seat},
                field=f"shows.{seat}",
            )
        peg(Step(Stage.SHOW, side=v.side_of(seat), points=shows[seat], seat=seat))

    if ended_at is not None:
        if crib is not None:
            raise InvalidDealError(
                f"{_ended_sentence(v, ended_at)}: the crib doesn't count.",
                code="crib_after_end",
                params=_ended_params(v, ended_at),
                field="crib",
            )
    elif crib is None:
        raise InvalidDealError(
            "The crib's count is missing: the game wasn't over yet.",
            code="crib_missing",
            field="crib",
        )
    else:
        peg(Step(Stage.CRIB, side=dealer_side, points=crib, seat=dealer))

    after = GameState(v, tuple(scores), first_dealer=state.first_dealer, deals=state.deals + 1)
    return DealResult(entry=entry, before=state, after=after, steps=tuple(steps), ended_at=ended_at)


def _ended_sentence(v: Variant, step: Step) -> str:
    where = {
        Stage.HEELS: "on his heels",
        Stage.PEGGING: "in the play",
        Stage.SHOW: f"on seat {step.seat}'s show",
        Stage.CRIB: "on the crib",
    }[step.stage]
    return f"The game ended when side {step.side} reached {v.target} {where}"


def _ended_params(v: Variant, step: Step) -> dict[str, object]:
    """The parameters of :func:`_ended_sentence`, for a caller that says it in its own words."""
    return {
        "side": step.side,
        "target": v.target,
        "ended_on": str(step.stage),
        "ended_seat": step.seat if step.stage is Stage.SHOW else None,
    }


def _pegging_count_message(v: Variant) -> str:
    if v.sides == 2:
        return "Enter the pegging points of both sides: two numbers."
    return f"Enter the pegging points of each of the {v.sides} sides."


def _seat_order(item: tuple[object, object]) -> tuple[int, int, str]:
    """Sort key: seats in numeric order, anything that isn't a seat number after them."""
    seat = item[0]
    if isinstance(seat, int) and not isinstance(seat, bool):
        return (0, seat, "")
    return (1, 0, repr(seat))


def _is_seat(seat: object, v: Variant) -> TypeGuard[int]:
    return _is_int(seat) and 0 <= seat < v.players


def _not_a_seat(seat: object, v: Variant, fld: str) -> InvalidDealError:
    """The refusal of a ``seat`` that :func:`_is_seat` refused."""
    last = v.players - 1
    if not _is_int(seat):
        return InvalidDealError(
            f"{seat!r} is not a seat number: the seats are 0 to {last}.",
            code="seat_not_a_number",
            params={"seat": repr(seat), "last": last},
            field=fld,
        )
    return InvalidDealError(
        f"There is no seat {seat} at this table: the seats are 0 to {last}.",
        code="no_such_seat",
        params={"seat": seat, "last": last},
        field=fld,
    )


def _check_dealer(state: GameState, dealer: object) -> int:
    v = state.variant
    if not _is_seat(dealer, v):
        raise _not_a_seat(dealer, v, "dealer")
    expected = state.next_dealer
    if dealer != expected:
        raise InvalidDealError(
            f"The deal passes clockwise: seat {expected} deals this hand, not seat {dealer}.",
            code="wrong_dealer",
            params={"expected": expected, "dealer": dealer},
            field="dealer",
        )
    return dealer


# Where a card was entered: (the place, the seat of a hand), and how the English says it.
_Place = tuple[str, int | None]


def _place_words(where: _Place) -> str:
    place, seat = where
    return f"seat {seat}'s hand" if place == "hand" else f"the {place}"


def _check_cards_and_heels(v: Variant, entry: DealEntry) -> bool:
    """Check the starter, the cards and his heels; return whether heels was pegged."""
    starter: object = entry.starter
    if starter is not None and not (isinstance(starter, Card) and starter in _CARDS):
        raise InvalidDealError(
            f"The starter must be a card, not {starter!r}.",
            code="starter_not_a_card",
            params={"starter": repr(starter)},
            field="starter",
        )

    # Where each card was entered, to name both places when one is entered twice.
    places: dict[Card, _Place] = {}
    if entry.starter is not None:
        places[entry.starter] = ("starter", None)

    def place(card: object, where: _Place, fld: str) -> None:
        if not (isinstance(card, Card) and card in _CARDS):
            raise InvalidDealError(
                f"{card!r} is not a card.",
                code="not_a_card",
                params={"token": repr(card)},
                field=fld,
            )
        if card in places:
            first = places[card]
            raise InvalidDealError(
                f"{card} is entered twice ({_place_words(first)} and {_place_words(where)}); "
                "a deck has only one of each card.",
                code="card_twice",
                params={
                    "card": str(card),
                    "first": first[0],
                    "first_seat": first[1],
                    "second": where[0],
                    "second_seat": where[1],
                },
                field=fld,
            )
        places[card] = where

    if entry.hands is not None:
        for seat, cards in sorted(entry.hands.items(), key=_seat_order):
            fld = f"hands.{seat}"
            if not _is_seat(seat, v):
                raise _not_a_seat(seat, v, fld)
            if len(cards) != v.hand_size:
                raise InvalidDealError(
                    f"Each player keeps {v.hand_size} cards for the show: seat {seat}'s hand "
                    f"has {len(cards)}.",
                    code="hand_size",
                    params={"seat": seat, "size": v.hand_size, "count": len(cards)},
                    field=fld,
                )
            for card in cards:
                place(card, ("hand", seat), fld)
    if entry.crib_cards is not None:
        if len(entry.crib_cards) != v.crib_size:
            raise InvalidDealError(
                f"The crib has {v.crib_size} cards, not {len(entry.crib_cards)}.",
                code="crib_size",
                params={"size": v.crib_size, "count": len(entry.crib_cards)},
                field="crib_cards",
            )
        for card in entry.crib_cards:
            place(card, ("crib", None), "crib_cards")
    if entry.starter is None and (entry.hands or entry.crib_cards is not None):
        raise InvalidDealError(
            "Enter the starter too: the cards can't be counted without it.",
            code="starter_needed",
            field="starter",
        )

    heels: object = entry.heels
    if heels is not None and not isinstance(heels, bool):
        raise InvalidDealError(
            f"His heels is either pegged or not (yes or no), not {heels!r}.",
            code="heels_not_bool",
            params={"heels": repr(heels)},
            field="heels",
        )
    if entry.starter is None:
        return bool(heels)
    turned_jack = entry.starter.rank == JACK
    if heels is True and not turned_jack:
        raise InvalidDealError(
            f"The starter is {entry.starter}, not a Jack: there is no two for his heels.",
            code="heels_without_jack",
            params={"starter": str(entry.starter)},
            field="heels",
        )
    if heels is False and turned_jack:
        raise InvalidDealError(
            f"The starter is {entry.starter}: the dealer's side pegs two for his heels.",
            code="heels_missing",
            params={"starter": str(entry.starter)},
            field="heels",
        )
    return turned_jack


def _check_pegging(
    v: Variant, pegging: tuple[object, ...], dealer_side: int, limits: _Limits
) -> tuple[int, ...]:
    if pegging and len(pegging) != v.sides:
        raise InvalidDealError(
            _pegging_count_message(v),
            code="pegging_count",
            params={"sides": v.sides},
            field="pegging",
        )
    checked: list[int] = []
    for side, points in enumerate(pegging):
        fld = f"pegging.{side}"
        if not _is_int(points):
            raise InvalidDealError(
                f"Pegging points are a whole number, not {points!r}.",
                code="pegging_not_int",
                params={"side": side, "points": repr(points)},
                field=fld,
            )
        if points < 0:
            raise InvalidDealError(
                "Pegging points can't be negative.",
                code="pegging_negative",
                params={"side": side, "points": points},
                field=fld,
            )
        if side == dealer_side:
            most, who, code = limits.peg_dealer, "The dealer's side", "pegging_over_dealer"
        else:
            most, who, code = limits.peg_other, "A side that didn't deal", "pegging_over_other"
        if points > most:
            raise InvalidDealError(
                f"{who} can peg at most {most} in one deal, not {points}.",
                code=code,
                params={"side": side, "most": most, "points": points},
                field=fld,
            )
        checked.append(points)
    if sum(checked) > limits.peg_total:
        raise InvalidDealError(
            f"All sides together can peg at most {limits.peg_total} in one deal, "
            f"not {sum(checked)}.",
            code="pegging_over_total",
            params={"most": limits.peg_total, "points": sum(checked)},
            field="pegging",
        )
    return tuple(checked)


def _check_points(value: object, allowed: frozenset[int], seat: int | None, fld: str) -> int:
    """A hand's points (``seat``'s) or, with no seat, the crib's."""
    noun = "crib" if seat is None else "hand"
    where: dict[str, object] = {} if seat is None else {"seat": seat}
    if not _is_int(value):
        raise InvalidDealError(
            f"A {noun}'s points are a whole number, not {value!r}.",
            code="crib_not_int" if seat is None else "show_not_int",
            params={**where, "points": repr(value)},
            field=fld,
        )
    if value not in allowed:
        most = max(allowed)
        if value > most:
            message = f"A {noun} can never score {value}: the most it can make is {most}."
        else:
            message = f"A {noun} can never score {value}."
        raise InvalidDealError(
            message,
            code="impossible_crib" if seat is None else "impossible_show",
            params={**where, "points": value, "most": most},
            field=fld,
        )
    return value


def _check_claim(
    claim: int, cards: Sequence[Card], starter: Card, *, seat: int | None, fld: str
) -> None:
    """Refuse more points than ``seat``'s hand (or, with no seat, the crib) makes."""
    actual = show_total(cards, starter, crib=seat is None)
    if claim > actual:
        whose = "The crib" if seat is None else f"Seat {seat}'s hand"
        where: dict[str, object] = {} if seat is None else {"seat": seat}
        raise InvalidDealError(
            f"{whose}: {format_cards(cards)} with {starter} turned make {actual}, so {claim} "
            "can't be claimed (an under-count stands: we play no muggins).",
            code="crib_over_claim" if seat is None else "show_over_claim",
            params={
                **where,
                "cards": format_cards(cards),
                "starter": str(starter),
                "actual": actual,
                "claim": claim,
            },
            field=fld,
        )


def _check_shows(v: Variant, entry: DealEntry, limits: _Limits) -> dict[int, int]:
    shows: dict[int, int] = {}
    for seat, points in sorted(entry.shows.items(), key=_seat_order):
        fld = f"shows.{seat}"
        if not _is_seat(seat, v):
            raise _not_a_seat(seat, v, fld)
        value = _check_points(points, limits.show_totals, seat, fld)
        if entry.hands is not None and seat in entry.hands and entry.starter is not None:
            _check_claim(value, entry.hands[seat], entry.starter, seat=seat, fld=fld)
        shows[seat] = value
    return shows


def _check_crib(entry: DealEntry, limits: _Limits) -> int | None:
    if entry.crib is None:
        return None
    value = _check_points(entry.crib, limits.crib_totals, None, "crib")
    if entry.crib_cards is not None and entry.starter is not None:
        _check_claim(value, entry.crib_cards, entry.starter, seat=None, fld="crib")
    return value


# --------------------------------------------------------------------------------------------
# A game
# --------------------------------------------------------------------------------------------


class Game:
    """A game of any variant, recorded deal by deal.

    Seats are numbered clockwise from 0; in the partnership game seats 0 and 2 are side 0,
    seats 1 and 3 side 1. ``target`` overrides the variant's (a league may play to its own).
    Each :meth:`record` is all or nothing: a refused deal leaves the game exactly as it was.

    >>> game = Game("partnership-121", first_dealer=3)
    >>> entry = DealEntry(3, pegging=(5, 2), shows={0: 8, 1: 4, 2: 12, 3: 6}, crib=7)
    >>> game.record(entry).scores_after
    (25, 19)
    >>> game.next_dealer, game.finished
    (0, False)
    """

    def __init__(
        self, variant: Variant | str, *, first_dealer: int = 0, target: int | None = None
    ) -> None:
        self._start = GameState.start(variant, first_dealer=first_dealer, target=target)
        self._state = self._start
        self._results: list[DealResult] = []

    @classmethod
    def replay(
        cls,
        variant: Variant | str,
        entries: Iterable[DealEntry],
        *,
        first_dealer: int = 0,
        target: int | None = None,
    ) -> Game:
        """A game with ``entries`` recorded in order; a refusal notes which deal it was.

        >>> Game.replay("singles-121", [DealEntry(0, pegging=(1, 2), shows={1: 2, 0: 4}, crib=0),
        ...                             DealEntry(1, pegging=(3, 0), shows={0: 6, 1: 9}, crib=1)])
        <Game singles-121, 2 deals, scores 14-14, seat 0 deals next>
        """
        game = cls(variant, first_dealer=first_dealer, target=target)
        for number, entry in enumerate(entries, start=1):
            try:
                game.record(entry)
            except InvalidDealError as exc:
                exc.add_note(f"(in deal {number} of the game)")
                raise
        return game

    def __repr__(self) -> str:
        scores = "-".join(str(s) for s in self.scores)
        if self.finished:
            where = f"side {self.winner} won"
        else:
            where = f"seat {self.next_dealer} deals next"
        return f"<Game {self.variant.key}, {len(self._results)} deals, scores {scores}, {where}>"

    @property
    def variant(self) -> Variant:
        return self._state.variant

    @property
    def first_dealer(self) -> int:
        return self._state.first_dealer

    @property
    def state(self) -> GameState:
        """Where the game stands now (an immutable snapshot)."""
        return self._state

    @property
    def scores(self) -> tuple[int, ...]:
        """The score of each side now."""
        return self._state.scores

    @property
    def starting_scores(self) -> tuple[int, ...]:
        """The scores before the first deal: "three for last" in the five-card game, else 0."""
        return self._start.scores

    @property
    def next_dealer(self) -> int:
        """The seat that deals next (the deal passes clockwise)."""
        return self._state.next_dealer

    @property
    def finished(self) -> bool:
        return self._state.finished

    @property
    def winner(self) -> int | None:
        """The side that reached the target, or ``None`` while the game goes on."""
        return self._state.winner

    @property
    def deals(self) -> tuple[DealResult, ...]:
        """Each recorded deal, in order: its entry and what it did to the scores."""
        return tuple(self._results)

    @property
    def entries(self) -> tuple[DealEntry, ...]:
        """The recorded deals as entered, in order (what :meth:`replay` takes)."""
        return tuple(result.entry for result in self._results)

    @property
    def ended_at(self) -> Step | None:
        """The step on which the game ended (``None`` while it goes on)."""
        return self._results[-1].ended_at if self.finished and self._results else None

    def check(self, entry: DealEntry) -> DealResult:
        """What recording ``entry`` would do, without recording it (see :func:`validate_deal`)."""
        return validate_deal(self._state, entry)

    def record(self, entry: DealEntry) -> DealResult:
        """Check ``entry`` as the next deal and add it; a refusal changes nothing."""
        result = validate_deal(self._state, entry)
        self._results.append(result)
        self._state = result.after
        return result

    def outcome(
        self,
        *,
        skunk_margin: int = DEFAULT_SKUNK_MARGIN,
        double_skunk_margin: int = DEFAULT_DOUBLE_SKUNK_MARGIN,
    ) -> Outcome:
        """Who won and by how much; raises :class:`~scoring.outcome.InvalidScoresError` if the
        game is not over yet."""
        return outcome_for(
            self.scores,
            target=self.variant.target,
            skunk_margin=skunk_margin,
            double_skunk_margin=double_skunk_margin,
        )
