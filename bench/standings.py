"""Standings at scale: a generated season of 64 teams, 20 weeks, 5 games per team per night.

    python bench/standings.py                 # generate (once), time compute_standings, and
                                              #   the CPU of each page way against /ping
    python bench/standings.py --http          # + gunicorn and wrk: the standings page three
                                              #   ways against a trivial view, as ratios
    python bench/standings.py --http --runs 3 # min/median/max of three paired runs
    DATABASE_URL=postgres://... python bench/standings.py --http

Not a test: it measures and prints. Targets (issues 4 and 16): standings computed from the
database in under 50 ms; under gunicorn, requests per second relative to a trivial view through
the same middleware (/ping): from the cache >= 0.7, from stored rows with a cold cache >= 0.35,
computed from the games with nothing stored >= 0.1. wrk comes from Debian's package (apt-get
install wrk).

The CPU figures (process time per request through Django's test client, in this process) do
not depend on what else the machine is running, unlike wrk's requests per second; their ratio
to /ping is the same question asked without gunicorn in between.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_DB = f"sqlite:///{ROOT / 'bench' / 'standings-bench.sqlite3'}"
SEASON = "Bench Season"
TEAMS, WEEKS, GAMES_PER_NIGHT = 64, 20, 5


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def generate(teams: int = TEAMS, weeks: int = WEEKS) -> int:
    """Create the season (once) with bulk inserts; return its id."""
    name = SEASON if (teams, weeks) == (TEAMS, WEEKS) else f"{SEASON} {teams}x{weeks}"
    return build_season(name, teams=teams, weeks=weeks, games_per_night=GAMES_PER_NIGHT)


def build_season(
    name: str,
    *,
    teams: int,
    weeks: int,
    games_per_night: int,
    deals_per_game: int = 10,
    venue: str | None = None,
    seed: int = 64,
) -> int:
    """A season of ``teams`` teams (round robin, one match a team a week) whose games are all
    confirmed with random scores, each with ``deals_per_game`` deals; made once with bulk
    inserts and found again by name afterwards. Return its id. Every week is at ``venue`` when
    one is named (the TV boards then show all the week's tables)."""
    from django.core.management import call_command
    from django.db import transaction

    from league.models import (
        Deal,
        Game,
        GameStatus,
        League,
        Match,
        Player,
        Season,
        SeasonState,
        Team,
        Venue,
        Week,
    )
    from league.services.seasons import round_robin

    call_command("migrate", verbosity=0)
    expected = teams // 2 * weeks * games_per_night
    season = Season.objects.filter(name=name).first()
    if season and Game.objects.filter(match__week__season=season).count() == expected:
        # A season is shown to visitors once published (a file generated before seasons had
        # a life holds a draft).
        Season.objects.filter(pk=season.pk).update(state=SeasonState.PUBLISHED)
        return season.pk
    rng = random.Random(seed)
    with transaction.atomic():
        league, _ = League.objects.get_or_create(
            name="Bench League", defaults={"skunk_margin": 30, "games_per_match": 5}
        )
        place = Venue.objects.get_or_create(name=venue)[0] if venue else None
        season = Season.objects.create(
            league=league,
            name=name,
            playoff_teams=8,
            draw_seed=1,
            state=SeasonState.PUBLISHED,  # shown to visitors
        )
        players = Player.objects.bulk_create(
            Player(name=f"{name} Player {i}") for i in range(teams * 2)
        )
        made = Team.objects.bulk_create(
            Team(season=season, name=f"Team {i:04d}", captain=players[2 * i]) for i in range(teams)
        )
        Team.players.through.objects.bulk_create(
            Team.players.through(team_id=team.pk, player_id=players[2 * i + k].pk)
            for i, team in enumerate(made)
            for k in (0, 1)
        )
        rounds = round_robin(teams)
        games: list[Game] = []
        for w in range(weeks):
            week = Week.objects.create(season=season, number=w + 1, venue=place)
            matches = Match.objects.bulk_create(
                Match(week=week, home=made[h], away=made[a], table=t + 1)
                for t, (h, a) in enumerate(rounds[w % len(rounds)])
            )
            for match in matches:
                for n in range(1, games_per_night + 1):
                    loser_score = rng.randint(55, 120)
                    margin = 121 - loser_score
                    level = 2 if margin >= 61 else 1 if margin >= 30 else 0
                    home_won = rng.random() < 0.5
                    games.append(
                        Game(
                            match=match,
                            number=n,
                            status=GameStatus.CONFIRMED,
                            home_score=121 if home_won else loser_score,
                            away_score=loser_score if home_won else 121,
                            winner=match.home if home_won else match.away,
                            margin=margin,
                            skunk_level=level,
                            home_points=league.league_points(won=home_won, skunk_level=level),
                            away_points=league.league_points(won=not home_won, skunk_level=level),
                            deal_count=deals_per_game,
                            confirmed_at="2026-09-03T21:00:00Z",
                        )
                    )
        Game.objects.bulk_create(games, batch_size=500)
        game_ids = Game.objects.filter(match__week__season=season).values_list("pk", flat=True)
        deals: list[Deal] = []
        for game_id in list(game_ids):
            for d in range(1, deals_per_game + 1):
                deals.append(
                    Deal(
                        game_id=game_id,
                        number=d,
                        dealer=(d - 1) % 4,
                        pegging=[3, 4],
                        shows={"0": 8, "1": 6, "2": 4, "3": 10},
                        crib=4,
                    )
                )
            if len(deals) >= 20_000:
                Deal.objects.bulk_create(deals, batch_size=2000)
                deals = []
        Deal.objects.bulk_create(deals, batch_size=2000)
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # fresh statistics, as after an import
    return season.pk


def time_compute(season_id: int, repeat: int = 30) -> dict[str, float]:
    from league.models import Season
    from league.selectors.standings import compute_standings

    season = Season.objects.select_related("league").get(pk=season_id)
    compute_standings(season)  # warm the connection and imports
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        compute_standings(season)
        times.append((time.perf_counter() - start) * 1000)
    return {
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "max_ms": max(times),
        "runs": len(times),
    }


def wrk(url: str, seconds: int, connections: int) -> dict[str, float]:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def pct(p: str) -> float:
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out)
        if not m:
            return float("nan")
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    # wrk --latency prints the 50th, 75th, 90th and 99th percentiles (no 95th).
    return {
        "rps": rps,
        "p50_ms": pct("50"),
        "p90_ms": pct("90"),
        "p99_ms": pct("99"),
        "errors": int(non2xx.group(1)) if non2xx else 0,
    }


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--access-logfile",
            "/dev/null",
            "--error-logfile",
            "-",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import urllib.request

    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("gunicorn did not start")


