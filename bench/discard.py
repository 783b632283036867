#!/usr/bin/env python3
"""Discard analyser: every discard of a dealt hand ranked, for every variant, timed.

Not a test. Run it from the project root with the project's virtualenv::

    .venv/bin/python bench/discard.py              # 300 hands of each variant, a few seconds
    .venv/bin/python bench/discard.py --hands 50

What it does: deals ``--hands`` seeded random hands of each variant the scorer knows and times
``scoring.discard.analyse_discards`` on each (every possible discard, hand and crib, exact), as
the dealer for half of them and the pone for the other half. The cache of unseen-rank groups is
cleared before every hand, so each is timed as a first request. Each hand is timed in CPU
seconds of this process (``time.process_time``), which a busy machine's other work does not
inflate, and on the wall clock. Prints, per variant, the median CPU time, the 95th percentile and
the slowest hand against the targets (every discard of a six-card hand under 50 ms, of a
seven-card hand under 200 ms; the five-card deals are held to the six-card target), and the
median wall time.

Exit status: 0 when every hand was ranked and every target met; 1 when fewer hands were ranked
than it set out to (or a hand gave fewer rows than it has discards); 2 when a target was missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from measured import measured  # noqa: E402

from scoring.cards import DECK  # noqa: E402
from scoring.discard import _drawn_groups, analyse_discards  # noqa: E402
from scoring.variants import VARIANTS  # noqa: E402

TARGET_MS = {7: 200.0}  # cards dealt -> ms; everything else: 50
DEFAULT_TARGET_MS = 50.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per variant (300)")
    parser.add_argument("--seed", type=int, default=55)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    status = 0
    ranked = 0
    print(
        f"{'variant':<18} {'hands':>5} {'cpu median':>10} {'p95':>9} {'slowest':>9} "
        f"{'target':>8}      {'wall median':>11}"
    )
    for key, v in VARIANTS.items():
        discards = comb(v.dealt, v.dealt - v.hand_size)
        times: list[float] = []
        walls: list[float] = []
        for i in range(args.hands):
            dealt = rng.sample(DECK, v.dealt)
            _drawn_groups.cache_clear()
            t0, w0 = time.process_time(), time.perf_counter()
            rows = analyse_discards(dealt, variant=v, own_crib=i % 2 == 0)
            times.append((time.process_time() - t0) * 1000)
            walls.append((time.perf_counter() - w0) * 1000)
            if len(rows) != discards:
                print(f"{key}: {len(rows)} discards ranked, not {discards}", file=sys.stderr)
                return 1
        if len(times) < args.hands or not times:
            print(f"{key}: ranked {len(times)} hands of {args.hands}", file=sys.stderr)
            return 1
        ranked += len(times)
        target = TARGET_MS.get(v.dealt, DEFAULT_TARGET_MS)
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        slowest = max(times)
        met = "met" if slowest < target else "MISSED"
        if slowest >= target:
            status = 2
        print(
            f"{key:<18} {len(times):>5} {statistics.median(times):>8.2f}ms {p95:>7.2f}ms "
            f"{slowest:>7.2f}ms {target:>6.0f}ms {met:<6} {statistics.median(walls):>9.2f}ms"
        )
    measured("hands ranked", ranked, args.hands * len(VARIANTS))
    return status


if __name__ == "__main__":
    sys.exit(main())
