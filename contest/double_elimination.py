"""Double elimination: a winners' bracket drawn like a single-elimination one (the same seed
order, byes to the top seeds), a losers' bracket fed by the winners' bracket's losers, and a
grand final between the two brackets' winners, with a reset game as a setting.

The layout is structure only (which match sends its winner and its loser where); :func:`play`
replays results over it, so a bracket's state is always recomputed from its seeds and the
winners recorded, never patched slot by slot.

- The winners' bracket has ``k`` rounds for a bracket of ``2**k``; its round ``r`` has
  ``2**k >> r`` matches, and the winner of match ``p`` goes on to match ``p // 2`` of round
  ``r + 1`` (the top slot from an even ``p``), the last round's winner to the grand final's top.
- The losers' bracket has ``2 * (k - 1)`` rounds. Its round 1 pairs the losers of the winners'
  round 1 (matches ``2q`` and ``2q + 1`` into match ``q``). Each even round ``2i`` has the
  survivors of round ``2i - 1`` (top slot, same position) meet the losers dropping from the
  winners' round ``i + 1`` (bottom slot); each odd round after the first halves the field (like
  the winners' bracket). The last round's winner meets the winners' champion in the grand final.
- A loser dropping from winners' round ``r`` (``r >= 2``, ``m`` matches) lands in losers' match
  ``m - 1 - p`` when ``r`` is even (the order turned round) and ``(p + m // 2) % m`` when odd
  (the halves swapped), so that two entrants who met in the winners' bracket do not meet again
  at once in the losers'.
- Grand final: the winners' champion on top. If the losers' champion wins it and the reset game
  is on, the two play a second, deciding game (the winners' champion has lost once only then).

A slot is a seed (1 up), :data:`NOBODY` for a slot no one will ever fill (behind a bye), or
None while it waits. A match with one entrant and NOBODY is a bye: the entrant goes through and
no loser drops; a match of NOBODY against NOBODY is empty and sends NOBODY on.

>>> state = play(4, {})
>>> [(m.key.label(), m.top, m.bottom) for m in state.matches if m.status == READY]
[('W1-1', 1, 4), ('W1-2', 2, 3)]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from contest import brackets

T = TypeVar("T", bound=Hashable)

WINNERS = "winners"
LOSERS = "losers"
FINAL = "final"
SIDES = (WINNERS, LOSERS, FINAL)

NOBODY = 0  # a slot behind a bye: nobody will ever play in it

# A match's status in a replay.
WAITING = "waiting"  # one of its slots is not known yet
READY = "ready"  # both entrants known, no winner recorded yet
DECIDED = "decided"  # a winner recorded
BYE = "bye"  # one entrant against NOBODY: through without playing
EMPTY = "empty"  # NOBODY against NOBODY
UNNEEDED = "unneeded"  # the reset game when the winners' champion won the first final


@dataclass(frozen=True)
class Key:
    """Where a match sits: its bracket side, round (from 1) and position (from 0)."""

    side: str
    round: int
    position: int

    def label(self) -> str:
        """A short, language-free label: ``W2-1``, ``L3-2``, ``F1`` (the reset game ``F2``).

        >>> Key(LOSERS, 3, 1).label(), Key(FINAL, 2, 0).label()
        ('L3-2', 'F2')
        """
        letter = self.side[0].upper()
        if self.side == FINAL:
            return f"{letter}{self.round}"
        return f"{letter}{self.round}-{self.position + 1}"

    def sort_key(self) -> tuple[int, int, int]:
        return (SIDES.index(self.side), self.round, self.position)


@dataclass(frozen=True)
class Feed:
    """A slot a result is sent to: the match and its slot, 0 the top and 1 the bottom."""

    key: Key
    slot: int


@dataclass(frozen=True)
class Match:
    """One match of the layout: where its winner and its loser go (None: nowhere, out or
    done), and for the winners' round 1 the seeds drawn into it (None for a bye)."""

    key: Key
    winner_to: Feed | None
    loser_to: Feed | None
    seeds: tuple[int, int | None] | None = None


@dataclass
class MatchState:
    key: Key
    top: int | None
    bottom: int | None
    status: str
    winner: int | None = None
    loser: int | None = None


@dataclass
class State:
    """A replay: every match in play order, the champion once there is one, and each
    eliminated seed's place (``placings``, shared by those out at the same stage)."""

    matches: list[MatchState]
    champion: int | None
    placings: dict[int, int] = field(default_factory=dict)

    def match(self, key: Key) -> MatchState:
        for m in self.matches:
            if m.key == key:
                return m
        raise KeyError(key)

    def ready(self) -> list[Key]:
        return [m.key for m in self.matches if m.status == READY]


