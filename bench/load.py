"""Load: a venue night through nginx. 64 tables enter deals while spectators watch.

    python bench/load.py                          # scenarios A and B, 3 runs each (~10 min)
    python bench/load.py --scenario A --runs 1    # one quick run
    python bench/load.py --no-nginx               # the same, straight to gunicorn
    python bench/load.py --scenario B --busy-core # with one core kept busy by another program

Runs the production processes natively: Debian's nginx-light with deploy/nginx.conf (made local
by deploy/nginx_local.py: its port, no TLS, no per-address limits, since every spectator here
comes from one address) in front of gunicorn (deploy/gunicorn.conf.py) and a Celery worker, on
PostgreSQL (a scratch database that the run creates and drops at the end: pegboard_load, or
--database, on the server of LOAD_PG_ADMIN; it refuses to start if that database exists, and
--keep-database leaves it for a look afterwards) and Redis (db 9, or LOAD_REDIS_URL, emptied
first). Gunicorn listens on --port (8791), nginx on --nginx-port (8792).

Each table is a thread of a captain's phone: it sits down after 0 to 2 x --think seconds, starts
its game through the API and posts every deal of a legal game (generated with the scorer) with
an idempotency key, waiting 0 to 2 x --think seconds between deals (2 s on average: a real
table deals every three or four minutes, so this is a venue night about 100 times as fast),
retrying a failed post with the same key. Spectators are wrk connections (Debian's wrk), half
on the standings page and half on the venue's TV boards:
  A: 500 spectators asking again as soon as they are answered (the worst case);
  B: 2,000 spectators polling every 2.5 s (each waits 2 to 3 s between answers), as TVs and
     phones do, the boards' pollers sending back the ETag (If-None-Match) as the TV page does;
  0: no spectators (not run by default), what score entry costs by itself.
Every run is a new week of 64 matches in the same season, on the same warm servers. At the end
every table's deals are counted in the database: each posted deal must be stored exactly once.
--busy-core keeps one core busy for the whole run: a process spinning at normal
priority in a session of its own (another program on the host), killed at the end; the run
prints the share of a core it got.
Not a test: it measures and prints (figures in README.md).
"""

from __future__ import annotations

import argparse
import contextlib
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
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DB_NAME = os.environ.get("LOAD_DB_NAME", "pegboard_load")
PG_ADMIN = os.environ.get("LOAD_PG_ADMIN", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/9")  # CI uses 12 to 15
PORT = 8791  # gunicorn (--port)
NGINX_PORT = 8792  # (--nginx-port)
# wrk stands for thousands of phones and TVs that bring their own CPUs: it runs at a lower
# priority, so that the two cores go first to what is measured (nginx, gunicorn, PostgreSQL,
# Redis and the worker). --spectator-nice 0 puts it level with them.
SPECTATOR_NICE = 10
SCENARIOS = {
    # name: (spectators, milliseconds each waits between answers: (low, high), or None)
    "0": (0, None),  # no spectators: what score entry costs by itself (not run by default)
    "A": (500, None),
    "B": (2000, (2000, 3000)),
}

WRK_SCRIPT = """
local low = tonumber(os.getenv("WRK_DELAY_LOW") or "0")
local high = tonumber(os.getenv("WRK_DELAY_HIGH") or "0")
delay = function()
  if high > 0 then return math.random(low, high) end
  return 0
end
-- A TV sends back the ETag of its last answer (static/js/live.js): WRK_ETAG=1 does the same.
if os.getenv("WRK_ETAG") == "1" then
  local etag = nil
  response = function(status, headers, body)
    if headers["ETag"] then etag = headers["ETag"] end
  end
  request = function()
    if etag then return wrk.format(nil, nil, {["If-None-Match"] = etag}) end
    return wrk.format()
  end
end
done = function(summary, latency, requests)
  io.write(string.format("JSON {\\"requests\\": %d, \\"errors\\": %d, \\"non2xx\\": %d, "
    .. "\\"p50\\": %.2f, \\"p95\\": %.2f, \\"p99\\": %.2f, \\"seconds\\": %.2f}\\n",
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout, summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, summary.duration / 1e6))
end
"""


def database_url() -> str:
    """The scratch database on LOAD_PG_ADMIN's server: the one created is the one used."""
    return f"{PG_ADMIN.rsplit('/', 1)[0]}/{DB_NAME}"


def create_database() -> None:
    """Create the scratch database, or stop if it exists: the run drops only what it made."""
    import psycopg

    if not re.fullmatch(r"[a-z_][a-z0-9_]*", DB_NAME):
        sys.exit(f"not a plain database name: {DB_NAME!r}")
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        try:
            conn.execute(f"CREATE DATABASE {DB_NAME}")
        except psycopg.errors.DuplicateDatabase:
            sys.exit(
                f"database {DB_NAME} already exists, and load.py only uses a database it "
                f"creates (it drops it at the end). Name another with --database, or drop "
                f"that one yourself if it is a leftover: dropdb {DB_NAME}"
            )


def empty_redis() -> None:
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True, capture_output=True)


