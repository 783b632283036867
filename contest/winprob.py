"""Win probability from the board: each side's chance from a position, exact over deals.

A position is each side's score and which side deals next. The chance that the dealer's side
wins is computed exactly by dynamic programming over whole deals, from three per-deal figures:

- ``heels``: the chance the starter is a jack (his heels, 2 points to the dealer, counted first);
- ``pone``: the distribution of the points the pone's side makes in a deal (its pegging and its
  shows), counted before the dealer's side;
- ``dealer``: the distribution of the dealer's side's points (its pegging, its shows, the crib),
  his heels aside.

**The model of a deal** (documented simplification): after his heels, the pone's side scores all
its points, then the dealer's side all of its. The counting order really interleaves the play,
but the shows run pone first and the crib last, so the side that can go out first in the shows
is the pone's, which is what decides close games at the end of the board; the play's points are
counted with each side's show. The two sides' points are taken as independent. Two-sided games
only (the three-player game has three scores and is not modelled).

The distributions come from recorded deals (``distributions_from_deals``), each mixed with a
prior built from the scorer's exact show distributions (``scoring.distribution``) so a variant
with few deals still has a sensible table. ``WinTable`` holds the answer for every position, so
a position's probability is one list lookup.

>>> table = WinTable.build(prior_distributions("partnership-121"), target=121)
>>> round(table.dealer_wins(0, 0), 3) > 0.5   # the first dealer's edge at 0-0
True
>>> [round(x, 9) for x in table.win_chances((120, 0), dealer_side=0)]  # at 120 with the deal
[1.0, 0.0]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.distribution import show_distribution
from scoring.variants import Variant, get_variant

# The chance the starter is a jack: 4 jacks among the 52 cards.
HEELS_CHANCE = 4 / 52

# How many recorded deals the prior weighs as: with 30 deals recorded the data and the prior
# count as much; with 3,000 the prior is 1% of the estimate.
PRIOR_DEALS = 30

# The play's points per deal where nothing is recorded yet, as a Poisson mean: the dealer's side
# pegs a little more (it plays last, so it scores the go and the last card more often). Rough
# figures; recorded deals replace them (``distributions_from_deals`` uses the recorded means).
DEFAULT_PEGGING = {"dealer": 4.0, "pone": 3.0}


@dataclass(frozen=True, slots=True)
class RecordedDeal:
    """One recorded deal as the model reads it: each part that was counted.

    The last deal of a game stops where a side went out, so its parts are not all there, and
    the deals that end games are the big ones: taking only complete deals would leave the big
    deals out. Each part is read on its own instead: a show (or the crib) is counted or not
    before anyone sees it, so every counted show is a fair sample of the shows; the play is a
    sample when it ran to its end (a show was counted after it). ``None``: not counted.

    >>> RecordedDeal(3, 2, dealer_hands=(8, 12), pone_hands=(6, 4), crib=5).complete
    True
    """

    dealer_pegging: int | None
    pone_pegging: int | None
    dealer_hands: tuple[int, ...] = ()  # the dealer's side's shows that were counted
    pone_hands: tuple[int, ...] = ()
    crib: int | None = None
    heels: bool = False

    @property
    def complete(self) -> bool:
        return self.crib is not None


DEALER, PONE = 0, 1


@dataclass(frozen=True, slots=True)
class DealDistributions:
    """A deal as stages in counting order after his heels: ``stages`` is a tuple of
    ``(who, dist)`` with ``who`` ``DEALER`` or ``PONE`` and ``dist[k]`` the chance that stage
    scores ``k``; ``heels`` the chance of his heels; ``samples`` how many recorded deals went in.
    """

    stages: tuple[tuple[int, tuple[float, ...]], ...]
    heels: float = HEELS_CHANCE
    samples: int = 0

    @classmethod
    def totals(
        cls, dealer: Sequence[float], pone: Sequence[float], *, heels: float = HEELS_CHANCE
    ) -> DealDistributions:
        """Two stages: the pone's side's whole deal, then the dealer's side's."""
        return cls(((PONE, tuple(pone)), (DEALER, tuple(dealer))), heels=heels)

    def side(self, who: int) -> list[float]:
        """The distribution of one side's points in a deal (his heels aside)."""
        out: list[float] = [1.0]
        for w, dist in self.stages:
            if w == who:
                out = _convolve(out, dist)
        return out

    def mean(self, which: str) -> float:
        dist = self.side(DEALER if which == "dealer" else PONE)
        return sum(k * p for k, p in enumerate(dist))


