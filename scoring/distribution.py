"""How many hand-and-starter pairs score each total: counted by rank patterns, not one by one.

Fifteens, pairs and runs depend only on ranks; suits only decide the flush and his nobs. So the
12,994,800 pairs of the standard game collapse into 1,820 multisets of hand ranks times 13
starter ranks, and for each we count, with binomials, how many suit choices give a flush or nobs.
By symmetry the starter's suit is fixed to spades and every count is multiplied by 4.
"""

from __future__ import annotations

import functools
from collections import Counter
from itertools import combinations_with_replacement
from math import comb, prod

from scoring.show import _rank_points


@functools.cache
def show_distribution(hand_size: int = 4, *, crib: bool = False) -> dict[int, int]:
    """``{total: number of (hand, starter) pairs}`` over every hand of ``hand_size`` cards.

    >>> d = show_distribution()
    >>> sum(d.values()), d[29], d.get(19, 0)
    (12994800, 4, 0)
    """
    dist: Counter[int] = Counter()
    for ranks in combinations_with_replacement(range(1, 14), hand_size):
        counts = Counter(ranks)
        for starter in range(1, 14):
            # suits free for each hand rank once the starter (spades) is taken
            avail = {r: 4 - (r == starter) for r in counts}
            if any(m > avail[r] for r, m in counts.items()):
                continue
            f, p, r_ = _rank_points([*ranks, starter])
            base = f + p + r_
            total = prod(comb(avail[r], m) for r, m in counts.items())
            has_nobs_jack = 11 in counts and starter != 11
            nobs = 0
            if has_nobs_jack:
                nobs = comb(avail[11] - 1, counts[11] - 1) * prod(
                    comb(avail[r], m) for r, m in counts.items() if r != 11
                )
            if len(counts) == hand_size:  # all ranks differ: a flush is possible
                other_suit_flushes = 3  # hearts, diamonds or clubs: never nobs
                dist[base + (0 if crib else hand_size)] += 4 * other_suit_flushes
                if starter not in counts:  # the whole hand in the starter's suit
                    five = hand_size + 1 + (1 if has_nobs_jack else 0)
                    dist[base + five] += 4
                    if has_nobs_jack:
                        nobs -= 1
                    total -= 1
                total -= other_suit_flushes
            dist[base + 1] += 4 * nobs
            dist[base] += 4 * (total - nobs)
    return {k: dist[k] for k in sorted(dist) if dist[k]}


# The totals of every hand and crib size the variants play, by (hand_size, crib): the highest
# total and the totals below it that no show makes. Counting them takes show_distribution's
# enumeration (0.25 s for four cards, 0.9 s for five), which a fresh web worker would otherwise
# pay on a captain's first deal; tests/scoring/test_game.py counts each one and compares.
KNOWN_TOTALS: dict[tuple[int, bool], tuple[int, tuple[int, ...]]] = {
    (3, False): (20, (16, 17, 18, 19)),
    (4, False): (29, (19, 25, 26, 27)),
    (4, True): (29, (19, 25, 26, 27)),
    (5, False): (46, (35, 41, 42, 43, 44, 45)),
}


def possible_totals(hand_size: int = 4, *, crib: bool = False) -> frozenset[int]:
    """Every total a show of ``hand_size`` cards plus the starter can make: from
    ``KNOWN_TOTALS`` when the size is there, else counted by :func:`show_distribution`.

    >>> sorted(set(range(30)) - possible_totals())
    [19, 25, 26, 27]
    """
    known = KNOWN_TOTALS.get((hand_size, crib))
    if known is None:
        return frozenset(show_distribution(hand_size, crib=crib))
    highest, impossible = known
    return frozenset(range(highest + 1)) - frozenset(impossible)