def drop_database() -> None:
    """Drop the scratch database this run created (its own servers are stopped by now; FORCE
    ends this process's own connection and any straggler of theirs)."""
    import psycopg

    with contextlib.suppress(Exception):
        from django.db import connections

        connections.close_all()
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


@contextlib.contextmanager
def busy_core(on: bool = True) -> Iterator[None]:
    """With ``on``, one core kept busy while the block runs: a process spinning at normal
    priority in a session of its own (with autogroup scheduling, a program of its own on the
    host, competing with the servers as one), killed when the block ends. It prints the share
    of a core the spinner got, which says how hard it competed."""
    if not on:
        yield
        return
    spinner = subprocess.Popen(
        [sys.executable, "-c", "while True: pass"],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    started = time.perf_counter()
    try:
        yield
    finally:
        ticks = 0
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{spinner.pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks = int(fields[11]) + int(fields[12])  # utime + stime
        wall = time.perf_counter() - started
        spinner.kill()
        spinner.wait(timeout=10)
        share = ticks / os.sysconf("SC_CLK_TCK") / max(wall, 1e-9)
        print(f"busy core: the spinner had {share:.0%} of a core over {wall:.0f} s")


def env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        "THROTTLE_DEALS": "100000/min",
        "GUNICORN_LOG_LEVEL": "warning",
    }


def build_league(tables: int) -> dict:
    """A season at one venue with ``tables`` pairs of teams, each home captain with a token
    (accounts have no password: the phones use tokens, and hashing 256 passwords takes a
    minute)."""
    os.environ.update(env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from league.models import League, Player, Season, SeasonState, Team, Venue

    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    league = League.objects.create(name="Load League", games_per_match=1, skunk_margin=30)
    season = Season.objects.create(
        league=league,
        name="Load Season",
        state=SeasonState.PUBLISHED,  # shown to visitors
    )
    venue = Venue.objects.create(name="The Load Arms")
    out: dict = {"season": season.pk, "venue": venue.pk, "pairs": []}
    for t in range(tables):
        names = [f"T{t}P{i}" for i in range(4)]
        players = []
        for name in names:
            user = user_model.objects.create_user(name.lower())
            players.append(Player.objects.create(name=name, user=user))
        home = Team.objects.create(season=season, name=f"Home {t}", captain=players[0])
        home.players.set([players[0], players[2]])
        away = Team.objects.create(season=season, name=f"Away {t}", captain=players[1])
        away.players.set([players[1], players[3]])
        token = Token.objects.create(user=players[0].user)
        out["pairs"].append({"home": home.pk, "away": away.pk, "token": token.key, "seats": names})
    return out


def new_week(league: dict, number: int) -> dict:
    """Week ``number`` at the venue: one match per pair of teams, a table each."""
    from league.models import Match, Week

    week = Week.objects.create(season_id=league["season"], number=number, venue_id=league["venue"])
    tables = []
    for t, pair in enumerate(league["pairs"]):
        match = Match.objects.create(
            week=week, home_id=pair["home"], away_id=pair["away"], table=t + 1
        )
        tables.append({"match": match.pk, "token": pair["token"], "seats": pair["seats"]})
    return {"week": week.pk, "tables": tables}


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
    def __init__(self, table: dict, seed: int, think: float, base: str) -> None:
        super().__init__(daemon=True)
        self.table, self.rng, self.think, self.base = table, random.Random(seed), think, base
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.posted = 0
        self.game_id: int | None = None

    def run(self) -> None:
        from league.services.demo import random_game_deals

        base = f"{self.base}/api"
        # Tables sit down over the first moments of the night, as they start each deal: not
        # all 64 in the same millisecond (the threads would otherwise start together).
        time.sleep(self.think * self.rng.random() * 2)
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


def spectators(
    url: str, connections: int, script: Path, wait: tuple[int, int] | None, *, etag: bool = False
) -> subprocess.Popen[str]:
    """wrk polling ``url`` until it is interrupted (SIGINT makes it stop and report); with
    ``etag``, sending back the ETag last seen, as the TV page does."""
    low, high = wait or (0, 0)
    proc = subprocess.Popen(
        [
            *(["nice", "-n", str(SPECTATOR_NICE)] if SPECTATOR_NICE else []),
            "wrk",
            "-t1",
            f"-c{connections}",
            "-d3600s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            url,
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={
            **os.environ,
            "WRK_DELAY_LOW": str(low),
            "WRK_DELAY_HIGH": str(high),
            "WRK_ETAG": "1" if etag else "0",
        },
    )
    yield_cpu(proc)
    return proc


def yield_cpu(proc: subprocess.Popen[str]) -> None:
    """Give ``proc``'s session the spectators' priority. With the kernel's autogroup scheduling
    (``/proc/sys/kernel/sched_autogroup_enabled``), nice only orders the processes of one
    session, and each session shares the CPU with the others as one: wrk in its own session at
    nice 10 within it would still take a server's share. The session's own nice (its autogroup)
    is what yields; where there is no autogroup, the process's nice above already does."""
    if not SPECTATOR_NICE:
        return
    with contextlib.suppress(OSError):
        Path(f"/proc/{proc.pid}/autogroup").write_text(f"{SPECTATOR_NICE}\n")


def wrk_result(proc: subprocess.Popen[str]) -> dict:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    match = re.search(r"JSON (\{.*\})", out)
    return json.loads(match.group(1)) if match else {"raw": out}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] * 1000


def nginx_log(log: Path, start: int) -> tuple[dict[str, int], list[float]]:
    """How nginx answered the spectators, from its access log after byte ``start``: the count
    of each cache status (``cache=``) and each answer's time in nginx ($request_time, seconds),
    the server's side of what wrk measures (wrk's own figures include its waits for the CPU)."""
    counts: dict[str, int] = {}
    times: list[float] = []
    if not log.exists():
        return counts, times
    with log.open("rb") as f:
        f.seek(start)
        for line in f:
            if b'"POST /api/' in line:
                continue
            found = re.search(rb" ([0-9.]+) cache=(\S*)", line)
            key = found.group(2).decode() if found else "?"
            counts[key or "-"] = counts.get(key or "-", 0) + 1
            if found:
                times.append(float(found.group(1)))
    return counts, times


def one_run(
    league: dict, number: int, scenario: str, base: str, script: Path, think: float, log: Path
) -> dict:
    from league.models import Deal

    week = new_week(league, number)
    spectator_count, wait = SCENARIOS[scenario]
    standings_url = f"{base}/seasons/{league['season']}/standings/"
    board_url = f"{base}/venues/{league['venue']}/weeks/{week['week']}/scoreboard/boards/"
    log_start = log.stat().st_size if log.exists() else 0
    half = spectator_count // 2
    readers = (
        [
            spectators(standings_url, half, script, wait),
            # Polling TVs send back their ETag; A's back-to-back readers do not.
            spectators(board_url, spectator_count - half, script, wait, etag=wait is not None),
        ]
        if spectator_count
        else []
    )
    time.sleep(3)  # the spectators are watching before the first deal
    tables = [
        Table(t, seed=number * 1000 + i, think=think, base=base)
        for i, t in enumerate(week["tables"])
    ]
    started = time.perf_counter()
    for t in tables:
        t.start()
    for t in tables:
        t.join()
    writing = time.perf_counter() - started
    reads = [wrk_result(p) for p in readers]
    latencies = [s for t in tables for s in t.latencies]
    posted = sum(t.posted for t in tables)
    stored = Deal.objects.filter(game__match__week_id=week["week"]).count()
    per_game_ok = all(
        Deal.objects.filter(game_id=t.game_id).count() == t.posted for t in tables if t.game_id
    )
    time.sleep(1.5)  # nginx writes its log (as in production) in blocks, at least once a second
    statuses, answer_times = nginx_log(log, log_start)
    return {
        "scenario": scenario,
        "tables": len(tables),
        "spectators": spectator_count,
        "seconds": writing,
        "posted": posted,
        "stored": stored,
        "exactly_once": stored == posted and per_game_ok and all(t.game_id for t in tables),
        "failed_posts": [e for t in tables for e in t.errors],
        "p50": pct(latencies, 50),
        "p95": pct(latencies, 95),
        "max": max(latencies) * 1000 if latencies else float("nan"),
        "reads": dict(zip(("standings", "boards"), reads, strict=False)),
        "nginx": statuses,
        "nginx_p50": pct(answer_times, 50),
        "nginx_p95": pct(answer_times, 95),
        "nginx_p99": pct(answer_times, 99),
    }


def print_run(r: dict) -> None:
    print(
        f"  scenario {r['scenario']} ({r['spectators']} spectators): {r['posted']} deals posted in "
        f"{r['seconds']:.1f} s, {r['stored']} stored, each exactly once: {r['exactly_once']}; "
        f"failed posts {len(r['failed_posts'])}"
    )
    print(f"    score entry p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms, max {r['max']:.0f} ms")
    print_reads(r)


def print_reads(r: dict) -> None:
    """What the spectators got in run ``r`` (wrk's figures, nginx's cache), and the first
    failed posts: the same for every load bench."""
    for name, w in r["reads"].items():
        if "requests" in w:
            print(
                f"    {name}: {w['requests'] / max(w['seconds'], 1e-9):.0f} req/s, p50 "
                f"{w['p50']:.1f} ms, p95 {w['p95']:.1f} ms, p99 {w['p99']:.1f} ms, socket errors "
                f"{w['errors']}, non-2xx {w['non2xx']}"
            )
        else:
            print(f"    {name}: {w}")
    if r["nginx"]:
        print(
            "    nginx answered spectators: "
            + ", ".join(f"{k} {v}" for k, v in sorted(r["nginx"].items()))
            + f"; time in nginx p50 {r['nginx_p50']:.1f} ms, p95 {r['nginx_p95']:.1f} ms, "
            f"p99 {r['nginx_p99']:.1f} ms"
        )
    for e in r["failed_posts"][:5]:
        print("     ", e)


def summary(runs: list[dict]) -> None:
    import statistics

    print()
    print(
        "| scenario | runs | p50 ms (min/median/max) | p95 ms | max ms "
        "| failed posts, spectator errors | exactly once |"
    )
    print("| --- | ---: | --- | --- | --- | --- | --- |")
    for scenario in SCENARIOS:
        mine = [r for r in runs if r["scenario"] == scenario]
        if not mine:
            continue

        def span(key: str, rows: list[dict] = mine) -> str:
            values = [r[key] for r in rows]
            return f"{min(values):.0f} / {statistics.median(values):.0f} / {max(values):.0f}"

        failed = sum(len(r["failed_posts"]) for r in mine)
        reader_errors = sum(
            w.get("errors", 0) + w.get("non2xx", 0) for r in mine for w in r["reads"].values()
        )
        once = all(r["exactly_once"] for r in mine)
        deals = sum(r["posted"] for r in mine)
        print(
            f"| {scenario}: {mine[0]['tables']} tables, {mine[0]['spectators']} spectators | "
            f"{len(mine)} | "
            f"{span('p50')} | {span('p95')} | {span('max')} | {failed}, {reader_errors} | "
            f"{once} ({deals} deals) |"
        )


def add_server_options(
    parser: argparse.ArgumentParser, *, database: str, port: int, nginx_port: int
) -> None:
    """The options every load bench takes for its servers and scratch database."""
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument(
        "--database",
        default=database,
        help=f"scratch PostgreSQL database, created by the run and dropped at its end; the run "
        f"refuses to start if it exists ({database})",
    )
    parser.add_argument(
        "--keep-database", action="store_true", help="leave the scratch database at the end"
    )
    parser.add_argument("--port", type=int, default=port, help=f"gunicorn's port ({port})")
    parser.add_argument(
        "--nginx-port", type=int, default=nginx_port, help=f"nginx's port ({nginx_port})"
    )


def main() -> None:
    global DB_NAME, SPECTATOR_NICE, PORT, NGINX_PORT
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument(
        "--scenario", choices=[*SCENARIOS, "both"], default="both", help="both: A and B"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each scenario")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds a table waits between deals"
    )
    add_server_options(parser, database=DB_NAME, port=PORT, nginx_port=NGINX_PORT)
    parser.add_argument(
        "--no-nginx", action="store_true", help="spectators and tables straight to gunicorn"
    )
    parser.add_argument("--spectator-nice", type=int, default=SPECTATOR_NICE, help="wrk's nice")
    parser.add_argument(
        "--busy-core",
        action="store_true",
        help="keep one core busy for the whole run (a spinning process, killed at the end)",
    )
    args = parser.parse_args()
    DB_NAME, SPECTATOR_NICE = args.database, args.spectator_nice
    PORT, NGINX_PORT = args.port, args.nginx_port
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    if not args.no_nginx and not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        sys.exit("nginx is needed: apt-get install nginx-light (or --no-nginx)")
    empty_redis()
    create_database()
    try:
        with busy_core(args.busy_core):
            venue_night(args)
    finally:
        if args.keep_database:
            print(f"database {DB_NAME} kept: dropdb {DB_NAME} when done with it")
        else:
            drop_database()


def venue_night(args: argparse.Namespace) -> None:
    league = build_league(args.tables)
    logs = Path(tempfile.mkdtemp(prefix="pegboard-load-"))
    web = start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "deploy/gunicorn.conf.py",
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
    proxy = None
    runs: list[dict] = []
    try:
        wait_for(f"http://127.0.0.1:{PORT}/ping")
        base = f"http://127.0.0.1:{PORT}"
        if not args.no_nginx:
            from deploy.nginx_local import start_nginx

            proxy = start_nginx(
                workdir=logs / "nginx",
                port=NGINX_PORT,
                upstream=f"127.0.0.1:{PORT}",
                rate_limits=False,
                buffered_log=True,
            )
            base = proxy.url
        script = logs / "report.lua"
        script.write_text(WRK_SCRIPT)
        scenarios = ["A", "B"] if args.scenario == "both" else [args.scenario]
        number = 0
        print(
            f"{args.tables} tables (think {args.think} s), {'nginx + ' if proxy else ''}gunicorn "
            f"({args.web_workers} workers), PostgreSQL {DB_NAME}, Redis {REDIS_URL}, "
            f"wrk at nice {SPECTATOR_NICE}{', one core kept busy' if args.busy_core else ''}"
        )
        for scenario in scenarios:
            for _ in range(args.runs):
                number += 1
                result = one_run(
                    league,
                    number,
                    scenario,
                    base,
                    script,
                    args.think,
                    logs / "nginx" / "access.log",
                )
                runs.append(result)
                print_run(result)
    finally:
        if proxy is not None:
            proxy.stop()
        for proc in (web, worker):
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
    summary(runs)
    print(f"logs: {logs}")
    from measured import measured

    measured("runs", len(runs), len(scenarios) * args.runs)
    measured("deals stored", sum(r["stored"] for r in runs), len(runs) * args.tables)


if __name__ == "__main__":
    main()