MODES = [  # name, cache, whether the recompute stored its snapshot and pages
    ("cached", "locmem", True),  # the visitor's whole page from the cache, warmed
    ("stored", "dummy", True),  # every cache read misses; the stored page answers
    ("computed", "dummy", False),  # no cache, nothing stored: computed from the games
]
TARGETS = {"cached": 0.7, "stored": 0.35, "computed": 0.1}


def prepare(season_id: int, stored: bool) -> None:
    from league.models import StandingsPage, StandingsSnapshot
    from league.tasks import recompute_standings

    if stored:
        recompute_standings(season_id)  # what the worker does after a result changes
    else:
        StandingsSnapshot.objects.filter(season_id=season_id).delete()
        StandingsPage.objects.filter(season_id=season_id).delete()


def worker_cost(season_id: int, repeat: int = 5) -> dict[str, float]:
    """The worker's CPU for one recompute after a result changed (``recompute_standings``,
    median of ``repeat``), when only English visitors came since the last change and when a
    French visitor did too: the pages of languages nobody asked for are not rendered."""
    from django.core.cache import cache
    from django.db.models import F

    from league.models import Season
    from league.standings_cache import note_language_asked
    from league.tasks import recompute_standings

    figures = {}
    for name, asked in (("English only", []), ("English and French", ["fr"])):
        times = []
        for _ in range(repeat):
            cache.clear()
            Season.objects.filter(pk=season_id).update(
                results_version=F("results_version") + 1, standings_stale=True
            )
            for language in asked:
                note_language_asked(season_id, language)
            start = time.process_time()
            recompute_standings(season_id)
            times.append((time.process_time() - start) * 1000)
        figures[name] = statistics.median(times)
    return figures


def cpu_bench(season_id: int, repeat: int = 60) -> dict[str, dict[str, float]]:
    """Process time of one request, page and /ping alternately, through the test client."""
    from django.core.cache import caches
    from django.test import Client
    from django.test.utils import override_settings

    backends = {
        "locmem": "django.core.cache.backends.locmem.LocMemCache",
        "dummy": "django.core.cache.backends.dummy.DummyCache",
    }
    page = f"/seasons/{season_id}/standings/"
    results = {}
    for name, cache, stored in MODES:
        prepare(season_id, stored)
        with override_settings(
            CACHES={"default": {"BACKEND": backends[cache]}}, ALLOWED_HOSTS=["testserver"]
        ):
            caches["default"].clear()
            client = Client()
            assert client.get(page).status_code == 200
            times: dict[str, list[float]] = {"page": [], "ping": []}
            for _ in range(repeat):
                for key, url in (("page", page), ("ping", "/ping")):
                    start = time.process_time()
                    client.get(url)
                    times[key].append((time.process_time() - start) * 1000)
        results[name] = {k: statistics.median(v) for k, v in times.items()}
    return results


