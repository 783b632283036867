"""Every public page and API list at 1,024 teams, uncached: the pages that grow with a season.

    python bench/pages.py                     # SQLite (bench/pages-bench.sqlite3, made once)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pegboard_bench_pages python bench/pages.py
    python bench/pages.py --teams 256 --weeks 4 --repeat 9
    python bench/pages.py --only TV           # only the rows whose name has "TV"

Not a test: it measures and prints. It builds a league of 1,024 teams (512 tables a week, every
week at one venue, so the TV shows 512 boards) with the generator of bench/standings.py, then
requests each page through Django's test client in this process, the cache cleared before
every request; the standings the worker stores after every result are there (as they are for a
visitor with the cache cold), except in the two rows "nothing stored". Target
(visitors' pages): under 200 ms each. It prints the median and the slowest of ``--repeat`` requests
in wall time, the median CPU time of this process (the database's own work is in wall time
only, and on SQLite in both), the queries and the size of each answer.

On a shared machine wall time moves with the load (printed before and after the table); CPU
time moves much less, which is why the flag is on it; the query counts do not move at all, and
the tests pin them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured import measured
from standings import ROOT, build_season, setup_django

DEFAULT_DB = f"sqlite:///{ROOT / 'bench' / 'pages-bench.sqlite3'}"
TARGET_MS = 200


def urls(season_id: int) -> list[tuple[str, str, bool]]:
    """``(name, url, stored)``: each public page and API list. ``stored``: the worker has
    stored the standings (snapshot and visitors' pages) as it does after every result, which is
    what a visitor meets with the cache cold; the two "computed" rows have nothing stored."""
    from django.conf import settings

    from league.models import Game, Match, Player, Team, Week

    week = Week.objects.filter(season_id=season_id).order_by("-number").first()
    middle = Week.objects.get(season_id=season_id, number=max(1, week.number // 2))
    match = Match.objects.filter(week=week).order_by("table").first()
    game = Game.objects.filter(match=match).order_by("number").first()
    team = Team.objects.filter(season_id=season_id).order_by("pk").first()
    player = Player.objects.filter(teams=team).order_by("pk").first()
    season = f"/seasons/{season_id}"
    limit = "limit=200"
    tv = f"/venues/{week.venue_id}/weeks/{week.pk}/scoreboard"
    tables = Match.objects.filter(week=week).count()
    per_screen = min(tables, settings.PEGBOARD_TV_SCREEN_TABLES)
    screen = f"one screen ({per_screen} of {tables} tables)"
    return [
        ("home", "/", True),
        ("standings", f"{season}/standings/", True),
        ("standings, nothing stored", f"{season}/standings/", False),
        ("seeding and bracket", f"{season}/seeding/", True),
        ("schedule, current week", f"{season}/schedule/", True),
        ("schedule, a week", f"{season}/schedule/?week={middle.number}", True),
        ("match", f"/matches/{match.pk}/", True),
        ("game", f"/games/{game.pk}/", True),
        ("team", f"/teams/{team.pk}/", True),
        ("player", f"/players/{player.pk}/", True),
        ("TV scoreboard page, in turn (screen 1)", f"{tv}/", True),
        ("TV boards poll, in turn (screen 1)", f"{tv}/boards/", True),
        (f"TV scoreboard page, {screen}", f"{tv}/?screen=2", True),
        ("TV boards poll, one screen", f"{tv}/boards/?screen=2", True),
        ("API leagues", f"/api/leagues/?{limit}", True),
        ("API seasons", f"/api/seasons/?{limit}", True),
        ("API teams", f"/api/teams/?season={season_id}&{limit}", True),
        ("API weeks", f"/api/weeks/?season={season_id}&{limit}", True),
        ("API matches", f"/api/matches/?season={season_id}&{limit}", True),
        ("API games", f"/api/games/?season={season_id}&{limit}", True),
        ("API deals", f"/api/deals/?{limit}", True),
        ("API disputes", f"/api/disputes/?{limit}", True),
        ("API standings", f"/api/seasons/{season_id}/standings/", True),
        ("API standings, nothing stored", f"/api/seasons/{season_id}/standings/", False),
        ("API season schedule (all)", f"/api/seasons/{season_id}/schedule/", True),
    ]


def prepare(season_id: int, stored: bool) -> None:
    """Standings as a visitor finds them: stored by the worker, or nothing stored."""
    from league.models import StandingsPage, StandingsSnapshot
    from league.tasks import recompute_standings

    if stored:
        if not StandingsSnapshot.objects.filter(season_id=season_id).exists():
            recompute_standings(season_id)
    else:
        StandingsSnapshot.objects.filter(season_id=season_id).delete()
        StandingsPage.objects.filter(season_id=season_id).delete()


def measure(url: str, repeat: int) -> dict[str, float]:
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    caches["default"].clear()
    first = client.get(url)  # imports, templates and the connection warmed
    assert first.status_code == 200, (url, first.status_code)
    times, cpu, queries = [], [], 0
    for _ in range(repeat):
        caches["default"].clear()
        with CaptureQueriesContext(connection) as ctx:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            cpu.append((time.process_time() - start_cpu) * 1000)
            times.append((time.perf_counter() - start) * 1000)
        queries = len(ctx)
    return {
        "median_ms": statistics.median(times),
        "max_ms": max(times),
        "cpu_ms": statistics.median(cpu),
        "queries": queries,
        "kb": len(response.content) / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--weeks", type=int, default=10)
    parser.add_argument("--games", type=int, default=5, help="games a match")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="only the rows whose name contains this")
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    setup_django(database_url)
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    start = time.perf_counter()
    season_id = build_season(
        f"Pages {args.teams}x{args.weeks}x{args.games}",
        teams=args.teams,
        weeks=args.weeks,
        games_per_night=args.games,
        venue="Bench Hall",
    )
    from league.models import Deal, Game

    games = Game.objects.filter(match__week__season_id=season_id).count()
    deals = Deal.objects.filter(game__match__week__season_id=season_id).count()
    print(
        f"{args.teams} teams, {args.weeks} weeks, {games} games, {deals} deals "
        f"({database_url.split(':')[0]}, ready in {time.perf_counter() - start:.1f} s)"
    )
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'':50s} {'wall time':>17s} {'CPU':>8s}")
    print(
        f"{'page':50s} {'median':>8s} {'slowest':>8s} {'median':>8s} {'queries':>7s} {'size':>9s}"
    )
    over = []
    wanted = [row for row in urls(season_id) if args.only in row[0]]
    timed = 0
    for name, url, stored in wanted:
        prepare(season_id, stored)
        figures = measure(url, args.repeat)
        timed += 1
        flag = "" if figures["cpu_ms"] < TARGET_MS else f"  CPU over {TARGET_MS} ms"
        if flag:
            over.append(name)
        print(
            f"{name:50s} {figures['median_ms']:6.1f}ms {figures['max_ms']:6.1f}ms "
            f"{figures['cpu_ms']:6.1f}ms {figures['queries']:7d} {figures['kb']:7.1f}kB{flag}"
        )
    print(f"CPU over {TARGET_MS} ms (median): {', '.join(over) if over else 'none'}")
    load = os.getloadavg()
    print(f"load after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    matches = args.teams // 2 * args.weeks
    measured("games in the season", games, matches * args.games)
    measured("pages timed", timed, len(wanted))


if __name__ == "__main__":
    main()
