"""Season import at scale: a generated 3,200-game season archive imported on SQLite and PostgreSQL.

    python bench/import.py                          # 3,200 games on SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h2 python bench/import.py --postgres
    python bench/import.py --games 10000            # also 10,000 games (time and peak memory)

Not a test: it measures and prints. Target: a 3,200-game season (about 18,000
deals, the shape of bench/standings.py: 64 teams, 20 weeks, 5 games a match) imports in under
30 s on both databases. Each import runs in a fresh process on an empty database, so the peak
memory (the process's maximum resident set) is the import's own. "longest batch" is the
longest gap between two progress reports (one batch of games, written in one short
transaction per table). The CPU figure is this process's own time (the database server's is
not in it on PostgreSQL); unlike the wall-clock time it hardly depends on what else the shared
machine is running.

The archive is generated once (legal random games from the demo's generator, each checked by
the scorer as it is made) and kept beside this file. On PostgreSQL the database named by
DATABASE_URL is flushed before each run: give it one of your own.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TEAMS, GAMES_PER_MATCH = 64, 5


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def generate(games: int, path: Path) -> None:
    """A season of ``games`` games (64 teams, 5 games a match, as many weeks as it takes)."""
    from league.services.demo import random_game_deals
    from league.services.seasons import round_robin

    rng = random.Random(games)
    teams = [(f"Team {i:02d}", [f"Bench {i:02d}a", f"Bench {i:02d}b"]) for i in range(TEAMS)]
    rounds = round_robin(TEAMS)
    weeks, made, number = [], 0, 0
    while made < games:
        number += 1
        matches = []
        for h, a in rounds[(number - 1) % len(rounds)]:
            if made >= games:
                break
            home, away = teams[h], teams[a]
            rows = []
            for g in range(GAMES_PER_MATCH):
                hp = home[1] if g % 2 == 0 else list(reversed(home[1]))
                seats = [hp[0], away[1][0], hp[1], away[1][1]]
                first = rng.randrange(4)
                deals = []
                for d in random_game_deals(rng, "partnership-121", first):
                    deal = {
                        "dealer": seats[d["dealer"]],
                        "starter": d["starter"],
                        "pegging": {home[0]: d["pegging"][0], away[0]: d["pegging"][1]},
                        "shows": {seats[int(s)]: p for s, p in d["shows"].items()},
                    }
                    if d["crib"] is not None:
                        deal["crib"] = d["crib"]
                    deals.append(deal)
                rows.append({"seats": seats, "deals": deals})
                made += 1
            matches.append({"teams": [home[0], away[0]], "games": rows})
        weeks.append({"number": number, "date": None, "matches": matches})
    doc = {
        "format": "pegboard-season",
        "version": 1,
        "league": {
            "name": "Bench Import League",
            "rules": {"variant": "partnership-121", "games_per_match": GAMES_PER_MATCH},
        },
        "season": {"name": f"Bench {games}", "playoff_teams": 8, "draw_seed": 1},
        "teams": [{"name": name, "players": players} for name, players in teams],
        "weeks": weeks,
    }
    path.write_text(json.dumps(doc))


def run_one(database_url: str, path: Path) -> dict[str, float]:
    """In this (fresh) process: an empty database, then the import, timed."""
    setup_django(database_url)
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from league.services.archive_import import archive_parse, import_plan, import_write

    settings.PEGBOARD_ARCHIVE_MAX_BYTES = 1 << 30
    call_command("migrate", verbosity=0)
    if connection.vendor == "postgresql":
        call_command("flush", interactive=False, verbosity=0)
    raw = path.read_bytes()
    cpu = time.process_time()
    start = time.perf_counter()
    plan = import_plan(archive_parse(raw))
    checked = time.perf_counter()
    cpu_checked = time.process_time()
    marks = [checked]

    def progress(done: int, total: int) -> None:
        marks.append(time.perf_counter())

    import_write(plan, progress=progress)
    end = time.perf_counter()
    gaps = [b - a for a, b in itertools.pairwise(marks)]
    return {
        "vendor": connection.vendor,
        "games": plan.games,
        "deals": plan.deals,
        "check_s": checked - start,
        "write_s": end - checked,
        "total_s": end - start,
        "cpu_check_s": cpu_checked - cpu,
        "cpu_total_s": time.process_time() - cpu,
        "longest_batch_s": max(gaps) if gaps else 0.0,
        "estimate_s": plan.estimated_seconds(connection.vendor),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, action="append", help="games (default 3200)")
    parser.add_argument("--postgres", action="store_true", help="also DATABASE_URL (PostgreSQL)")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--run-one", nargs=2, metavar=("URL", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_one:
        print(json.dumps(run_one(args.run_one[0], Path(args.run_one[1]))))
        return
    targets = []
    if not args.no_sqlite:
        targets.append(("SQLite", None))
    if args.postgres:
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith("postgres"):
            sys.exit("--postgres needs DATABASE_URL=postgres://...")
        targets.append(("PostgreSQL", url))
    setup_django("sqlite://:memory:")
    sys.path.insert(0, str(ROOT / "bench"))
    from measured import measured

    for games in args.games or [3200]:
        path = ROOT / "bench" / f"import-{games}.json"
        if not path.exists():
            print(f"generating {path.name} ...", flush=True)
            generate(games, path)
        for label, url in targets:
            with tempfile.TemporaryDirectory() as tmp:
                db = url or f"sqlite:///{Path(tmp) / 'import.sqlite3'}"
                out = subprocess.run(
                    [sys.executable, __file__, "--run-one", db, str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                    env={k: v for k, v in os.environ.items() if k != "REDIS_URL"},
                )
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"{label:10} {r['games']:>6,} games {r['deals']:>6,} deals: "
                f"total {r['total_s']:6.1f} s (check {r['check_s']:5.1f} s, "
                f"write {r['write_s']:5.1f} s, estimated {r['estimate_s']:5.1f} s), "
                f"longest batch {r['longest_batch_s']:.2f} s, peak {r['peak_mb']:.0f} MB; "
                f"CPU of this process {r['cpu_total_s']:.1f} s (check {r['cpu_check_s']:.1f} s)",
                flush=True,
            )
            measured(f"games imported ({label})", r["games"], games)


if __name__ == "__main__":
    main()
