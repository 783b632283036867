"""Ratings at scale: a full replay of a big league's history (64 teams of two, 3,200
partnership games), one new result added, and a club night's upsets (the ratings before its
last night, replayed, then each of its games' chance), with openskill's Plackett-Luce model.

    python bench/ratings.py
    python bench/ratings.py --runs 10

Not a test: it measures and prints. What it tells: whether ``manage.py recompute_ratings`` (the
replay, ``league.ratings.replay``) is a task to queue rather than a request's work, and what the
update after one confirmed game costs in compute (``Book.apply``, one result), and what a
club night's story adds to its page for its upsets (``league.selectors.ratings.
win_chances_before``: a replay up to the night, ``league.ratings.win_chance`` per game). The
database part of each (two reads of the results, the rating rows written) is not in these
figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
TEAMS, GAMES = 64, 3200

from measured import measured  # noqa: E402


def history(seed: int = 41, games: int = GAMES) -> list:
    from contest.ratings import RatedResult

    rng = random.Random(seed)
    teams = [(2 * i + 1, 2 * i + 2) for i in range(TEAMS)]
    start = datetime(2026, 9, 3, 20, tzinfo=UTC)
    out = []
    for ref in range(1, games + 1):
        a, b = rng.sample(teams, 2)
        at = start + timedelta(days=7 * (ref // 100))  # a night's games share a time
        out.append(RatedResult("game", ref, at, winners=a, losers=b))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=GAMES, help=f"games replayed ({GAMES})")
    args = parser.parse_args()
    from league.ratings import replay, win_chance

    results = history(games=args.games)
    full = []
    for _ in range(args.runs):
        t = time.perf_counter()
        book = replay(results)
        full.append(time.perf_counter() - t)
    extra = history(seed=42, games=min(200, args.games))
    one = []
    for result in extra:
        t = time.perf_counter()
        book.apply(result)
        one.append(time.perf_counter() - t)
    night = results[-100:]  # the last night's games, its start their shared time
    upsets = []
    for _ in range(args.runs):
        t = time.perf_counter()
        before = replay(r for r in results if r.at < night[0].at)
        for r in night:
            win_chance(before, r.winners, r.losers)
        upsets.append(time.perf_counter() - t)
    print(
        f"full replay of {len(results)} games, {2 * TEAMS} players and {TEAMS} pairs: "
        f"median {statistics.median(full) * 1000:.0f} ms over {args.runs} runs"
    )
    print(f"one result added: median {statistics.median(one) * 1e6:.0f} us over {len(one)}")
    print(
        f"a night's {len(night)} upsets' chances from the ratings before it: "
        f"median {statistics.median(upsets) * 1000:.0f} ms over {args.runs} runs"
    )
    measured("games replayed", len(results), args.games)
    measured("results added one at a time", len(one), min(200, args.games))
    measured("runs", len(full), args.runs)


if __name__ == "__main__":
    main()
