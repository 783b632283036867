"""The cards you were dealt: every possible discard, ranked by the exact points it is worth.

For the cards dealt to one player, :func:`analyse_discards` takes every way of laying cards away
to the crib and works out, exactly (nothing is sampled):

- ``hand``: the kept cards' show, averaged over every starter the player cannot see;
- ``crib``: the crib's show, averaged over every starter and every set of cards the other
  players (and, three-handed, the deck) put in the crib, those cards drawn uniformly from the
  cards the player cannot see. Added when the crib is the player's side's (they deal, or their
  partner does), taken away when it is the other side's;
- ``total``: the two together; and the spread of the hand: the chance it scores 12 or more,
  and the chance it scores nothing.

Pegging is left out: it depends on how the other players play, not only on the cards.

How it is counted, and why it is fast
-------------------------------------
The naive count scores every starter with every set of other discards: for a six-card hand,
15 discards x 46 starters x 990 pairs is about 680,000 crib scores, and a four-handed game's
three unseen crib cards make it 3.5 million. Three observations make it a few thousand table
lookups instead:

1. Seen from the player, the starter and the other crib cards are ``m + 1`` cards (``m`` the crib
   cards that are not the player's) drawn uniformly from the ``u`` unseen cards, any one of them
   the starter. So the crib's expectation is an average over the C(u, m + 1) sets of those cards.
2. Fifteens, pairs and runs depend on ranks only. The sets group by their multiset of ranks:
   ``prod C(unseen of rank r, times r is drawn)`` sets share one multiset, and the crib's rank
   points are one lookup in the scorer's stored table of every five-rank multiset
   (``FIVE_RANK_TOTALS``, the table ``show_total`` counts with), keyed by the product of one prime
   per rank. There are 455 multisets of three ranks and 1,820 of four, computed once per dealt hand
   and shared by all its discards.
3. The flush and his nobs are added by linearity of expectation, each a probability:
   a crib flush (5) needs the player's discards of one suit and all ``m + 1`` drawn cards of that
   suit, C(a, m + 1) of the sets (``a`` the unseen cards of the suit); his nobs needs the starter's
   jack in the crib, which is either the player's discard (the starter of its suit: a / u) or an
   unseen card (a starter of its suit other than the jack, then the jack among the other ``m``:
   (a - 1) / u x m / (u - 1)).

The hand is simpler: at most 47 starters, each scored by :func:`scoring.show.show_total` (every
discard's hand is the scorer's own count, which is also what gives its spread).
``tests/scoring/test_discard.py`` checks all of it against the naive count, every starter and
every set of other discards, on hundreds of random hands of every variant.

>>> best = analyse_discards("5H 5D JS 4C KD 9S", own_crib=True)[0]
>>> best.discard_text, best.keep_text, round(best.hand, 3), round(best.crib, 3)
('4C 9S', '5H 5D JS KD', 12.413, 4.187)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

from scoring._rank_totals import FIVE_RANK_TOTALS
from scoring.cards import DECK, Card, parse_cards
from scoring.errors import InvalidHandError
from scoring.show import _PRIMES, show_total
from scoring.variants import VARIANTS, Variant, get_variant

CRIB_CARDS = 4  # every variant the scorer knows has a crib of four (checked at import below)
HIGH_HAND = 12  # the spread's "a good hand": 12 or more


@dataclass(frozen=True, slots=True)
class Discard:
    """One way to lay away: what goes to the crib, what is kept, and their expected points.

    ``crib`` carries its sign: positive when the crib is the player's side's, negative otherwise.
    ``hand_12_plus`` and ``hand_zero`` are the chances that the kept cards score 12 or more,
    and nothing, with the starter.

    >>> d = analyse_discards("5H 5D 5S JC 2D", variant="partnership-121", own_crib=False)[0]
    >>> d.discard_text, d.keep_text, round(d.hand, 3), round(d.crib, 3), d.hand_12_plus
    ('2D', '5H 5D 5S JC', 16.596, -4.429, 1.0)
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float
    crib: float
    hand_12_plus: float
    hand_zero: float

    @property
    def total(self) -> float:
        """The hand's expectation plus the crib's (signed): what the discard is worth."""
        return self.hand + self.crib

    @property
    def discard_text(self) -> str:
        return " ".join(str(c) for c in self.discard)

    @property
    def keep_text(self) -> str:
        return " ".join(str(c) for c in self.keep)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready row: what ``python -m scoring discard --json`` and the API print."""
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand": self.hand,
            "crib": self.crib,
            "total": self.total,
            "hand_12_plus": self.hand_12_plus,
            "hand_zero": self.hand_zero,
        }


def dealt_cards(cards: str | Iterable[str | Card], *, variant: str | Variant) -> tuple[Card, ...]:
    """The dealt cards read and checked: as many as the variant deals, none twice.

    >>> dealt_cards("5H 5D", variant="singles-121")
    Traceback (most recent call last):
    ...
    scoring.errors.InvalidHandError: Two-player six-card cribbage to 121 deals 6 cards, not 2.
    """
    v = get_variant(variant) if isinstance(variant, str) else variant
    dealt = parse_cards(cards)
    if len(dealt) != v.dealt:
        raise InvalidHandError(
            f"{v.name} deals {v.dealt} cards, not {len(dealt)}.",
            code="dealt_count",
            params={"variant": v.key, "dealt": v.dealt, "count": len(dealt)},
        )
    return dealt


def analyse_discards(
    cards: str | Iterable[str | Card],
    *,
    variant: str | Variant = "singles-121",
    own_crib: bool,
) -> list[Discard]:
    """Every possible discard of the dealt ``cards``, best first (highest ``total``).

    ``own_crib``: the crib is the player's side's (they deal, or their partner does in the
    four-handed game). Ties keep the order of the dealt cards' combinations.

    >>> rows = analyse_discards("AH 2H 3H 4H 5H 6H", own_crib=False)
    >>> len(rows), rows[0].discard_text, rows[0].keep_text
    (15, 'AH 2H', '3H 4H 5H 6H')
    """
    v = get_variant(variant) if isinstance(variant, str) else variant
    dealt = dealt_cards(cards, variant=v)
    seen = set(dealt)
    unseen = [c for c in DECK if c not in seen]
    u = len(unseen)
    laid = v.dealt - v.hand_size  # cards this player puts in the crib
    m = CRIB_CARDS - laid  # crib cards from the other players (and the deck)

    rank_left = [0] * 14
    suit_left = [0] * 4
    for c in unseen:
        rank_left[c.rank] += 1
        suit_left[c.suit] += 1
    groups = _drawn_groups(tuple(rank_left), m + 1)
    sets = comb(u, m + 1)  # the starter and the other crib cards, as one unordered set
    sign = 1 if own_crib else -1

    rows: list[Discard] = []
    for discard in combinations(dealt, laid):
        keep = tuple(c for c in dealt if c not in discard)

        # The hand: every unseen starter, scored by the scorer.
        hand_sum = high = zero = 0
        for s in unseen:
            points = show_total(keep, s)
            hand_sum += points
            high += points >= HIGH_HAND
            zero += points == 0

        # The crib's fifteens, pairs and runs: one table lookup per multiset of drawn ranks.
        key = 1
        for c in discard:
            key *= _PRIMES[c.rank]
        rank_sum = 0
        for group_key, ways in groups:
            rank_sum += ways * (FIVE_RANK_TOTALS[key * group_key] & 63)  # 64: "a rank repeats"
        crib = rank_sum / sets

        # The crib's flush: the discards of one suit and every drawn card of it.
        suit = discard[0].suit
        if all(c.suit == suit for c in discard):
            crib += 5 * comb(suit_left[suit], m + 1) / sets

        # His nobs: the starter's jack in the crib.
        for jack_suit in range(4):
            a = suit_left[jack_suit]
            jack = DECK[40 + jack_suit]  # rank-major ids: jacks are 40..43
            if jack in discard:
                crib += a / u
            elif jack not in seen:
                crib += (a - 1) / u * m / (u - 1)

        rows.append(Discard(discard, keep, hand_sum / u, sign * crib, high / u, zero / u))
    rows.sort(key=lambda r: -r.total)  # stable: ties keep the combinations' order
    return rows


@cache
def _drawn_groups(rank_left: tuple[int, ...], size: int) -> tuple[tuple[int, int], ...]:
    """Each multiset of ``size`` ranks the unseen cards can give: (its prime key, how many sets).

    Cached: the bench and a page of repeated requests ask for the same unseen ranks again.
    """
    out: list[tuple[int, int]] = []
    for ranks in combinations_with_replacement(range(1, 14), size):
        ways = 1
        key = 1
        run_rank, run_len = 0, 0
        for r in (*ranks, 0):  # the 0 closes the last run of equal ranks
            if r == run_rank:
                run_len += 1
                continue
            if run_len:
                ways *= comb(rank_left[run_rank], run_len)
            run_rank, run_len = r, 1
        if not ways:
            continue
        for r in ranks:
            key *= _PRIMES[r]
        out.append((key, ways))
    return tuple(out)


for _v in VARIANTS.values():
    if _v.crib_size != CRIB_CARDS:  # pragma: no cover - a new variant would need thought
        raise AssertionError(f"{_v.key}: the analyser counts cribs of {CRIB_CARDS} cards")
del _v
