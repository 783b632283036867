"""The show: what a hand or crib scores with the starter, fast enough to score every possible hand.

``score_show`` is the one function that counts a hand; the league's validation, the judges'
breakdowns, the statistics pages and the distribution all call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, product
from typing import NamedTuple

from scoring._rank_totals import FIVE_RANK_TOTALS_BY_COUNTS
from scoring.cards import DECK, Card, format_cards, parse_cards
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

    ``total`` is worked out when the hand is scored; ``flush`` and ``nobs`` are read off the cards
    when asked for, and ``fifteens``, ``pairs``, ``runs`` and the :meth:`breakdown` are counted the
    first time they are read (most callers, the league's validation and the distribution among
    them, only need the total). Made by :func:`score_show`.

    >>> s = score_show(parse_cards("5H 5D 5S JC"), Card.from_str("5C"))
    >>> s.total, s.fifteens, s.pairs, s.runs, s.flush, s.nobs
    (29, 16, 12, 0, 0, 1)
    >>> print(s.lines()[-1])
    one for his nobs: JC
    """

    # No __init__ and only four slots set per hand: a Python-level __init__ costs a frame and its
    # arguments, and each slot stored costs again, on every deal; ``_ranks`` stays unset (reading
    # it raises AttributeError) until the breakdown's figures are first asked for.
    __slots__ = ("hand", "starter", "crib", "total", "_ranks")

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    _ranks: tuple[int, int, int]  # fifteens, pairs, runs; unset until first read

    @property
    def flush(self) -> int:
        """Points for a flush: the hand's cards all of one suit (one more with the starter's)."""
        return _flush_points(self.hand, self.starter, self.crib)

    @property
    def nobs(self) -> int:
        """One point for the jack of the starter's suit in the hand."""
        return _nobs_points(self.hand, self.starter)

    def _rank_parts(self) -> tuple[int, int, int]:
        try:
            return self._ranks
        except AttributeError:
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


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    suit = hand[0].suit
    for c in hand:
        if c.suit != suit:
            return 0
    if starter.suit == suit:
        return len(hand) + 1
    return 0 if crib else len(hand)


def _nobs_points(hand: Sequence[Card], starter: Card) -> int:
    ssuit = starter.suit
    for c in hand:
        if c.rank == 11 and c.suit == ssuit:
            return 1
    return 0


# The fast path's card codes. A four-card show is scored from one sum of five card codes, whose
# bit fields add up independently (no field can carry into the next for five distinct cards):
#   bits  0-29  the ranks' counts as a base-5 number (5 ** (rank - 1) a card): the key of
#               FIVE_RANK_TOTALS_BY_COUNTS (fifteens, pairs and runs);
#   bits 30-81  one bit per card (Card.id): five distinct cards set five bits; a card given twice
#               carries, and the sum has fewer than five bits there;
#   bits 82-97  four 4-bit fields, one per suit: 1 a hand card, 8 the starter (a field of 4 is a
#               four-card flush, 12 a five-card one);
#   bits 98-105 four 2-bit fields, one per suit: 1 a hand jack, 2 the starter (3 is his nobs).
# Bits 82-105 (the top, so one shift reads them) key _HAND_SUIT_POINTS / _CRIB_SUIT_POINTS (flush
# + nobs). The hand's codes are looked up two cards at a time, _PAIR_CODES[a][b] being the sum of
# a's and b's: two dict lookups either way, and one addition of long ints fewer a pair. A dict
# keyed on the Card costs one hash per card, cheaper than subscripting rank and suit out of each
# (a NamedTuple is a tuple subclass, which CPython does not specialise ``card[0]`` for).
_CARD_BITS = 30
_SUIT_BITS = 82


def _card_codes() -> tuple[dict[object, dict[object, int]], dict[object, int]]:
    # Keyed on object: the fast path looks up whatever it is given, and what is no card misses.
    hand_codes: dict[Card, int] = {}
    starter_codes: dict[object, int] = {}
    for card in DECK:
        rank, suit = card
        common = 5 ** (rank - 1) + (1 << (_CARD_BITS + card.id))
        hand_codes[card] = (
            common
            + (1 << (_SUIT_BITS + 4 * suit))
            + ((1 << (_SUIT_BITS + 16 + 2 * suit)) if rank == 11 else 0)
        )
        starter_codes[card] = (
            common + (8 << (_SUIT_BITS + 4 * suit)) + (2 << (_SUIT_BITS + 16 + 2 * suit))
        )
    pair_codes: dict[object, dict[object, int]] = {
        a: {b: hand_codes[a] + hand_codes[b] for b in DECK} for a in DECK
    }
    return pair_codes, starter_codes