def _normalised(counts: dict[int, float]) -> list[float]:
    total = sum(counts.values())
    out = [0.0] * (max(counts) + 1)
    for k, v in counts.items():
        out[k] = v / total
    return out


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _poisson(mean: float, *, cut: float = 1e-9) -> list[float]:
    out = [math.exp(-mean)]
    k = 0
    while True:
        k += 1
        p = out[-1] * mean / k
        if p < cut and k > mean:
            break
        out.append(p)
    total = sum(out)
    return [p / total for p in out]


def _exact(hand_size: int, *, crib: bool = False) -> list[float]:
    return _normalised({k: float(n) for k, n in show_distribution(hand_size, crib=crib).items()})


def _stages(
    v: Variant,
    *,
    dealer_hand: Sequence[float],
    pone_hand: Sequence[float],
    crib: Sequence[float],
    dealer_peg: Sequence[float],
    pone_peg: Sequence[float],
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The deal's stages in counting order: the play (the pone's side's points, then the
    dealer's), each hand in show order from the dealer's left, the crib."""
    stages: list[tuple[int, tuple[float, ...]]] = [
        (PONE, tuple(pone_peg)),
        (DEALER, tuple(dealer_peg)),
    ]
    dealer_side = v.side_of(0)
    for seat in v.show_order(0):
        if v.side_of(seat) == dealer_side:
            stages.append((DEALER, tuple(dealer_hand)))
        else:
            stages.append((PONE, tuple(pone_hand)))
    stages.append((DEALER, tuple(crib)))
    return tuple(stages)


def prior_distributions(
    variant: str | Variant,
    *,
    dealer_pegging: float | None = None,
    pone_pegging: float | None = None,
) -> DealDistributions:
    """The prior: the scorer's exact show distributions (every hand and starter equally likely)
    for each hand a side shows, the crib for the dealer, plus the play as a Poisson of the given
    means (``DEFAULT_PEGGING`` when not given).

    >>> prior = prior_distributions("singles-121")
    >>> round(sum(prior.side(DEALER)), 6), round(prior.mean("dealer") - prior.mean("pone"), 1)
    (1.0, 5.7)
    """
    v = _two_sided(variant)
    d_peg = DEFAULT_PEGGING["dealer"] if dealer_pegging is None else dealer_pegging
    p_peg = DEFAULT_PEGGING["pone"] if pone_pegging is None else pone_pegging
    hand = _exact(v.hand_size)
    stages = _stages(
        v,
        dealer_hand=hand,
        pone_hand=hand,
        crib=_exact(v.crib_size, crib=True),
        dealer_peg=_poisson(d_peg),
        pone_peg=_poisson(p_peg),
    )
    return DealDistributions(stages)


def _two_sided(variant: str | Variant) -> Variant:
    v = get_variant(variant) if isinstance(variant, str) else variant
    if v.sides != 2:
        raise ValueError(f"{v.name} has {v.sides} sides; win probability models two.")
    return v


def _mix(recorded: Counter[int], prior: Sequence[float], weight: int) -> list[float]:
    """The recorded counts mixed with ``prior`` weighed as ``weight`` samples."""
    n = sum(recorded.values())
    if n + weight == 0:
        return list(prior)
    size = max([len(prior), *(k + 1 for k in recorded)])
    out = [weight * (prior[k] if k < len(prior) else 0.0) for k in range(size)]
    for k, c in recorded.items():
        out[k] += c
    return [x / (n + weight) for x in out]


def distributions_from_deals(
    variant: str | Variant, deals: Iterable[RecordedDeal], *, prior_deals: int = PRIOR_DEALS
) -> DealDistributions:
    """The per-deal distributions of ``deals``, part by part (the play of each side, the
    dealer's side's hands, the pone's side's, the crib), each mixed with its prior weighed as
    ``prior_deals`` samples, then added up (the parts taken as independent).

    >>> one = RecordedDeal(4, 3, dealer_hands=(10, 10), pone_hands=(6, 6), crib=4)
    >>> d = distributions_from_deals("partnership-121", [one] * 3000, prior_deals=0)
    >>> d.samples, d.side(DEALER)[28], d.side(PONE)[15]
    (3000, 1.0, 1.0)
    """
    v = _two_sided(variant)
    parts: dict[str, Counter[int]] = {
        k: Counter() for k in ("dealer_peg", "pone_peg", "dealer_hand", "pone_hand", "crib")
    }
    heels = n = 0
    for deal in deals:
        n += 1
        heels += deal.heels
        if deal.dealer_pegging is not None and deal.pone_pegging is not None:
            parts["dealer_peg"][deal.dealer_pegging] += 1
            parts["pone_peg"][deal.pone_pegging] += 1
        parts["dealer_hand"].update(deal.dealer_hands)
        parts["pone_hand"].update(deal.pone_hands)
        if deal.crib is not None:
            parts["crib"][deal.crib] += 1

    def mean(c: Counter[int], default: float) -> float:
        total = sum(c.values())
        return sum(k * m for k, m in c.items()) / total if total else default

    hand = _exact(v.hand_size)
    stages = _stages(
        v,
        dealer_hand=_mix(parts["dealer_hand"], hand, prior_deals),
        pone_hand=_mix(parts["pone_hand"], hand, prior_deals),
        crib=_mix(parts["crib"], _exact(v.crib_size, crib=True), prior_deals),
        dealer_peg=_mix(
            parts["dealer_peg"],
            _poisson(mean(parts["dealer_peg"], DEFAULT_PEGGING["dealer"])),
            prior_deals,
        ),
        pone_peg=_mix(
            parts["pone_peg"],
            _poisson(mean(parts["pone_peg"], DEFAULT_PEGGING["pone"])),
            prior_deals,
        ),
    )
    return DealDistributions(
        stages,
        heels=(heels + prior_deals * HEELS_CHANCE) / (n + prior_deals),
        samples=n,
    )


class WinTable:
    """The dealer's side's chance to win from every position of a game to ``target``.

    ``dealer_wins(d, p)`` is the chance that the side about to deal, at ``d``, beats the other
    at ``p``. Built once (about a second for 121 in CPython; the cost is the table's size times
    the length of the two distributions), then each position is a lookup.
    """

    __slots__ = ("_f", "distributions", "target")

    def __init__(self, f: list[list[float]], target: int, distributions: DealDistributions):
        self._f = f
        self.target = target
        self.distributions = distributions

    def __repr__(self) -> str:
        return f"<WinTable to {self.target} from {self.distributions.samples} deals>"

    @classmethod
    def build(cls, dist: DealDistributions, *, target: int) -> WinTable:
        """Solve the table, scores summing highest first, each deal stage by stage.

        ``V[k][d][p]`` is the dealer's side's chance before stage ``k`` of a deal at ``d``
        to ``p`` (stage 0 is his heels; after the last, the deal passes and the roles swap:
        ``1 - f(p, d)``). A stage that scores nothing leaves the sum of the scores as it was,
        so each value is kept as ``A + C * f(p, d)``; a deal where every stage scores nothing
        only passes the deal, and each pair ``f(d, p)``, ``f(p, d)`` is solved as two linear
        equations.
        """
        T = target
        stages: list[tuple[int, list[float], list[float]]] = [
            (DEALER, [1.0 - dist.heels, 0.0, dist.heels], [])
        ]
        for who, points in dist.stages:
            stages.append((who, list(points), []))
        # tails: tail[k] = chance the stage scores k or more
        for _, chances, tail in stages:
            acc = sum(chances)
            for k in range(T + 1):
                tail.append(acc)
                if k < len(chances):
                    acc -= chances[k]
        K = len(stages)
        # V[k][d][p] for k = 1..K-1 (stage 0's value is f itself)
        V = [[[0.0] * T for _ in range(T)] for _ in range(K)]
        f = [[0.0] * T for _ in range(T)]
        # C_k: the coefficient of f(p, d) in V_k, the same for every cell
        C = [0.0] * (K + 1)
        C[K] = -1.0
        for k in range(K - 1, -1, -1):
            C[k] = stages[k][1][0] * C[k + 1]
        for s in range(2 * T - 2, -1, -1):
            lo, hi = max(0, s - T + 1), min(s, T - 1)
            A0: dict[int, list[float]] = {}
            for dd in range(lo, hi + 1):
                pp = s - dd
                a_next = 1.0  # A_K: 1 - f(p, d), the f part in C
                a_ks = [0.0] * (K + 1)
                a_ks[K] = a_next
                for k in range(K - 1, -1, -1):
                    who, dk, tail = stages[k]
                    vk1 = V[k + 1] if k + 1 < K else None
                    if who == DEALER:
                        room = T - dd  # points that win outright
                        a = tail[room] if room <= T else 0.0
                        a += dk[0] * a_ks[k + 1]
                        for x in range(1, min(len(dk), room)):
                            if vk1 is None:
                                a += dk[x] * (1.0 - f[pp][dd + x])
                            else:
                                a += dk[x] * vk1[dd + x][pp]
                    else:
                        room = T - pp
                        a = dk[0] * a_ks[k + 1]
                        for x in range(1, min(len(dk), room)):
                            if vk1 is None:
                                a += dk[x] * (1.0 - f[pp + x][dd])
                            else:
                                a += dk[x] * vk1[dd][pp + x]
                    a_ks[k] = a
                A0[dd] = a_ks
            c = C[0]
            for dd in range(lo, hi + 1):
                pp = s - dd
                a_dp, a_pd = A0[dd][0], A0[pp][0]
                if dd == pp:
                    value = a_dp / (1.0 - c)
                else:
                    value = (a_dp + c * a_pd) / (1.0 - c * c)
                f[dd][pp] = min(1.0, max(0.0, value))
            for dd in range(lo, hi + 1):
                pp = s - dd
                a_ks = A0[dd]
                for k in range(1, K):
                    V[k][dd][pp] = a_ks[k] + C[k] * f[pp][dd]
        return cls(f, T, dist)

    def dealer_wins(self, dealer_score: int, pone_score: int) -> float:
        """The chance the side about to deal wins; a side already at the target has won."""
        if dealer_score >= self.target:
            return 1.0
        if pone_score >= self.target:
            return 0.0
        return self._f[dealer_score][pone_score]

    def win_chances(self, scores: Sequence[int], *, dealer_side: int) -> tuple[float, float]:
        """Each side's chance, ``(side 0, side 1)``, with ``dealer_side`` to deal next.

        >>> t = WinTable.build(prior_distributions("singles-121"), target=121)
        >>> a, b = t.win_chances((60, 60), dealer_side=1)
        >>> a < b, round(a + b, 9)
        (True, 1.0)
        """
        pone_side = 1 - dealer_side
        w = self.dealer_wins(scores[dealer_side], scores[pone_side])
        return (w, 1.0 - w) if dealer_side == 0 else (1.0 - w, w)