def http_bench(
    season_id: int, database_url: str, seconds: int, connections: int, *, port: int
) -> dict:
    """One paired run: for each way, /ping, the page, /ping again (their mean is the base)."""
    if not shutil.which("wrk"):
        sys.exit("wrk is needed for --http: apt-get install wrk")
    base = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    base.pop("REDIS_URL", None)
    page = f"http://127.0.0.1:{port}/seasons/{season_id}/standings/"
    trivial = f"http://127.0.0.1:{port}/ping"
    results: dict[str, dict[str, float]] = {}
    for name, cache, stored in MODES:
        prepare(season_id, stored)
        extra = {"PEGBOARD_CACHE": "dummy"} if cache == "dummy" else {}
        proc = serve({**base, **extra}, port)
        try:
            wrk(page, 2, connections)  # warm every worker
            before = wrk(trivial, seconds, connections)
            results[name] = wrk(page, seconds, connections)
            after = wrk(trivial, seconds, connections)
            results[f"{name}-trivial"] = {"rps": (before["rps"] + after["rps"]) / 2}
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=10)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--runs", type=int, default=1, help="paired wrk runs (with --http)")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument(
        "--port", type=int, default=8790, help="gunicorn's port, with --http (8790)"
    )
    parser.add_argument("--teams", type=int, default=TEAMS, help=f"an even number ({TEAMS})")
    parser.add_argument("--weeks", type=int, default=WEEKS, help=f"({WEEKS})")
    args = parser.parse_args()
    from measured import measured

    database_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    setup_django(database_url)
    start = time.perf_counter()
    season_id = generate(args.teams, args.weeks)
    print(f"season ready in {time.perf_counter() - start:.1f} s ({database_url.split(':')[0]})")
    from league.models import Deal, Game

    games = Game.objects.filter(match__week__season_id=season_id).count()
    deals = Deal.objects.filter(game__match__week__season_id=season_id).count()
    print(f"{args.teams} teams, {args.weeks} weeks, {games} games, {deals} deals")
    compute = time_compute(season_id)
    print(
        f"compute_standings: median {compute['median_ms']:.1f} ms "
        f"(min {compute['min_ms']:.1f}, max {compute['max_ms']:.1f}); target < 50 ms"
    )
    report: dict = {"compute": compute}
    worker = worker_cost(season_id)
    for name, ms in worker.items():
        print(f"worker's recompute, visitors asked {name}: {ms:.1f} ms of CPU")
    report["worker"] = worker
    cpu = cpu_bench(season_id)
    for name, figures in cpu.items():
        print(
            f"CPU {name:9s} {figures['page']:6.2f} ms a page vs {figures['ping']:5.2f} ms /ping "
            f"= {figures['ping'] / figures['page']:.2f}"
        )
    report["cpu"] = cpu
    if args.http:
        runs = [
            http_bench(season_id, database_url, args.seconds, args.connections, port=args.port)
            for _ in range(args.runs)
        ]
        for name, target in TARGETS.items():
            ratios = sorted(r[name]["rps"] / r[f"{name}-trivial"]["rps"] for r in runs)
            last = runs[-1][name]
            spread = (
                f"min {ratios[0]:.2f}, median {statistics.median(ratios):.2f}, max {ratios[-1]:.2f}"
                if len(ratios) > 1
                else f"{ratios[0]:.2f}"
            )
            print(
                f"{name:9s} {last['rps']:8.0f} req/s vs trivial "
                f"{runs[-1][f'{name}-trivial']['rps']:8.0f} = {spread} (target >= {target}); "
                f"p50 {last['p50_ms']:.1f} ms, p90 {last['p90_ms']:.1f} ms, "
                f"p99 {last['p99_ms']:.1f} ms; non-2xx {last['errors']}"
            )
        report["http"] = runs
    print(json.dumps(report, indent=1) if os.environ.get("BENCH_JSON") else "", end="")
    measured("games in the season", games, args.teams // 2 * args.weeks * GAMES_PER_NIGHT)
    measured("standings computations timed", int(compute["runs"]), 30)
    measured("page ways timed for CPU", len(cpu), 1)


if __name__ == "__main__":
    main()
