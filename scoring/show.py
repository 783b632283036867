"""The show: what a hand or crib scores with the starter, fast enough to score every possible hand.

``score_show`` is the one function that counts a hand; the league's validation, the judges'
breakdowns, the statistics pages and the distribution all call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import NamedTuple

from scoring._rank_totals import FIVE_RANK_TOTALS
from scoring.cards import Card, format_cards, parse_cards
from scoring.errors import DuplicateCardError, InvalidHandError

MIN_HAND = 3
MAX_HAND = 5

# One prime per rank: the product of a hand's primes names its multiset of ranks exactly
# (unique factorisation), whatever the order or the suits. It is the key of the table below.
_PRIMES = (0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)

# rank-multiset key -> (fifteens, pairs, runs) points, for the breakdown's figures and for hand
# sizes the stored table below does not cover (three- and five-card hands). It fills as hands are
# scored: counting all 26,390 multisets of 4 to 6 ranks at import would cost every Django start
# about 0.1 s, and most processes only ever score four-card shows.
_RANK_TABLE: dict[int, tuple[int, int, int]] = {}

_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
).split()


def _number_word(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def _rank_points(ranks: Sequence[int]) -> tuple[int, int, int]:
    """Fifteens, pairs and runs for a multiset of ranks (the slow, obvious count)."""
    # Subset sums: ways[t] is how many sets of the cards seen so far add up to t.
    ways = [1] + [0] * 15
    for r in ranks:
        v = 10 if r > 10 else r
        for t in range(15, v - 1, -1):
            ways[t] += ways[t - v]
    fifteens = 2 * ways[15]
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    pairs = sum(c * (c - 1) for c in counts)  # C(c, 2) pairs, 2 points each
    runs = 0
    r = 1
    while r <= 13:
        if counts[r]:
            start = r
            versions = 1
            while counts[r]:
                versions *= counts[r]
                r += 1
            length = r - start
            if length >= 3:
                runs += length * versions
        else:
            r += 1
    return fifteens, pairs, runs


class ScoreItem(NamedTuple):
    """One line of a breakdown: what scored, with which cards, for how many points."""

    kind: str  # "fifteen", "pair", "run", "flush" or "nobs"
    label: str  # "fifteen four", "run of three", "one for his nobs"
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.label}: {format_cards(self.cards)}"


class ShowScore:
    """What a hand or crib scores with its starter.

    ``total``, ``flush`` and ``nobs`` are worked out when the hand is scored; ``fifteens``,
    ``pairs``, ``runs`` and the :meth:`breakdown` are counted the first time they are read (most
    callers, the league's validation and the distribution among them, only need the total).

    >>> s = score_show(parse_cards("5H 5D 5S JC"), Card.from_str("5C"))
    >>> s.total, s.fifteens, s.pairs, s.runs, s.flush, s.nobs
    (29, 16, 12, 0, 0, 1)
    >>> print(s.lines()[-1])
    one for his nobs: JC
    """

    __slots__ = ("hand", "starter", "crib", "flush", "nobs", "total", "_ranks")

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    flush: int
    nobs: int
    total: int
    _ranks: tuple[int, int, int] | None  # fifteens, pairs, runs; None until first read

    def __init__(
        self,
        hand: tuple[Card, ...],
        starter: Card,
        crib: bool,
        fifteens: int,
        pairs: int,
        runs: int,
        flush: int,
        nobs: int,
    ) -> None:
        self.hand = hand
        self.starter = starter
        self.crib = crib
        self.flush = flush
        self.nobs = nobs
        self.total = fifteens + pairs + runs + flush + nobs
        self._ranks = (fifteens, pairs, runs)

    def _rank_parts(self) -> tuple[int, int, int]:
        parts = self._ranks
        if parts is None:
            parts = self._ranks = _cached_rank_points(
                [self.starter.rank, *(c.rank for c in self.hand)]
            )
        return parts

    @property
    def fifteens(self) -> int:
        """Points for fifteens: 2 for each set of cards adding up to 15."""
        return self._rank_parts()[0]

    @property
    def pairs(self) -> int:
        """Points for pairs: 2 for each pair of cards of one rank (a pair royal is 3 pairs)."""
        return self._rank_parts()[1]

    @property
    def runs(self) -> int:
        """Points for runs of three or more, each version of a double or triple run counted."""
        return self._rank_parts()[2]

    def __repr__(self) -> str:
        return (
            f"<ShowScore {format_cards(self.hand)} / {self.starter}"
            f"{' crib' if self.crib else ''}: {self.total}>"
        )

    def __int__(self) -> int:
        return self.total

    def breakdown(self) -> list[ScoreItem]:
        """Every scoring combination, in the order a player counts them aloud."""
        cards = sorted((*self.hand, self.starter))
        items: list[ScoreItem] = []
        count = 0
        for size in range(2, len(cards) + 1):
            for combo in combinations(cards, size):
                if sum(c.value for c in combo) == 15:
                    count += 2
                    items.append(ScoreItem("fifteen", f"fifteen {_number_word(count)}", combo, 2))
        by_rank: dict[int, list[Card]] = {}
        for c in cards:
            by_rank.setdefault(c.rank, []).append(c)
        names = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}
        for rank in sorted(by_rank):
            group = by_rank[rank]
            if len(group) >= 2:
                label, pts = names[len(group)]
                items.append(ScoreItem("pair", label, tuple(group), pts))
        rank = 1
        while rank <= 13:
            if rank in by_rank:
                start = rank
                while rank in by_rank:
                    rank += 1
                length = rank - start
                if length >= 3:
                    groups = [by_rank[r] for r in range(start, rank)]
                    for version in product(*groups):
                        items.append(
                            ScoreItem("run", f"run of {_number_word(length)}", version, length)
                        )
            else:
                rank += 1
        if self.flush:
            flush_cards = self.hand if self.flush == len(self.hand) else (*self.hand, self.starter)
            items.append(
                ScoreItem(
                    "flush",
                    f"flush of {_number_word(self.flush)}",
                    tuple(sorted(flush_cards)),
                    self.flush,
                )
            )
        if self.nobs:
            jack = next(c for c in self.hand if c.rank == 11 and c.suit == self.starter.suit)
            items.append(ScoreItem("nobs", "one for his nobs", (jack,), 1))
        return items

    def lines(self) -> list[str]:
        """The breakdown as sentences: ``["fifteen two: 5H JC", ..., "one for his nobs: JC"]``."""
        return [str(item) for item in self.breakdown()]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the API and ``python -m scoring show --json`` print this)."""
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
            "total": self.total,
            "breakdown": [
                {
                    "kind": i.kind,
                    "label": i.label,
                    "cards": [str(c) for c in i.cards],
                    "points": i.points,
                }
                for i in self.breakdown()
            ],
        }


