#!/usr/bin/env python3
"""Win probability: its calibration on a generated season, and what a position costs.

Not a test. Run it from the project root with the project's virtualenv::

    .venv/bin/python bench/winprob.py                 # 4,000 games, about a minute
    .venv/bin/python bench/winprob.py --games 1000    # quicker

What it does:

1. Generates ``--games`` partnership games to 121 with the demo's generator
   (``league.services.demo.random_game_deals``: shuffled decks, discards and the play played
   out, every deal checked by the scorer), each with a random first dealer, seeded.
2. Fits the per-deal distributions (``contest.winprob.distributions_from_deals``, with its
   prior) on the first half of the games and builds the table; fits a logistic on the score
   difference (the dealer's side's score minus the other's, and a constant) on the same half.
3. On every position of the other half (before each deal: each side's score and the dealer),
   prints the Brier score (mean squared error of the chance the side to deal wins) of the
   model, of 50/50 and of the logistic: lower is better.
4. Prints the first dealer's share of the wins over all the games beside the model's chance at
   0-0, and the time to build the table and to answer a position (the pure lookup, and the
   league's selector with its table kept in the process).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

Position = tuple[int, int, int]  # dealer's side score, the other's, 1 if the dealer's side won


def generate(games: int, seed: int) -> list[tuple[list[Position], list[object], bool]]:
    """Each game's positions, its complete deals as samples, and whether the first dealer won."""
    from contest.winprob import RecordedDeal
    from league.services.demo import random_game_deals
    from scoring.variants import get_variant

    v = get_variant("partnership-121")
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        first = rng.randrange(4)
        deals = random_game_deals(rng, v, first)
        scores = [0, 0]
        before: list[tuple[int, int, int]] = []  # (dealer side, its score, the other's)
        samples: list[object] = []
        for deal in deals:
            side = v.side_of(deal["dealer"])
            before.append((side, scores[side], scores[1 - side]))
            counted = [0, 0]
            for seat, pts in deal["shows"].items():
                counted[v.side_of(int(seat))] += pts
            heels = bool(deal["starter"]) and deal["starter"].startswith("J")
            gained = [deal["pegging"][0] + counted[0], deal["pegging"][1] + counted[1]]
            gained[side] += (deal["crib"] or 0) + (2 if heels else 0)
            shows = deal["shows"]
            played = bool(shows)
            samples.append(
                RecordedDeal(
                    dealer_pegging=deal["pegging"][side] if played else None,
                    pone_pegging=deal["pegging"][1 - side] if played else None,
                    dealer_hands=tuple(p for s, p in shows.items() if v.side_of(int(s)) == side),
                    pone_hands=tuple(p for s, p in shows.items() if v.side_of(int(s)) != side),
                    crib=deal["crib"],
                    heels=heels,
                )
            )
            scores = [scores[0] + gained[0], scores[1] + gained[1]]
        winner = 0 if scores[0] >= 121 else 1
        positions = [(d, p, int(side == winner)) for side, d, p in before]
        out.append((positions, samples, v.side_of(first) == winner))
    return out


def fit_logistic(rows: list[Position], *, steps: int = 60) -> tuple[float, float]:
    """P(the dealer's side wins) = 1 / (1 + exp(-(a + b * (d - p)))), by Newton's method."""
    a = b = 0.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for d, p, won in rows:
            x = d - p
            q = 1 / (1 + math.exp(-(a + b * x)))
            ga += won - q
            gb += (won - q) * x
            w = q * (1 - q)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        a += (hbb * ga - hab * gb) / det
        b += (haa * gb - hab * ga) / det
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()

    import django

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    django.setup()
    from contest.winprob import WinTable, distributions_from_deals
    from league.selectors import winprob as selector

    t0 = time.perf_counter()
    games = generate(args.games, args.seed)
    generated = time.perf_counter() - t0
    half = len(games) // 2
    train, test = games[:half], games[half:]
    samples = [s for _, ss, _ in train for s in ss]
    t0 = time.perf_counter()
    dist = distributions_from_deals("partnership-121", samples)  # type: ignore[arg-type]
    table = WinTable.build(dist, target=121)
    built = time.perf_counter() - t0
    a, b = fit_logistic([pos for ps, _, _ in train for pos in ps])

    rows = [pos for ps, _, _ in test for pos in ps]
    model = sum((table.dealer_wins(d, p) - won) ** 2 for d, p, won in rows) / len(rows)
    coin = sum((0.5 - won) ** 2 for _, _, won in rows) / len(rows)
    logit = sum((1 / (1 + math.exp(-(a + b * (d - p)))) - won) ** 2 for d, p, won in rows) / len(
        rows
    )

    first_won = sum(1 for _, _, w in games if w)
    share = first_won / len(games)
    err = 1.96 * math.sqrt(share * (1 - share) / len(games))
    deals = sum(len(ps) for ps, _, _ in games) / len(games)

    # A position's cost: the pure lookup, then the selector's path with its table kept.
    n = 200_000
    rng = random.Random(1)
    queries = [((rng.randrange(121), rng.randrange(121)), rng.randrange(2)) for _ in range(1000)]
    t0 = time.perf_counter()
    for i in range(n):
        scores, side = queries[i % 1000]
        table.win_chances(scores, dealer_side=side)
    lookup = (time.perf_counter() - t0) / n
    selector._tables[("partnership-121", 121)] = (time.monotonic(), 0, table)
    from django.test import override_settings

    with override_settings(PEGBOARD_WINPROB_FROM_DEALS=True):
        t0 = time.perf_counter()
        for i in range(n // 10):
            scores, side = queries[i % 1000]
            selector.win_table("partnership-121", 121).win_chances(scores, dealer_side=side)
        served = (time.perf_counter() - t0) / (n // 10)

    print(f"games: {len(games)} generated in {generated:.1f} s ({deals:.1f} deals a game)")
    print(f"fitted on {half} games ({len(samples)} deals), tested on {len(rows)} positions")
    print(f"Brier score: model {model:.4f}, 50/50 {coin:.4f}, logistic {logit:.4f}")
    print(f"  logistic: a = {a:.4f}, b = {b:.4f} per point of difference")
    print(
        f"first dealer wins: recorded {share:.3f} +/- {err:.3f} (95%), "
        f"model at 0-0 {table.dealer_wins(0, 0):.3f}"
    )
    print(
        f"table built in {built * 1000:.0f} ms; a position: {lookup * 1e6:.2f} us (lookup), "
        f"{served * 1e6:.2f} us (the selector, table kept)"
    )
    print(f"load: {os.getloadavg()[0]:.1f}")
    from measured import measured

    measured("games generated", len(games), args.games)
    measured("positions tested", len(rows), 1)


if __name__ == "__main__":
    main()