def winners_rounds(entrants: int) -> int:
    """Rounds of the winners' bracket (``k`` for a bracket of ``2**k``).

    >>> [winners_rounds(n) for n in (2, 4, 6, 8, 16)]
    [1, 2, 3, 3, 4]
    """
    return brackets.bracket_size(entrants).bit_length() - 1


def losers_rounds(entrants: int) -> int:
    """Rounds of the losers' bracket.

    >>> [losers_rounds(n) for n in (2, 4, 6, 8, 16)]
    [0, 2, 4, 4, 6]
    """
    return 2 * (winners_rounds(entrants) - 1)


def drop_position(winners_round: int, position: int, matches: int) -> int:
    """The losers' match a loser of winners' ``winners_round`` match ``position`` drops into
    (the losers' round has ``matches`` matches, as many as that winners' round).

    >>> [drop_position(2, p, 4) for p in range(4)], [drop_position(3, p, 2) for p in range(2)]
    ([3, 2, 1, 0], [1, 0])
    """
    if winners_round % 2 == 0:
        return matches - 1 - position
    return (position + matches // 2) % matches


def layout(entrants: int, *, reset: bool = True) -> list[Match]:
    """Every match of a double-elimination bracket for ``entrants`` seeds, in an order in
    which each match comes after the matches that feed it.

    >>> [m.key.label() for m in layout(4)]
    ['W1-1', 'W1-2', 'W2-1', 'L1-1', 'L2-1', 'F1', 'F2']
    """
    if entrants < 2:
        raise ValueError("double elimination needs two entrants or more")
    size = brackets.bracket_size(entrants)
    k = winners_rounds(entrants)
    final = Key(FINAL, 1, 0)
    firsts = brackets.bracket(entrants)
    out: list[Match] = []

    def winners(r: int) -> list[Match]:
        count = size >> r
        row = []
        for p in range(count):
            up = Feed(Key(WINNERS, r + 1, p // 2), p % 2) if r < k else Feed(final, 0)
            if r == 1:
                down = Feed(Key(LOSERS, 1, p // 2), p % 2) if k > 1 else Feed(final, 1)
            else:
                down = Feed(Key(LOSERS, 2 * (r - 1), drop_position(r, p, count)), 1)
            seeds = firsts[p] if r == 1 else None
            row.append(Match(Key(WINNERS, r, p), up, down, seeds))
        return row

    def losers(j: int) -> list[Match]:
        count = size >> ((j + 1) // 2 + 1)
        last = 2 * (k - 1)
        row = []
        for p in range(count):
            if j == last:
                up = Feed(final, 1)
            elif j % 2 == 1:
                up = Feed(Key(LOSERS, j + 1, p), 0)
            else:
                up = Feed(Key(LOSERS, j + 1, p // 2), p % 2)
            row.append(Match(Key(LOSERS, j, p), up, None))
        return row

    out.extend(winners(1))
    for r in range(2, k + 1):
        out.extend(winners(r))
        if r == 2:
            out.extend(losers(1))
        else:
            out.extend(losers(2 * (r - 1) - 1))
        out.extend(losers(2 * (r - 1)))
    out.append(Match(final, None, None))
    if reset:
        out.append(Match(Key(FINAL, 2, 0), None, None))
    return out


def needs_reset(first_final_winner: int, winners_champion: int, *, reset: bool) -> bool:
    """Whether the grand final goes to its reset game: only when the losers' champion won the
    first game and the event plays the reset.

    >>> needs_reset(3, 1, reset=True), needs_reset(1, 1, reset=True), needs_reset(3, 1, reset=False)
    (True, False, False)
    """
    return reset and first_final_winner != winners_champion


def play(
    entrants: int, results: Mapping[Key, int], *, reset: bool = True, strict: bool = True
) -> State:
    """Replay ``results`` (each decided match's winning seed) over the layout: every match's
    entrants and status, the champion, the places of those eliminated. A result for a match
    that cannot be played yet, or naming a seed not in it, is a ``ValueError``; not
    ``strict``, it is left out (how the bracket would stand were a result taken back).

    >>> s = play(2, {Key(WINNERS, 1, 0): 1, Key(FINAL, 1, 0): 1})
    >>> s.champion, s.placings
    (1, {1: 1, 2: 2})
    """
    matches = layout(entrants, reset=reset)
    slots: dict[Key, list[int | None]] = {m.key: [None, None] for m in matches}
    states: list[MatchState] = []
    out_at: dict[int, int] = {}  # seed -> losers' round they went out in (finals: beyond)
    champion: int | None = None
    last_losers = losers_rounds(entrants)

    def send(feed: Feed | None, seed: int | None) -> None:
        if feed is not None and seed is not None:
            slots[feed.key][feed.slot] = seed

    for m in matches:
        top: int | None
        bottom: int | None
        if m.seeds is not None:
            top, bottom = m.seeds[0], NOBODY if m.seeds[1] is None else m.seeds[1]
        else:
            top, bottom = slots[m.key]
        given = results.get(m.key)
        if not strict and given is not None:
            ready = top not in (None, NOBODY) and bottom not in (None, NOBODY)
            if m.key == Key(FINAL, 2, 0):
                first = next(s for s in states if s.key == Key(FINAL, 1, 0))
                ready = first.status == DECIDED and first.winner != first.top
            if not ready or (m.key != Key(FINAL, 2, 0) and given not in (top, bottom)):
                given = None
        state = MatchState(m.key, top, bottom, WAITING)
        states.append(state)
        if m.key == Key(FINAL, 2, 0):
            first = next(s for s in states if s.key == Key(FINAL, 1, 0))
            if first.status == DECIDED and first.winner == first.top:
                state.status = UNNEEDED
                state.top = state.bottom = NOBODY
                if given is not None:
                    raise ValueError(f"{m.key.label()} is not played: the first final decided")
                continue
            if first.status == DECIDED:
                state.top, state.bottom = first.top, first.bottom
                top, bottom = first.top, first.bottom
            else:
                top = bottom = None
                state.top = state.bottom = None
        if top is None or bottom is None:
            if given is not None:
                raise ValueError(f"{m.key.label()} waits for its entrants")
            continue
        if top == NOBODY or bottom == NOBODY:
            if given is not None:
                raise ValueError(f"{m.key.label()} is not played")
            state.status = EMPTY if top == bottom else BYE
            state.winner = bottom if top == NOBODY else top
            state.loser = NOBODY
        elif given is None:
            state.status = READY
            continue
        elif given not in (top, bottom):
            raise ValueError(f"{m.key.label()} is between {top} and {bottom}, not {given}")
        else:
            state.status = DECIDED
            state.winner = given
            state.loser = bottom if given == top else top
        send(m.winner_to, state.winner)
        send(m.loser_to, state.loser)
        if state.status != DECIDED or state.loser is None:
            continue
        if m.key.side == LOSERS:
            out_at[state.loser] = m.key.round
        elif m.key.side == FINAL:
            if m.key.round == 1 and needs_reset(state.winner, top, reset=reset):
                continue  # both play on in the reset game
            champion = state.winner
            out_at[state.loser] = last_losers + 1
            out_at[state.winner] = last_losers + 2
    return State(states, champion, places(out_at))


def places(out_at: Mapping[T, int]) -> dict[T, int]:
    """Places from how far each went (a higher stage, a better place): those out at the same
    stage share the best place of their group.

    >>> places({"A": 5, "B": 6, "C": 3, "D": 3, "E": 4})
    {'B': 1, 'A': 2, 'E': 3, 'C': 4, 'D': 4}
    """
    order = sorted(out_at.items(), key=lambda item: -item[1])
    out: dict[T, int] = {}
    place = 0
    previous: int | None = None
    for i, (who, stage) in enumerate(order, start=1):
        if stage != previous:
            place, previous = i, stage
        out[who] = place
    return out


def best_of(schedule: tuple[int, ...], key: Key, entrants: int, *, default: int = 3) -> int:
    """A match's best-of from a schedule (:func:`contest.brackets.round_best_of`), counting
    the winners' rounds and then the grand final as the bracket's rounds: the grand final
    (both games) plays the schedule's last entry, the winners' final the one before it; a
    losers' round plays as the winners' round whose losers drop into it (losers' rounds 1 and 2
    as winners' round 2, rounds 3 and 4 as winners' round 3, and so on).

    >>> [best_of((1, 3, 3, 5), k, 8) for k in (Key(WINNERS, 1, 0), Key(LOSERS, 1, 0),
    ...     Key(LOSERS, 4, 0), Key(WINNERS, 3, 0), Key(FINAL, 1, 0), Key(FINAL, 2, 0))]
    [1, 3, 3, 3, 5, 5]
    """
    rounds = winners_rounds(entrants) + 1
    if key.side == FINAL:
        round_ = rounds
    elif key.side == LOSERS:
        round_ = (key.round + 1) // 2 + 1
    else:
        round_ = key.round
    return brackets.round_best_of(schedule, round_, rounds, default=default)