def _suit_points() -> tuple[dict[int, int], dict[int, int]]:
    """(bits 82-105 of a show's sum) >> 82 -> flush + nobs points, for a hand and for a crib."""
    one_card = [(1 << 4 * s) + (jack << (16 + 2 * s)) for s in range(4) for jack in (0, 1)]
    # Every combination of four hand cards' suits and jacks (330).
    sums = {sum(four) for four in combinations_with_replacement(one_card, 4)}
    hand: dict[int, int] = {}
    crib: dict[int, int] = {}
    for v in sums:
        flush_suit = next((t for t in range(4) if (v >> 4 * t) & 15 == 4), -1)
        for s in range(4):
            key = v + (8 << 4 * s) + (2 << (16 + 2 * s))
            nobs = (v >> (16 + 2 * s)) & 1  # a hand jack of the starter's suit
            if flush_suit == s:
                hand[key] = crib[key] = 5 + nobs
            elif flush_suit >= 0:
                hand[key], crib[key] = 4 + nobs, nobs
            else:
                hand[key] = crib[key] = nobs
    return hand, crib


_PAIR_CODES, _STARTER_CODES = _card_codes()
_HAND_SUIT_POINTS, _CRIB_SUIT_POINTS = _suit_points()


def show_total(hand: Sequence[Card] | str, starter: Card | str, crib: bool = False) -> int:
    """What a hand (or, with ``crib``, a crib) scores with the starter: ``score_show(...).total``.

    For what only needs the number (the check of every claimed show and crib, the demo's
    deals): no result object is made. It refuses what :func:`score_show` refuses, with the
    same message.

    >>> show_total(parse_cards("5H 5D 5S JC"), Card.from_str("5C"))
    29
    >>> show_total("2H 4H 6H 8H", "KS"), show_total("2H 4H 6H 8H", "KS", crib=True)
    (4, 0)
    """
    # Four cards of the deck and a card of the deck: one sum of their codes (above) and two
    # lookups. Anything else (text, other sizes, a card no deck has, a repeated card) is counted,
    # or refused with its reason, by the general path. A try costs nothing in CPython 3.11 until
    # something is raised: a hand of another size fails to unpack, a card no deck has (or text) is
    # not in the codes, and five of a rank (a repeated card) is not in the rank table.
    try:
        a, b, c, d = hand  # type: ignore[str-unpack]  # text goes to the general path
        x = _PAIR_CODES[a][b] + _PAIR_CODES[c][d] + _STARTER_CODES[starter]
        entry = FIVE_RANK_TOTALS_BY_COUNTS[x & 0x3FFFFFFF]  # bits 0-29: literals, not names
    except (ValueError, KeyError, TypeError):
        return _general_score(hand, starter, crib).total
    # The stored value is the points, plus 64 when a rank repeats: only then can two of the five
    # be the same card (half the hands), and only then are the card bits counted.
    if entry >= 64:
        if (x & 0x3FFFFFFFFFFFFC0000000).bit_count() != 5:  # bits 30-81 (_CARD_BITS): the cards
            return _general_score(hand, starter, crib).total  # raises: a card given twice
        entry -= 64
    return entry + (_CRIB_SUIT_POINTS if crib else _HAND_SUIT_POINTS)[x >> 82]  # _SUIT_BITS


def score_show(hand: Sequence[Card] | str, starter: Card | str, *, crib: bool = False) -> ShowScore:
    """Score a hand (3 to 5 cards, by variant) or a crib with the starter.

    A hand flush is all the hand's cards of one suit (one more point if the starter matches);
    a crib flush counts only when the starter matches too.

    >>> score_show("7H 7S 8H 8D", "9C").total
    24
    >>> score_show("2H 4H 6H 8H", "KS").flush, score_show("2H 4H 6H 8H", "KS", crib=True).flush
    (4, 0)
    """
    # Four cards and a Card starter (every deal of every variant but the five- and seven-card
    # games): the total from show_total's fast path, the rest counted when it is first read.
    # Any sequence of cards takes it: the result keeps a tuple, so another sequence is copied
    # into one, once, here. A list (what slicing a list gives) is tested for first, so that it
    # skips the isinstance call: by callgrind (bench/scorer_instructions.py) a list then costs
    # 3% more than a tuple (12% with the isinstance first; 119% when it took the general
    # path), and a tuple 4% more than when only a tuple took this one.
    if type(hand) is list or (type(hand) is not tuple and not isinstance(hand, str)):
        hand = tuple(hand)
    if type(hand) is tuple and type(starter) is Card and len(hand) == 4:
        score = ShowScore()
        score.total = show_total(hand, starter, crib)
        score.hand = hand
        score.starter = starter
        score.crib = crib
        return score
    return _general_score(hand, starter, crib)


def _general_score(hand: Sequence[Card] | str, starter: Card | str, crib: bool) -> ShowScore:
    """Any hand score_show takes, from text or cards, with the reason for any it refuses."""
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
    score = ShowScore()
    score.hand = hand
    score.starter = starter
    score.crib = crib
    score.total = sum(points) + _flush_points(hand, starter, crib) + _nobs_points(hand, starter)
    score._ranks = points
    return score


IMPOSSIBLE_FIVE_CARD_SHOWS = frozenset({19, 25, 26, 27})
"""Totals no four-card hand or crib with a starter can make (0..29 otherwise all occur)."""
