"""The play ("pegging"): what each card laid scores, a deal's whole play, and how much it can score.

``peg_scores`` counts one card; ``Pegging`` runs a deal's play for any variant (turns, go,
thirty-one, last card, the five-card game's single go); ``max_pegging`` is the most one side can
peg in a deal, which the league uses to refuse impossible claims. The bounds come from an
exhaustive search (``search_max_pegging``); ``docs/pegging-bounds.md`` explains it and gives a
deal that reaches each bound.

>>> peg_points("8H 6D 4C 5S")
3
>>> peg_scores("8H 6D 4C 5S 7H")
(PegScore(label='run of five', points=5),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from scoring.cards import Card, check_distinct, parse_cards
from scoring.errors import IllegalPlayError, InvalidHandError, ScoringError
from scoring.variants import VARIANTS, Variant

MAX_COUNT = 31
"""The count may never pass thirty-one."""

_PAIRS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}
_RUNS = {3: "run of three", 4: "run of four", 5: "run of five", 6: "run of six", 7: "run of seven"}


class PegScore(NamedTuple):
    """One thing a card scored as it was laid: ``PegScore("pair royal", 6)``."""

    label: str  # "fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run of four"
    points: int

    def __str__(self) -> str:
        return f"{self.label} for {self.points}"


class PegEvent(NamedTuple):
    """Points pegged during the play: who, for which card (``None`` for a go), what and how many."""

    seat: int
    card: Card | None
    label: str  # a PegScore label, or "go" or "last card"
    points: int

    def __str__(self) -> str:
        card = f" ({self.card})" if self.card is not None else ""
        return f"seat {self.seat}: {self.label} for {self.points}{card}"


class PegAction(NamedTuple):
    """One turn of the play: ``seat`` laid ``card``, or said go when ``card`` is ``None``."""

    seat: int
    card: Card | None

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.card if self.card is not None else 'go'}"


def _as_cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def peg_scores(pile: Sequence[Card] | str) -> tuple[PegScore, ...]:
    """What the last card of ``pile`` scores, item by item.

    ``pile`` is every card laid since the count was last reset, in the order laid. Pairs are
    cards of the same rank laid one after another (a jack never pairs a queen); a run is the
    longest stretch of the latest cards, three or more, that are all different consecutive
    ranks in any order (ace low: Q-K-A is not a run). A pile over 31 is refused.

    >>> peg_scores("5H 5D 5S")
    (PegScore(label='fifteen', points=2), PegScore(label='pair royal', points=6))
    >>> peg_scores("4H 2D 3S")
    (PegScore(label='run of three', points=3),)
    >>> peg_scores("KH QS 9D")
    ()
    >>> peg_scores("KH QS KD 2H")
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalPlayError: The count would be 32; it may never pass 31.
    """
    cards = _as_cards(pile)
    if not cards:
        return ()
    check_distinct(cards)
    count = sum(c.value for c in cards)
    if count > MAX_COUNT:
        raise IllegalPlayError(
            f"The count would be {count}; it may never pass {MAX_COUNT}.",
            code="count_over_31",
            params={"count": count},
        )
    scores: list[PegScore] = []
    if count == 15:
        scores.append(PegScore("fifteen", 2))
    elif count == MAX_COUNT:
        scores.append(PegScore("thirty-one", 2))
    last = cards[-1].rank
    same = 1
    while same < len(cards) and cards[-1 - same].rank == last:
        same += 1
    if same >= 2:
        scores.append(PegScore(*_PAIRS[same]))
    run = 0
    for n in range(3, len(cards) + 1):
        ranks = {c.rank for c in cards[-n:]}
        if len(ranks) == n and max(ranks) - min(ranks) == n - 1:
            run = n
    if run:
        scores.append(PegScore(_RUNS[run], run))
    return tuple(scores)


def peg_points(pile: Sequence[Card] | str) -> int:
    """The points the last card of ``pile`` pegs (see :func:`peg_scores`).

    Laid 8, 6, 4, 5, 7: the fourth card scores a run of three, the fifth a run of five.

    >>> peg_points("8H 6D 4C 5S"), peg_points("8H 6D 4C 5S 7H")
    (3, 5)
    >>> peg_points("JH QH"), peg_points("QH KH AH")
    (0, 0)
    """
    return sum(s.points for s in peg_scores(pile))


class Pegging:
    """One deal's play, card by card, for any variant: turns, go, thirty-one and last card.

    ``hands[i]`` is what seat ``i`` holds for the play. The player on the dealer's left lays
    first and play passes clockwise. A player who cannot lay a card without passing 31 must say
    :meth:`go`; when nobody can lay a card, whoever laid the last one pegs 1 for the go, the count
    starts again at 0 and the player to their left (who still holds cards) leads. Thirty-one pegs
    2 and resets at once (never 1 for the go as well). The very last card pegs 1 unless it made 31.
    In the five-card game (``variant.one_go_only``) the play ends at the first go or 31.

    >>> from scoring.variants import VARIANTS
    >>> p = Pegging(VARIANTS["singles-121"], ["5H 6D JC KS", "5S 4C 9H QD"], dealer=1)
    >>> p.to_play, p.play(0, "5H"), p.to_play
    (0, (), 1)
    >>> p.play(1, "5S")
    (PegEvent(seat=1, card=Card.from_str('5S'), label='pair', points=2),)
    >>> p.count, p.points_by_seat
    (10, (0, 2))
    """

    def __init__(
        self, variant: Variant, hands: Sequence[Sequence[Card] | str], *, dealer: int
    ) -> None:
        if len(hands) != variant.players:
            raise InvalidHandError(
                f"{variant.name} is played by {variant.players} players, not {len(hands)}.",
                code="wrong_player_count",
                params={"variant": variant.name, "players": variant.players, "count": len(hands)},
            )
        if not 0 <= dealer < variant.players:
            raise ScoringError(
                f"The dealer sits in seat 0 to {variant.players - 1}, not in seat {dealer}.",
                code="bad_dealer_seat",
                params={"dealer": dealer, "last": variant.players - 1},
            )
        held = [list(_as_cards(hand)) for hand in hands]
        for seat, hand in enumerate(held):
            if len(hand) != variant.hand_size:
                raise InvalidHandError(
                    f"Seat {seat} holds {len(hand)} cards; each player plays"
                    f" {variant.hand_size} in {variant.name}.",
                    code="pegging_hand_size",
                    params={
                        "seat": seat,
                        "count": len(hand),
                        "size": variant.hand_size,
                        "variant": variant.name,
                    },
                )
        check_distinct(card for hand in held for card in hand)
        self._variant = variant
        self._dealer = dealer
        self._hands = held
        self._count = 0
        self._pile: list[Card] = []
        self._said_go: set[int] = set()
        self._last: int | None = None  # who laid the latest card of this count
        self._turn: int | None = variant.next_seat(dealer)
        self._points = [0] * variant.players
        self._events: list[PegEvent] = []
        self._actions: list[PegAction] = []

    def __repr__(self) -> str:
        state = "finished" if self._turn is None else f"seat {self._turn} to play"
        return f"<Pegging {self._variant.key} count {self._count}, {state}>"

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is (to lay a card or, holding none that fits, to say go)."""
        return self._turn

    @property
    def finished(self) -> bool:
        return self._turn is None

    @property
    def count(self) -> int:
        """The running total since the last reset."""
        return self._count

    @property
    def pile(self) -> tuple[Card, ...]:
        """The cards laid since the count was last reset, in the order laid."""
        return tuple(self._pile)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """What each seat still holds."""
        return tuple(tuple(hand) for hand in self._hands)

    @property
    def events(self) -> tuple[PegEvent, ...]:
        """Every score pegged so far, in order."""
        return tuple(self._events)

    @property
    def actions(self) -> tuple[PegAction, ...]:
        """Every card laid and every go said so far, in order."""
        return tuple(self._actions)

    @property
    def points_by_seat(self) -> tuple[int, ...]:
        return tuple(self._points)

    @property
    def points_by_side(self) -> tuple[int, ...]:
        """Points per side: partners (seats 0 and 2, 1 and 3) peg together."""
        sides = [0] * self._variant.sides
        for seat, points in enumerate(self._points):
            sides[self._variant.side_of(seat)] += points
        return tuple(sides)

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the player to play may lay; none means they must say go."""
        if self._turn is None:
            return ()
        room = MAX_COUNT - self._count
        return tuple(c for c in self._hands[self._turn] if c.value <= room)

    def play(self, seat: int, card: Card | str) -> tuple[PegEvent, ...]:
        """Seat ``seat`` lays ``card``; return what it pegged (and any go it ended with).

        Raise :class:`IllegalPlayError` if the play is over, it is not that seat's turn, the
        card is not in their hand, or it would take the count past 31.
        """
        if isinstance(card, str):
            card = Card.from_str(card)
        self._check_turn(seat)
        hand = self._hands[seat]
        if card not in hand:
            holder = next((s for s, h in enumerate(self._hands) if card in h), None)
            where = "has already been played" if holder is None else f"is in seat {holder}'s hand"
            raise IllegalPlayError(
                f"Seat {seat} does not hold {card}: it {where}.",
                code="card_not_held",
                params={"seat": seat, "card": str(card), "holder": holder},
            )
        if self._count + card.value > MAX_COUNT:
            raise IllegalPlayError(
                f"{card} would take the count from {self._count} to"
                f" {self._count + card.value}; it may never pass {MAX_COUNT}.",
                code="card_over_31",
                params={
                    "card": str(card),
                    "count": self._count,
                    "total": self._count + card.value,
                },
            )
        start = len(self._events)
        hand.remove(card)
        self._pile.append(card)
        self._count += card.value
        self._last = seat
        self._actions.append(PegAction(seat, card))
        for score in peg_scores(self._pile):
            self._peg(seat, card, score.label, score.points)
        if self._count == MAX_COUNT:
            self._reset()
            if self._variant.one_go_only or not self._cards_left():
                self._turn = None
            else:
                self._turn = self._next_holder(seat)
        elif not self._cards_left():
            self._peg(seat, None, "last card", 1)
            self._turn = None
        else:
            self._advance(seat)
        return tuple(self._events[start:])

    def go(self, seat: int) -> tuple[PegEvent, ...]:
        """Seat ``seat`` says go; return the point for the go if nobody else can lay a card.

        Raise :class:`IllegalPlayError` if it is not their turn or they hold a card that fits.
        """
        self._check_turn(seat)
        fits = self.legal_cards()
        if fits:
            raise IllegalPlayError(
                f"Seat {seat} cannot say go holding {fits[0]}: the count is {self._count},"
                f" so it fits under {MAX_COUNT}.",
                code="false_go",
                params={"seat": seat, "card": str(fits[0]), "count": self._count},
            )
        start = len(self._events)
        self._said_go.add(seat)
        self._actions.append(PegAction(seat, None))
        self._advance(seat)
        return tuple(self._events[start:])

    # -- the rules of whose turn it is --------------------------------------------------------

    def _check_turn(self, seat: int) -> None:
        if self._turn is None:
            raise IllegalPlayError("The play of this deal is over.", code="play_over")
        if seat != self._turn:
            raise IllegalPlayError(
                f"It is seat {self._turn}'s turn to play, not seat {seat}'s.",
                code="not_your_turn",
                params={"turn": self._turn, "seat": seat},
            )

    def _peg(self, seat: int, card: Card | None, label: str, points: int) -> None:
        self._points[seat] += points
        self._events.append(PegEvent(seat, card, label, points))

    def _cards_left(self) -> bool:
        return any(self._hands)

    def _reset(self) -> None:
        self._count = 0
        self._pile.clear()
        self._said_go.clear()
        self._last = None

    def _next_holder(self, seat: int) -> int:
        """The first seat after ``seat`` (clockwise, ending with ``seat`` itself) holding cards."""
        players = self._variant.players
        for step in range(1, players + 1):
            other = (seat + step) % players
            if self._hands[other]:
                return other
        raise AssertionError("nobody holds a card")  # pragma: no cover - callers check first

    def _advance(self, seat: int) -> None:
        """After ``seat`` laid a card or said go: whose turn it is, or the go if nobody can lay."""
        room = MAX_COUNT - self._count
        players = self._variant.players
        clockwise = [(seat + step) % players for step in range(1, players + 1)]
        waiting = [s for s in clockwise if self._hands[s] and s not in self._said_go]
        if any(c.value <= room for s in waiting for c in self._hands[s]):
            self._turn = waiting[0]
            return
        last = self._last
        assert last is not None  # a go follows at least one card
        self._peg(last, None, "go", 1)
        self._reset()
        self._turn = None if self._variant.one_go_only else self._next_holder(last)


def play_out(
    variant: Variant,
    hands: Sequence[Sequence[Card] | str],
    *,
    dealer: int,
    order: Iterable[Card | str] | str | None = None,
) -> Pegging:
    """Play a whole deal's play and return the finished :class:`Pegging`.

    Cards in ``order`` are laid in that sequence by whoever holds them (goes are said for the
    players who cannot lay); once ``order`` runs out, each player lays the card that pegs the
    most at once, the highest-valued first on a tie. An ``order`` that breaks the rules raises
    :class:`IllegalPlayError`.

    >>> from scoring.variants import VARIANTS
    >>> p = play_out(VARIANTS["singles-121"], ["7S 7D 4S 4D", "7H 7C 4H 4C"], dealer=1,
    ...              order="7S 7H 7D 7C 4S 4H 4D 4C")
    >>> p.points_by_side, [str(e) for e in p.events if e.seat == 1][-2:]
    ((12, 30), ['seat 1: double pair royal for 12 (4C)', 'seat 1: last card for 1'])
    """
    pegging = Pegging(variant, hands, dealer=dealer)
    cards: Iterable[Card | str] = () if order is None else order
    if isinstance(cards, str):
        cards = parse_cards(cards)
    for token in cards:
        card = token if isinstance(token, Card) else Card.from_str(token)
        _say_goes(pegging)
        if pegging.to_play is None:
            raise IllegalPlayError(
                f"The play was over before {card} could be laid.",
                code="play_over_before_card",
                params={"card": str(card)},
            )
        holder = next((s for s, h in enumerate(pegging.hands) if card in h), pegging.to_play)
        pegging.play(holder, card)
    while True:
        _say_goes(pegging)
        seat = pegging.to_play
        if seat is None:
            return pegging
        pile = pegging.pile
        best = max(pegging.legal_cards(), key=lambda c: (peg_points((*pile, c)), c.value, c))
        pegging.play(seat, best)


def _say_goes(pegging: Pegging) -> None:
    while pegging.to_play is not None and not pegging.legal_cards():
        pegging.go(pegging.to_play)


# -- bounds ------------------------------------------------------------------------------------


class PeggingBounds(NamedTuple):
    """The most points that can be pegged in one deal's play (go and last card included).

    ``dealer`` is the most for the dealer's side, ``non_dealer`` for any other side (one
    player in the three-player game, the pone's partnership in the four-player game),
    ``total`` for all sides together. His heels and "three for last" are not pegged in the play.
    """

    dealer: int
    non_dealer: int
    total: int


# Computed offline by search_max_pegging (the three- and four-player games by its C port: the
# four-player search needs some 10 GB of memory); docs/pegging-bounds.md has the method, the run
# times, an independent brute-force check and a deal that reaches each bound. Every number is
# exact: no legal play pegs more, and that deal, replayed by the tests, pegs exactly as much.
PEGGING_BOUNDS: dict[str, PeggingBounds] = {
    "singles-121": PeggingBounds(dealer=30, non_dealer=24, total=44),
    "three-player-121": PeggingBounds(dealer=37, non_dealer=34, total=64),
    "partnership-121": PeggingBounds(dealer=62, non_dealer=58, total=85),
    "five-card-61": PeggingBounds(dealer=21, non_dealer=17, total=26),
    "seven-card-181": PeggingBounds(dealer=38, non_dealer=32, total=51),
}


# -- the search behind the bounds --------------------------------------------------------------
#
# A position is reached by laying ranks, not cards: suits never score in the play. Hands are not
# dealt in advance either; each player's cards are chosen as they are laid, and a go records that
# every card the player still holds is worth more than 31 minus the count ("thr", the least value
# they may lay from then on). That one number is all a go ever tells about a hand, so every legal
# play of every deal is a path in this search, and every path is a legal play of some deal.
#
# Stage 1 forgets that a rank has only four cards (a run of one rank still stops at four): its
# positions need no record of the cards used, so they can be memoised, and its maximum is an upper
# bound. Stage 2 puts the four-card limit back and searches, best first, for a play worth T,
# pruning every branch whose stage-1 value is below T; it tries T = stage-1 maximum, then one
# less, and so on. The first T it reaches is the exact maximum, and its path is a witness deal.

_Tail = tuple[int, ...]
_Line = list[tuple[int, int, int]]  # (internal seat, rank or 0 for go, count before)


def _value(rank: int) -> int:
    return 10 if rank > 10 else rank


def _lay(tail: _Tail, count: int, rank: int) -> tuple[int, _Tail]:
    """Points for laying ``rank``, and the end of the pile that can still score later.

    ``tail`` is the end of the pile that matters: a run of one rank (for pairs), or else the
    longest end of different ranks spanning at most seven (no run in the play is longer: the seven
    smallest ranks already count 28). Agrees with :func:`peg_points` on every pile.
    """
    total = count + _value(rank)
    points = 2 if total in (15, MAX_COUNT) else 0
    pile = (*tail, rank)
    same = 1
    while same < len(pile) and pile[-1 - same] == rank:
        same += 1
    if same >= 2:
        return points + same * (same - 1), pile[-same:]
    seen = {rank}
    low = high = rank
    start = len(pile) - 1
    run = 0
    while start > 0:
        other = pile[start - 1]
        if other in seen or max(high, other) - min(low, other) > 6:
            break
        seen.add(other)
        low, high = min(low, other), max(high, other)
        start -= 1
        if len(seen) >= 3 and high - low + 1 == len(seen):
            run = len(seen)
    return points + run, pile[start:]


# (count, tail) -> what each rank laid there scores: shared by every search, filled as it goes.
_LAYS: dict[tuple[int, _Tail], list[tuple[int, int, int, _Tail]]] = {}


class _Search:
    """Both stages for one variant and one set of seats to maximise (internal seat 0 leads)."""

    def __init__(self, players: int, hand_size: int, one_go: bool, scoring: Sequence[bool]):
        self.players = players
        self.hand_size = hand_size
        self.one_go = one_go
        self.scoring = tuple(int(s) for s in scoring)
        self.memo: dict[tuple[int, int, _Tail, int, tuple[int, ...], tuple[int, ...]], int] = {}
        self.usage = [0] * 14
        self.line: _Line = []

    def next_actor(self, actor: int, count: int, rem: tuple[int, ...], thr: tuple[int, ...]) -> int:
        """The next seat after ``actor`` that may still lay a card on ``count``, or -1."""
        room = min(10, MAX_COUNT - count)
        for step in range(1, self.players + 1):
            seat = (actor + step) % self.players
            if rem[seat] and thr[seat] <= room:
                return seat
        return -1

    def lays(self, count: int, tail: _Tail) -> list[tuple[int, int, int, _Tail]]:
        """(rank, value, points, tail after) for every rank that fits on ``count``, cached."""
        key = (count, tail)
        found = _LAYS.get(key)
        if found is None:
            room = MAX_COUNT - count
            five_in_a_row = len(tail) >= 4 and tail[-1] == tail[-4]
            found = [
                (rank, _value(rank), *_lay(tail, count, rank))
                for rank in range(1, 14)
                if _value(rank) <= room and not (five_in_a_row and rank == tail[-1])
            ]
            _LAYS[key] = found
        return found

    def moves(
        self,
        count: int,
        tail: _Tail,
        seat: int,
        rem: tuple[int, ...],
        thr: tuple[int, ...],
        *,
        deck: bool,
    ) -> list[tuple[int, int, tuple[int, ...]]]:
        """(stage-1 value, rank, rem after) of each rank ``seat`` may lay."""
        scoring = self.scoring[seat]
        new_rem = (*rem[:seat], rem[seat] - 1, *rem[seat + 1 :])
        more = any(new_rem)
        out = []
        for rank, value, points, new_tail in self.lays(count, tail):
            if value < thr[seat] or (deck and self.usage[rank] == 4):
                continue
            total = count + value
            mine = points * scoring
            if total == MAX_COUNT:
                if more and not self.one_go:
                    mine += self.relaxed(seat, 0, (), seat, new_rem, thr)
            elif not more:
                mine += scoring  # last card
            else:
                mine += self.relaxed(seat, total, new_tail, seat, new_rem, thr)
            out.append((mine, rank, new_rem))
        return out

    def relaxed(
        self,
        actor: int,
        count: int,
        tail: _Tail,
        last: int,
        rem: tuple[int, ...],
        thr: tuple[int, ...],
    ) -> int:
        """Stage 1: the most the scoring seats can still peg, ignoring the four-card limit."""
        key = (actor, count, tail, last, rem, thr)
        best = self.memo.get(key)
        if best is not None:
            return best
        seat = self.next_actor(actor, count, rem, thr)
        if seat < 0:  # nobody can lay: the go
            best = self.scoring[last]
            if not self.one_go and any(rem):
                best += self.relaxed(last, 0, (), last, rem, thr)
        else:
            best = max(
                (m[0] for m in self.moves(count, tail, seat, rem, thr, deck=False)), default=-1
            )
            if 32 - count <= 10:  # holding only cards worth more than 31 - count: go
                go_thr = (*thr[:seat], max(thr[seat], 32 - count), *thr[seat + 1 :])
                best = max(best, self.relaxed(seat, count, tail, last, rem, go_thr))
        self.memo[key] = best
        return best

    def exact(
        self,
        actor: int,
        count: int,
        tail: _Tail,
        last: int,
        rem: tuple[int, ...],
        thr: tuple[int, ...],
        need: int,
    ) -> bool:
        """Stage 2: is there a play from here pegging ``need`` with four cards to a rank?"""
        seat = self.next_actor(actor, count, rem, thr)
        if seat < 0:
            need -= self.scoring[last]
            if self.one_go or not any(rem):
                return need <= 0 and self.unplayed_fit(rem, thr)
            if self.relaxed(last, 0, (), last, rem, thr) < need:
                return False
            return self.exact(last, 0, (), last, rem, thr, need)
        moves = sorted(self.moves(count, tail, seat, rem, thr, deck=True), reverse=True)
        for bound, rank, new_rem in moves:  # the most promising first
            if bound < need:
                break
            points, new_tail = _lay(tail, count, rank)
            mine = points * self.scoring[seat]
            total = count + _value(rank)
            self.usage[rank] += 1
            self.line.append((seat, rank, count))
            if total == MAX_COUNT and not self.one_go and any(new_rem):
                found = self.exact(seat, 0, (), seat, new_rem, thr, need - mine)
            elif total == MAX_COUNT:
                found = mine >= need and self.unplayed_fit(new_rem, thr)
            elif not any(new_rem):
                found = mine + self.scoring[seat] >= need
            else:
                found = self.exact(seat, total, new_tail, seat, new_rem, thr, need - mine)
            if found:
                return True
            self.line.pop()
            self.usage[rank] -= 1
        if 32 - count <= 10:
            go_thr = (*thr[:seat], max(thr[seat], 32 - count), *thr[seat + 1 :])
            if self.relaxed(seat, count, tail, last, rem, go_thr) >= need:
                self.line.append((seat, 0, count))
                if self.exact(seat, count, tail, last, rem, go_thr, need):
                    return True
                self.line.pop()
        return False

    def unplayed_fit(self, rem: tuple[int, ...], thr: tuple[int, ...]) -> bool:
        """Can the deck still give every player the cards they never laid (five-card game)?"""
        for least in range(1, 11):
            wanted = sum(r for r, t in zip(rem, thr, strict=True) if t >= least)
            left = sum(4 - self.usage[rank] for rank in range(1, 14) if _value(rank) >= least)
            if wanted > left:
                return False
        return True


class PeggingMaximum(NamedTuple):
    """What :func:`search_max_pegging` found: the maximum, its stage-1 bound and a deal reaching it.

    Replaying ``order`` with :func:`play_out` on ``hands`` pegs exactly ``points`` for the seats
    searched (``order`` holds every card laid; in the five-card game some cards are never laid).
    """

    points: int
    relaxed: int
    hands: tuple[tuple[Card, ...], ...]
    order: tuple[Card, ...]


def search_max_pegging(variant: Variant, *, seats: Iterable[int], dealer: int) -> PeggingMaximum:
    """The most the players in ``seats`` together can peg in one deal's play, by exhaustive search.

    Fast for the two-player games (a few seconds), minutes and gigabytes for three players and
    out of reach in pure Python for four: see ``docs/pegging-bounds.md``.

    >>> from scoring.variants import VARIANTS
    >>> found = search_max_pegging(VARIANTS["five-card-61"], seats=[0], dealer=0)
    >>> found.points, found.relaxed
    (21, 21)
    >>> p = play_out(VARIANTS["five-card-61"], found.hands, dealer=0, order=found.order)
    >>> p.points_by_seat[0]
    21
    """
    players = variant.players
    wanted = {seat % players for seat in seats}
    first = variant.next_seat(dealer)

    def real(internal: int) -> int:
        return (first + internal) % players

    scoring = [real(i) in wanted for i in range(players)]
    search = _Search(players, variant.hand_size, variant.one_go_only, scoring)
    start = (players - 1, 0, (), players - 1, (variant.hand_size,) * players, (1,) * players)
    relaxed = search.relaxed(*start)
    for points in range(relaxed, -1, -1):
        search.line = []
        if search.exact(*start, points):
            break
    else:  # pragma: no cover - a play that pegs nothing always exists
        raise AssertionError("no play found")
    # Deal the witness: the k-th card laid of a rank gets the k-th suit.
    hands: list[list[Card]] = [[] for _ in range(players)]
    least = [1] * players
    suit_of = [0] * 14
    order: list[Card] = []
    for seat, rank, count in search.line:
        if rank:
            order.append(Card(rank, suit_of[rank]))
            hands[seat].append(order[-1])
            suit_of[rank] += 1
        else:
            least[seat] = max(least[seat], 32 - count)
    for seat in sorted(range(players), key=lambda s: -least[s]):
        while len(hands[seat]) < variant.hand_size:  # cards the five-card game never lays
            rank = next(r for r in range(13, 0, -1) if suit_of[r] < 4 and _value(r) >= least[seat])
            hands[seat].append(Card(rank, suit_of[rank]))
            suit_of[rank] += 1
    by_real: list[tuple[Card, ...]] = [()] * players
    for internal, hand in enumerate(hands):
        by_real[real(internal)] = tuple(hand)
    return PeggingMaximum(points, relaxed, tuple(by_real), tuple(order))


def compute_pegging_bounds(variant: Variant) -> PeggingBounds:
    """Search the bounds of ``variant`` afresh (what :data:`PEGGING_BOUNDS` stores).

    Seconds for the five-card game, a minute for the six- and seven-card games.
    """
    players = variant.players
    dealer = players - 1
    sides = {variant.side_of(seat) for seat in range(players)}

    def side_max(side: int) -> int:
        seats = [s for s in range(players) if variant.side_of(s) == side]
        return search_max_pegging(variant, seats=seats, dealer=dealer).points

    dealer_side = variant.side_of(dealer)
    return PeggingBounds(
        dealer=side_max(dealer_side),
        non_dealer=max(side_max(side) for side in sides - {dealer_side}),
        total=search_max_pegging(variant, seats=range(players), dealer=dealer).points,
    )


def _shape(variant: Variant) -> tuple[int, int, int, bool]:
    return (variant.players, variant.sides, variant.hand_size, variant.one_go_only)


def pegging_bounds(variant: Variant) -> PeggingBounds:
    """The bounds for ``variant`` (or for a known game played with the same cards and seats).

    >>> from scoring.variants import VARIANTS
    >>> pegging_bounds(VARIANTS["singles-121"])
    PeggingBounds(dealer=30, non_dealer=24, total=44)
    """
    for key, bounds in PEGGING_BOUNDS.items():
        if _shape(VARIANTS[key]) == _shape(variant):
            return bounds
    raise ScoringError(
        f"No pegging bound is known for {variant.name}.",
        code="no_pegging_bound",
        params={"variant": variant.name},
    )


def max_pegging(variant: Variant, *, dealer: bool) -> int:
    """The most one side can peg in one deal's play: the dealer's side or a non-dealer's side.

    >>> from scoring.variants import VARIANTS
    >>> max_pegging(VARIANTS["singles-121"], dealer=True)
    30
    """
    bounds = pegging_bounds(variant)
    return bounds.dealer if dealer else bounds.non_dealer


def max_pegging_total(variant: Variant) -> int:
    """The most all sides together can peg in one deal's play.

    >>> from scoring.variants import VARIANTS
    >>> max_pegging_total(VARIANTS["singles-121"])
    44
    """
    return pegging_bounds(variant).total