def _cached_rank_points(ranks: Sequence[int]) -> tuple[int, int, int]:
    """Fifteens, pairs and runs for a multiset of ranks, counted once per multiset."""
    key = 1
    for r in ranks:
        key *= _PRIMES[r]
    points = _RANK_TABLE.get(key)
    if points is None:
        points = _RANK_TABLE[key] = _rank_points(ranks)
    return points


# Creating the result without calling ShowScore.__init__: a Python-level __init__ costs a frame
# and eight arguments, about a fifth of a fast-path call; setting the slots directly does not.
_new_score = object.__new__


def score_show(hand: Sequence[Card] | str, starter: Card | str, *, crib: bool = False) -> ShowScore:
    """Score a hand (3 to 5 cards, by variant) or a crib with the starter.

    A hand flush is all the hand's cards of one suit (one more point if the starter matches);
    a crib flush counts only when the starter matches too.

    >>> score_show("7H 7S 8H 8D", "9C").total
    24
    >>> score_show("2H 4H 6H 8H", "KS").flush, score_show("2H 4H 6H 8H", "KS", crib=True).flush
    (4, 0)
    """
    # The fast path: four Card objects and a Card starter, what every deal of every variant but
    # the five- and seven-card games passes (and the benchmark). Everything is done on local ints:
    # a Card is a (rank, suit) tuple, and indexing it is cheaper than its named attributes
    # (a NamedTuple field is a descriptor call). Anything else (text, lists, other sizes, an
    # unknown rank, a repeated card) takes the general path below, which explains the refusal.
    if type(hand) is tuple and len(hand) == 4 and type(starter) is Card:
        a, b, c, d = hand
        ra = a[0]
        rb = b[0]
        rc = c[0]
        rd = d[0]
        rs = starter[0]
        # Subscripting the dict in a try, not .get(): the method call costs more than the lookup,
        # and a try costs nothing in CPython 3.11 until something is raised.
        try:
            entry = FIVE_RANK_TOTALS[
                _PRIMES[ra] * _PRIMES[rb] * _PRIMES[rc] * _PRIMES[rd] * _PRIMES[rs]
            ]
        except KeyError:  # a rank no deck has: the general path below says which card
            entry = -1
        # The stored value is 2 x points, plus 1 when a rank repeats. Two of the five can only be
        # the same card when their ranks are equal, so a hand without a repeated rank (half of
        # them) is not checked at all, and the others compare cards only where ranks match
        # (much cheaper than hashing five cards into a set).
        if entry >= 0 and not (
            entry & 1
            and (
                (ra == rb and a == b)
                or (ra == rc and a == c)
                or (ra == rd and a == d)
                or (ra == rs and a == starter)
                or (rb == rc and b == c)
                or (rb == rd and b == d)
                or (rb == rs and b == starter)
                or (rc == rd and c == d)
                or (rc == rs and c == starter)
                or (rd == rs and d == starter)
            )
        ):
            suit = a[1]
            ss = starter[1]
            flush = 0
            if suit == b[1] == c[1] == d[1]:  # three hands in four stop at the first compare
                flush = 5 if ss == suit else 0 if crib else 4
            nobs = 0
            if (
                (ra == 11 and a[1] == ss)
                or (rb == 11 and b[1] == ss)
                or (rc == 11 and c[1] == ss)
                or (rd == 11 and d[1] == ss)
            ):
                nobs = 1
            score = _new_score(ShowScore)
            score.hand = hand
            score.starter = starter
            score.crib = crib
            score.flush = flush
            score.nobs = nobs
            score.total = (entry >> 1) + flush + nobs
            score._ranks = None
            return score

    if isinstance(hand, str):
        hand = parse_cards(hand)
    if isinstance(starter, str):
        starter = Card.from_str(starter)
    hand = tuple(hand)
    n = len(hand)
    if n < MIN_HAND or n > MAX_HAND:
        raise InvalidHandError(
            f"A hand to show has {MIN_HAND} to {MAX_HAND} cards, not {n}.",
            code="show_hand_cards",
            params={"least": MIN_HAND, "most": MAX_HAND, "count": n},
        )
    if len(set(hand)) != n or starter in hand:
        parse_cards((*hand, starter))  # raises with the name of the repeated card
        raise DuplicateCardError("A card appears twice.", code="card_repeated")  # pragma: no cover

    key = _PRIMES[starter.rank]
    for c in hand:
        key *= _PRIMES[c.rank]
    points = _RANK_TABLE.get(key)
    if points is None:
        points = _RANK_TABLE[key] = _rank_points([starter.rank, *(c.rank for c in hand)])
    fifteens, pairs, runs = points

    suit = hand[0].suit
    flush = 0
    for c in hand:
        if c.suit != suit:
            break
    else:
        if starter.suit == suit:
            flush = n + 1
        elif not crib:
            flush = n
    nobs = 0
    ssuit = starter.suit
    for c in hand:
        if c.rank == 11 and c.suit == ssuit:
            nobs = 1
            break
    return ShowScore(hand, starter, crib, fifteens, pairs, runs, flush, nobs)


IMPOSSIBLE_FIVE_CARD_SHOWS = frozenset({19, 25, 26, 27})
"""Totals no four-card hand or crib with a starter can make (0..29 otherwise all occur)."""
