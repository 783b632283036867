"""Load: 64 tables entering deals while 500 spectators poll standings and scoreboards.

    python bench/load.py                      # PostgreSQL + Redis on this machine, defaults
    python bench/load.py --tables 64 --spectators 500 --think 0.2

Runs the production processes natively: gunicorn (config.wsgi) and a Celery worker against
PostgreSQL (a scratch database, dropped and made afresh: pegboard_load) and Redis (db 13).
Each table is a thread of a captain's phone: it starts its game through the API and posts every
deal of a legal game (generated with the scorer) with an idempotency key, retrying a failed post
with the same key. Spectators are wrk connections (Debian's wrk) polling the standings page and
the venue scoreboard. At the end every table's deals are counted in the database: each posted
deal must be stored exactly once. Not a test: it measures and prints (figures in README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "pegboard_load"
PG_ADMIN = os.environ.get("LOAD_PG_ADMIN", "postgres://postgres@127.0.0.1:5432/postgres")
DATABASE_URL = os.environ.get("LOAD_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DB_NAME}")
REDIS_URL = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/13")
PORT = 8791

WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("JSON {\\"requests\\": %d, \\"errors\\": %d, \\"non2xx\\": %d, "
    .. "\\"p50\\": %.2f, \\"p95\\": %.2f, \\"p99\\": %.2f, \\"seconds\\": %.2f}\\n",
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout, summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, summary.duration / 1e6))
end
"""


def fresh_database() -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)


def env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        "THROTTLE_DEALS": "100000/min",
    }


