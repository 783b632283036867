"""Tournament standings at scale: 300 entrants x 22 qualifying games (a big main event).

    python bench/tournament_standings.py          # pure compute, and from the database
    python bench/tournament_standings.py --runs 50
    python bench/tournament_standings.py --entrants 600   # a national event

Not a test: it measures and prints. Target (club nights): the standings (records, the tie-break
chain with the draw, the cut and the bracket) of 300 entrants x 22 games in under 50 ms, and
(a national event) of 600 entrants x 22 games (``--entrants 600``) in under 50 ms too. Two
figures: ``compute`` is ``tournaments.selectors.compute`` on plain data (the rules
alone); ``from the database`` is ``standings_for_tournament`` on stored rows (its two queries
included), in a throwaway SQLite file that is built with bulk inserts, not the services.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
ENTRANTS, GAMES = 300, 22


def generate(entrants: int = ENTRANTS, seed: int = 15) -> tuple[list[str], list, list[str]]:
    from tournaments import logic

    rng = random.Random(seed)
    names = [f"Entrant {i:03d}" for i in range(1, entrants + 1)]
    results = []
    for index in range(GAMES):
        seating = logic.circle_round(names, index)
        for a, b in seating.tables:
            results.append(logic.Result(a, b, a if rng.random() < 0.5 else b, rng.randint(40, 120)))
    return names, results, []


from measured import measured  # noqa: E402


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def report(label: str, ms: list[float]) -> None:
    print(
        f"{label:<20} min {min(ms):6.1f} ms   median {statistics.median(ms):6.1f} ms   "
        f"max {max(ms):6.1f} ms   ({len(ms)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--entrants", type=int, default=ENTRANTS, help=f"an even number ({ENTRANTS})"
    )
    args = parser.parse_args()
    if args.entrants < 2 or args.entrants % 2:
        sys.exit("--entrants: an even number, at least 2 (every table full, no byes)")
    # The SQLite file (about 2.5 MB with its journal) and the profile go with the folder, even
    # when a run fails.
    with tempfile.TemporaryDirectory(prefix="pegboard-tournament-bench-") as folder:
        try:
            measure(Path(folder), args.runs, args.entrants)
        finally:
            if "django.db" in sys.modules:
                from django.db import connections

                connections.close_all()


def measure(folder: Path, runs: int, entrant_count: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'tournament-bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments import logic, selectors
    from tournaments.models import Entrant, Round, TableGame, TableState, Tournament

    names, results, byes = generate(entrant_count)
    rules = logic.TournamentRules()
    print(f"{entrant_count} entrants x {GAMES} games: {len(results)} games")
    report(
        "compute",
        timed(
            lambda: selectors.compute(
                rules, entrants=names, results=results, byes=byes, draw_seed=15
            ),
            runs,
        ),
    )
    call_command("migrate", verbosity=0)
    t = Tournament.objects.create(
        name="Bench Main Event", games_per_entrant=GAMES, stage="qualifying"
    )
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=t, name=n, number=i, status="checked_in") for i, n in enumerate(names, 1)
    )
    ids = {e.name: e.pk for e in Entrant.objects.filter(tournament=t)}
    assert len(entrants) == entrant_count
    rounds = Round.objects.bulk_create(Round(tournament=t, number=i) for i in range(1, GAMES + 1))
    per_round = entrant_count // 2
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    TableGame.objects.bulk_create(
        TableGame(
            round=rounds[i // per_round],
            table=i % per_round + 1,
            first_id=ids[r.first],
            second_id=ids[r.second],
            winner_id=ids[r.winner],
            loser_score=r.loser_score,
            status=TableState.VERIFIED,
        )
        for i, r in enumerate(results)
    )
    selectors.standings_for_tournament(t)  # warm the connection
    from_db = timed(lambda: selectors.standings_for_tournament(t), runs)
    report("from the database", from_db)
    rows = len(selectors.standings_for_tournament(t)["standings"])
    measured("games", TableGame.objects.filter(round__tournament=t).count(), len(results))
    measured("entrants in the standings", rows, entrant_count)
    measured("runs timed", len(from_db), runs)
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        profile = str(folder / "standings.prof")
        cProfile.runctx("selectors.standings_for_tournament(t)", globals(), locals(), profile)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