def build_league(tables: int) -> dict:
    """A season with one week at one venue: ``tables`` matches, each captain with a token."""
    os.environ.update(env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from league.models import League, Match, Player, Season, Team, Venue, Week

    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    league = League.objects.create(name="Load League", games_per_match=1, skunk_margin=30)
    season = Season.objects.create(league=league, name="Load Season")
    venue = Venue.objects.create(name="The Load Arms")
    week = Week.objects.create(season=season, number=1, venue=venue)
    out = {"season": season.pk, "venue": venue.pk, "week": week.pk, "tables": []}
    for t in range(tables):
        names = [f"T{t}P{i}" for i in range(4)]
        players = []
        for name in names:
            user = user_model.objects.create_user(name.lower(), password="x")
            players.append(Player.objects.create(name=name, user=user))
        home = Team.objects.create(season=season, name=f"Home {t}", captain=players[0])
        home.players.set([players[0], players[2]])
        away = Team.objects.create(season=season, name=f"Away {t}", captain=players[1])
        away.players.set([players[1], players[3]])
        match = Match.objects.create(week=week, home=home, away=away, table=t + 1)
        token = Token.objects.create(user=players[0].user)
        out["tables"].append({"match": match.pk, "token": token.key, "seats": names})
    return out


def start(cmd: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env(),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_for(url: str) -> None:
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def post(url: str, token: str, body: dict) -> tuple[int, dict, float]:
    data = json.dumps(body).encode()
    req = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            payload = json.loads(resp.read() or b"{}")
            return resp.status, payload, time.perf_counter() - start
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), time.perf_counter() - start


class Table(threading.Thread):
    def __init__(self, table: dict, seed: int, think: float) -> None:
        super().__init__(daemon=True)
        self.table, self.rng, self.think = table, random.Random(seed), think
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.posted = 0
        self.game_id: int | None = None

    def run(self) -> None:
        from league.services.demo import random_game_deals

        base = f"http://127.0.0.1:{PORT}/api"
        status, body, _ = post(
            f"{base}/matches/{self.table['match']}/games/",
            self.table["token"],
            {"seats": self.table["seats"]},
        )
        if status != 201:
            self.errors.append(f"start {status} {body}")
            return
        self.game_id = body["id"]
        for number, deal in enumerate(random_game_deals(self.rng), start=1):
            payload = {"key": str(uuid.uuid4()), "number": number, **deal}
            for attempt in range(5):  # a failed post is retried with the same key
                try:
                    status, body, seconds = post(
                        f"{base}/games/{self.game_id}/deals/", self.table["token"], payload
                    )
                except OSError as exc:
                    status, body, seconds = 0, {"detail": str(exc)}, 0.0
                if status in (200, 201):
                    self.latencies.append(seconds)
                    break
                self.errors.append(f"deal {number} try {attempt}: {status} {body}")
                time.sleep(0.5)
            else:
                return
            self.posted += 1
            time.sleep(self.think * self.rng.random() * 2)


def spectators(url: str, connections: int, seconds: int, script: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            url,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )


def wrk_result(proc: subprocess.Popen[str]) -> dict:
    out, _ = proc.communicate()
    match = re.search(r"JSON (\{.*\})", out)
    return json.loads(match.group(1)) if match else {"raw": out}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument(
        "--think", type=float, default=0.2, help="mean seconds a table waits between deals"
    )
    parser.add_argument("--seconds", type=int, default=60, help="how long spectators poll")
    parser.add_argument("--web-workers", type=int, default=4)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    fresh_database()
    league = build_league(args.tables)
    logs = Path(tempfile.mkdtemp(prefix="pegboard-load-"))
    web = start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{PORT}",
            "-w",
            str(args.web_workers),
            "--access-logfile",
            "/dev/null",
        ],
        logs / "web.log",
    )
    worker = start(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
        ],
        logs / "worker.log",
    )
    try:
        wait_for(f"http://127.0.0.1:{PORT}/ping")
        script = logs / "report.lua"
        script.write_text(WRK_SCRIPT)
        standings_url = f"http://127.0.0.1:{PORT}/seasons/{league['season']}/standings/"
        board_url = f"http://127.0.0.1:{PORT}/venues/{league['venue']}/weeks/1/scoreboard/boards/"
        half = args.spectators // 2
        readers = [
            spectators(standings_url, half, args.seconds, script),
            spectators(board_url, args.spectators - half, args.seconds, script),
        ]
        tables = [Table(t, seed=i, think=args.think) for i, t in enumerate(league["tables"])]
        started = time.perf_counter()
        for t in tables:
            t.start()
        for t in tables:
            t.join()
        writing = time.perf_counter() - started
        reads = [wrk_result(p) for p in readers]
    finally:
        for proc in (web, worker):
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)

    from league.models import Deal

    latencies = [s for t in tables for s in t.latencies]
    errors = [e for t in tables for e in t.errors]
    posted = sum(t.posted for t in tables)
    stored = Deal.objects.filter(game__match__week_id=league["week"]).count()
    per_game_ok = all(
        Deal.objects.filter(game_id=t.game_id).count() == t.posted for t in tables if t.game_id
    )
    print(f"{args.tables} tables, {args.spectators} spectators, {writing:.0f} s of score entry")
    print(
        f"deals posted {posted}, stored {stored}, each exactly once: "
        f"{stored == posted and per_game_ok}; failed posts {len(errors)}"
    )
    print(
        f"score entry: {len(latencies)} posts, {len(latencies) / writing:.1f}/s, "
        f"p50 {pct(latencies, 50):.0f} ms, p95 {pct(latencies, 95):.0f} ms, "
        f"p99 {pct(latencies, 99):.0f} ms"
    )
    for name, r in zip(("standings", "scoreboard"), reads, strict=True):
        if "requests" in r:
            print(
                f"{name}: {r['requests'] / r['seconds']:.0f} req/s, p50 {r['p50']:.0f} ms, "
                f"p95 {r['p95']:.0f} ms, p99 {r['p99']:.0f} ms, socket errors "
                f"{r['errors']}, non-2xx {r['non2xx']}"
            )
        else:
            print(name, r)
    for e in errors[:10]:
        print("  ", e)
    print(f"logs: {logs}")


if __name__ == "__main__":
    main()
