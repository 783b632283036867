"""Tournament load: a national main event's qualifying round through nginx.

    python bench/tournament_load.py                  # 600 entrants, 300 games, 3 runs (~6 min)
    python bench/tournament_load.py --runs 1         # one quick run
    python bench/tournament_load.py --entrants 100 --spectators 200 --runs 1   # a small look
    python bench/tournament_load.py --card-cost      # a card's statements and CPU, no servers

The production processes run natively, as in bench/load.py (whose helpers this uses): Debian's
nginx with deploy/nginx.conf made local by deploy/nginx_local.py (its port, no TLS, no
per-address limits), gunicorn with deploy/gunicorn.conf.py and a Celery worker, on PostgreSQL (a
scratch database that the run creates and drops at its end: pegboard_tournament_load, or
--database; it refuses to start if that database exists, so it never drops one it did not make;
--keep-database leaves it) and Redis (db 7, or TOURNAMENT_LOAD_REDIS_URL, emptied first).
Gunicorn listens on --port (8793), nginx on --nginx-port (8794): not load.py's, so both can run.

A main event of --entrants singles entrants (600: 300 games a round, at 150 four-seat tables
of two boards each), each a player with an account and a token. Every run seats the next
qualifying round and each of its games finishes at a random moment of the first --spread
seconds (60); then BOTH players enter their card from their phone, one after the other (0 to
4 s apart, in either order), through nginx to
``POST /api/tournament-tables/<id>/scorecards/`` (the API the phones use) with an idempotency
key, retrying a failed post with the same key. Meanwhile --spectators wrk connections (2,000)
poll, each waiting 2 to 3 s between answers as load.py's scenario B does, a third each the
tournament's standings page, its TV page and its bracket page. At the end every card is counted
in the database: each must be stored exactly once, and every game verified by its two cards.
--card-cost runs no server: it enters one round's cards in this process through Django's test
client (token, parse, service, answer, as gunicorn would) and prints a card's SQL statements, how
many of them run inside its transaction, which rows that transaction locks (its table's alone
since the card path was trimmed; the tournament's before, so every card of the event waited for the
one before), and the worker's CPU a card: the figures load moves least.
Not a test: it measures and prints (figures in README.md). Target: score entry's p95
under 250 ms, no failed post.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import load  # bench/load.py: the scratch database, the servers, wrk and the figures

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "pegboard_tournament_load"
REDIS_URL = os.environ.get("TOURNAMENT_LOAD_REDIS_URL", "redis://127.0.0.1:6379/7")
PORT = 8793  # gunicorn (--port)
NGINX_PORT = 8794  # (--nginx-port)
WAIT = (2000, 3000)  # milliseconds each spectator waits between answers


def build_event(entrants: int, rounds: int) -> dict:
    """A main event of ``entrants`` checked-in singles entrants, each a player with an account
    and an API token (no password: the phones use tokens), entered through the services."""
    os.environ.update(load.env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from league.kernel.permissions import Trusted
    from league.models import Player
    from tournaments import services

    call_command("migrate", verbosity=0)
    bench = Trusted(None, "tournament load bench")
    # As many qualifying rounds as runs: after the last run's last card, the cut and the bracket.
    event = services.tournament_create(
        user=bench, name="National Main Event", kind="main", games_per_entrant=rounds
    )
    user_model = get_user_model()
    users = user_model.objects.bulk_create(
        user_model(username=f"entrant{i:04d}") for i in range(1, entrants + 1)
    )
    players = Player.objects.bulk_create(
        Player(name=f"Entrant {i:04d}", user=u) for i, u in enumerate(users, 1)
    )
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    services.entrants_add(user=bench, tournament=event, players=players, check_in=True)
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

    director = user_model.objects.create(username="director")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    director_token = Token.objects.create(user=director).key
    token_of = {t.user_id: t.key for t in tokens}
    by_entrant = {
        e.pk: token_of[e.players.get().user_id] for e in event.entrants.prefetch_related("players")
    }
    return {
        "tournament": event.pk,
        "tokens": by_entrant,
        "director": director_token,
        "rounds": rounds,
    }


def seat_round(event: dict) -> dict:
    """Seat the next qualifying round: its tables, each with its two entrants' tokens."""
    from league.kernel.permissions import Trusted
    from tournaments import services
    from tournaments.models import Tournament

    rnd = services.round_seat_next(
        user=Trusted(None, "tournament load bench"),
        tournament=Tournament.objects.get(pk=event["tournament"]),
    )
    tables = [
        {
            "game": g.pk,
            "sides": [
                (g.first_id, event["tokens"][g.first_id]),
                (g.second_id, event["tokens"][g.second_id]),
            ],
        }
        for g in rnd.games.order_by("table")
    ]
    return {"round": rnd.pk, "number": rnd.number, "tables": tables}


# The phone's outbox (static/js/outbox.js): no answer in 20 s is given up; a busy answer (429,
# 502, 503, 504), a timeout or a refused connection waits 2 s doubling to 60 s, each wait drawn
# between its half and its whole, never under Retry-After; one send at a time.
PHONE_TIMEOUT = 20.0
BACKOFF_BASE, BACKOFF_CAP = 2.0, 60.0
BUSY = {429, 502, 503, 504}


def phone_post(url: str, token: str, body: dict) -> tuple[int, dict, float, float]:
    """One post as the phone sends it: (status, answer, seconds, Retry-After seconds); status
    0 for no answer in time or no connection."""
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=PHONE_TIMEOUT) as resp:
            payload = json.loads(resp.read() or b"{}")
            return resp.status, payload, time.perf_counter() - start, 0.0
    except urllib.error.HTTPError as exc:
        retry_after = float(exc.headers.get("Retry-After") or 0)
        try:
            payload = json.loads(exc.read() or b"{}")
        except ValueError:
            payload = {}
        return exc.code, payload, time.perf_counter() - start, retry_after
    except OSError as exc:  # a timeout, a refused or reset connection
        return 0, {"detail": str(exc)}, time.perf_counter() - start, 0.0


def backoff_wait(tries: int, retry_after: float, rng: random.Random) -> float:
    ceiling = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (tries - 1))
    wait = ceiling / 2 + rng.random() * ceiling / 2
    if retry_after > 0:
        wait = max(wait, retry_after * (1 + 0.2 * rng.random()))
    return wait


class Phone(threading.Thread):
    """One player's phone: after ``wait`` seconds it sends its side's card of the game, with a
    key, and sends it again with the same key, backing off as the outbox does, until the server
    has it (or ``tries`` posts went unanswered)."""

    def __init__(
        self, url: str, token: str, card: dict, wait: float, seed: int, tries: int = 10
    ) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.card, self.wait = url, token, card, wait
        self.rng, self.tries = random.Random(seed), tries
        self.latencies: list[float] = []  # the answered post's own time
        self.entry_seconds = 0.0  # from the first post to the card's answer, waits included
        self.errors: list[str] = []  # the card never stored
        self.busy: list[int] = []  # each busy answer or timeout on the way (0: no answer)
        self.posts = 0
        self.stored = False
        self.stored_at = 0.0  # time.perf_counter() of the answer that had it stored

    def run(self) -> None:
        time.sleep(self.wait)
        body = {**self.card, "key": str(uuid.uuid4())}
        first = time.perf_counter()
        for attempt in range(1, self.tries + 1):
            self.posts += 1
            status, answer, seconds, retry_after = phone_post(self.url, self.token, body)
            if status in (200, 201):
                self.latencies.append(seconds)
                self.stored, self.stored_at = True, time.perf_counter()
                self.entry_seconds = self.stored_at - first
                return
            if status and status not in BUSY:  # a refusal: sending it again changes nothing
                self.errors.append(f"card refused: {status} {answer}")
                return
            self.busy.append(status)
            time.sleep(backoff_wait(attempt, retry_after, self.rng))
        self.errors.append(f"card not stored after {self.tries} posts: {self.busy}")


# Where a card's CPU goes (--profile): each function's own time, by the first of these
# prefixes its file's path holds (in order), else "other".
WHERE = [
    (
        "the ORM compiling SQL",
        (
            "django/db/models/sql/",
            "django/db/models/expressions",
            "django/db/models/lookups",
            "django/db/models/query_utils",
        ),
    ),
    ("the ORM building objects and querysets", ("django/db/models/",)),
    (
        "the database driver (psycopg) and Django's backend",
        ("psycopg", "django/db/backends", "django/db/transaction", "django/db/utils"),
    ),
    ("DRF (request, parser, renderer, serializers, throttle)", ("rest_framework/",)),
    (
        "middleware, sessions, auth, locale",
        (
            "django/middleware",
            "django/contrib/",
            "whitenoise",
            "django_prometheus",
            "axes/",
            "config/",
            "league/typist",
            "league/lockout",
            "django/utils/translation",
        ),
    ),
    (
        "the test client and Django's request/response",
        ("django/test/", "django/core/handlers", "django/http/", "django/urls/"),
    ),
    ("the cache (Redis)", ("django/core/cache", "redis/", "django_redis")),
    (
        "our code (tournaments, league, contest, scoring)",
        ("/tournaments/", "/league/", "/contest/", "/scoring/"),
    ),
    ("Python's json, copy, logging, re, other standard library", ("/lib/python3",)),
]


def _where(filename: str) -> str:
    for label, prefixes in WHERE:
        if any(p in filename for p in prefixes):
            return label
    return "other"


def _short(filename: str) -> str:
    return filename.split("site-packages/")[-1].replace(str(ROOT) + "/", "")


def print_profile(profile: object, cards: int) -> None:
    """The profiled cards' own time by where it runs, and the functions costing most."""
    import pstats

    stats = pstats.Stats(profile)  # type: ignore[arg-type]
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    buckets: dict[str, float] = {}
    for (filename, _line, _name), v in stats.stats.items():  # type: ignore[attr-defined]
        buckets[_where(filename)] = buckets.get(_where(filename), 0.0) + v[2]
    print(f"where a card's CPU goes (profiled, {cards} cards, own time of each function):")
    for label, seconds in sorted(buckets.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * seconds / total:5.1f}%  {label}")
    others: dict[str, float] = {}
    for (filename, _line, _name), v in stats.stats.items():  # type: ignore[attr-defined]
        if _where(filename) == "other":
            others[_short(filename)] = others.get(_short(filename), 0.0) + v[2]
    top = sorted(others.items(), key=lambda kv: -kv[1])[:6]
    print("  other: " + ", ".join(f"{name} {100 * t / total:.1f}%" for name, t in top))
    print("the functions costing most, with what they call (cumulative, per card):")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][3])  # type: ignore[attr-defined]
    shown = 0
    for (filename, line, name), v in rows:
        if not any(
            p in filename for p in ("/tournaments/", "/league/", "rest_framework/", "django/")
        ):
            continue
        print(
            f"  {1000 * v[3] / cards:6.2f} ms  {v[1]:>6} calls  {name}  ({_short(filename)}:{line})"
        )
        shown += 1
        if shown == 30:
            break


def card_cost(event: dict, *, profile: bool = False) -> None:
    """Enter one round's cards in this process and print what a card costs the worker."""
    import cProfile

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from measured import measured
    from rest_framework.test import APIClient

    seated = seat_round(event)
    statements: list[list[str]] = []
    cpu: list[float] = []
    profiler = cProfile.Profile(time.process_time) if profile else None  # CPU, not waits
    for n, table in enumerate(seated["tables"]):
        for token_of in table["sides"]:
            phone = APIClient(HTTP_HOST="127.0.0.1")
            phone.credentials(HTTP_AUTHORIZATION=f"Token {token_of[1]}")
            body = {"winner": table["sides"][0][0], "loser_score": 90, "key": str(uuid.uuid4())}
            url = f"/api/tournament-tables/{table['game']}/scorecards/"
            phone.get("/api/tournaments/")  # the token is read once, then remembered
            started = time.process_time()
            with CaptureQueriesContext(connection) as queries:
                if profiler is not None and n > 0:
                    profiler.enable()
                answer = phone.post(url, body, format="json")
                if profiler is not None:
                    profiler.disable()
            cpu.append((time.process_time() - started) * 1000)
            assert answer.status_code == 201, answer.content
            if n == len(seated["tables"]) // 2:
                statements.append([q["sql"] for q in queries.captured_queries])
    cpu = cpu[2:]  # the first phone's first request warms the process

    def in_transaction(sqls: list[str]) -> int:
        begin = next(i for i, q in enumerate(sqls) if q.startswith("BEGIN"))
        commit = next(i for i, q in enumerate(sqls) if q.startswith("COMMIT"))
        return commit - begin - 1

    def locked(sqls: list[str]) -> str:
        tables = sorted(
            {
                q.split("FOR UPDATE", 1)[1].strip() or "every row read"
                for q in sqls
                if "FOR UPDATE" in q
            }
        )
        return ", ".join(tables) or "no row"

    (first, second) = statements
    print(
        f"a card in process: {len(first)} SQL statements for the first card of a game "
        f"({in_transaction(first)} inside its transaction, which locks {locked(first)}), "
        f"{len(second)} for the second, which verifies it ({in_transaction(second)} inside); "
        f"worker CPU a card median {statistics.median(cpu):.1f} ms, mean "
        f"{statistics.mean(cpu):.1f} ms, min {min(cpu):.1f} ms "
        f"({len(cpu)} cards{', profiled: slower' if profiler else ''})"
    )
    measured("cards", len(cpu) + 2, 2 * len(seated["tables"]))
    if profiler is not None:
        print_profile(profiler, len(cpu))


def one_run(
    event: dict, base: str, script: Path, spectator_count: int, spread: float, seed: int, log: Path
) -> dict:
    from django.db.models import Count

    from tournaments.models import Scorecard, TableGame, TableState

    seated = seat_round(event)
    rng = random.Random(seed)
    page = f"{base}/tournaments/{event['tournament']}"
    urls = [f"{page}/", f"{page}/tv/", f"{page}/bracket/"]
    log_start = log.stat().st_size if log.exists() else 0
    shares = [spectator_count // 3] * 2 + [spectator_count - 2 * (spectator_count // 3)]
    readers = [
        load.spectators(url, share, script, WAIT) for url, share in zip(urls, shares, strict=True)
    ]
    time.sleep(3)  # the spectators are watching before the first card
    phones = []
    for table in seated["tables"]:
        winner = rng.choice(table["sides"])[0]
        card = {"winner": winner, "loser_score": rng.randint(40, 120)}
        done = rng.random() * spread
        sides = list(table["sides"])
        rng.shuffle(sides)
        url = f"{base}/api/tournament-tables/{table['game']}/scorecards/"
        phones.append(Phone(url, sides[0][1], card, done, seed=rng.random()))
        phones.append(Phone(url, sides[1][1], card, done + rng.random() * 4, seed=rng.random()))
    started = time.perf_counter()
    for p in phones:
        p.start()
    for p in phones:
        p.join()
    writing = time.perf_counter() - started
    cut = None
    if seated["number"] == event["rounds"]:  # the last qualifying round: the cut and bracket
        cut = cut_and_bracket(event, base, last_card=max(p.stored_at for p in phones))
    reads = [load.wrk_result(p) for p in readers]
    latencies = [s for p in phones for s in p.latencies]
    entries = [p.entry_seconds for p in phones if p.stored]
    posted = sum(p.stored for p in phones)
    games = TableGame.objects.filter(round_id=seated["round"])
    stored = Scorecard.objects.filter(game__round_id=seated["round"]).count()
    per_game = games.annotate(cards=Count("scorecards")).values_list("cards", flat=True)
    verified = games.filter(status=TableState.VERIFIED).count()
    time.sleep(1.5)  # nginx writes its log in blocks, at least once a second
    statuses, answer_times = load.nginx_log(log, log_start)
    return {
        "round": seated["number"],
        "tables": len(seated["tables"]),
        "spectators": spectator_count,
        "seconds": writing,
        "posted": posted,
        "stored": stored,
        "verified": verified,
        "exactly_once": stored == posted == len(phones) and all(c == 2 for c in per_game),
        "failed_posts": [e for p in phones for e in p.errors],
        "posts": sum(p.posts for p in phones),
        "busy": sum(len(p.busy) for p in phones),
        "p50": load.pct(latencies, 50),
        "p95": load.pct(latencies, 95),
        "max": max(latencies) * 1000 if latencies else float("nan"),
        "entry_p95": load.pct(entries, 95),
        "cut": cut,
        "reads": dict(zip(("standings", "tv", "bracket"), reads, strict=False)),
        "nginx": statuses,
        "nginx_p50": load.pct(answer_times, 50),
        "nginx_p95": load.pct(answer_times, 95),
        "nginx_p99": load.pct(answer_times, 99),
    }


def cut_and_bracket(event: dict, base: str, *, last_card: float) -> dict:
    """The director draws the cut and the bracket as soon as the last card is in (through
    nginx, with their token); then the public bracket page is read until it shows the top
    seed. Seconds from the last card's answer."""
    import urllib.request

    url = f"{base}/api/tournaments/{event['tournament']}/draw/"
    status, answer, seconds, _ = phone_post(url, event["director"], {})
    drawn = time.perf_counter() - last_card
    if status != 201:
        return {"refused": f"{status} {answer}"}
    first = answer["rounds"][0][0]
    top = (first.get("top") or {}).get("name") or ""
    page = f"{base}/tournaments/{event['tournament']}/bracket/"
    shown = float("nan")
    for _attempt in range(100):
        with urllib.request.urlopen(page, timeout=PHONE_TIMEOUT) as resp:
            if top and top in resp.read().decode():
                shown = time.perf_counter() - last_card
                break
        time.sleep(0.1)
    qualifiers = sum(
        1 for rnd in answer["rounds"][:1] for m in rnd for side in ("top", "bottom") if m.get(side)
    )
    return {"drawn": drawn, "draw": seconds, "shown": shown, "qualifiers": qualifiers}


def print_run(r: dict) -> None:
    print(
        f"  round {r['round']} ({r['tables']} games, {r['spectators']} spectators): "
        f"{r['posted']} cards posted in {r['seconds']:.1f} s, {r['stored']} stored, each exactly "
        f"once: {r['exactly_once']}; {r['verified']} games verified; failed posts "
        f"{len(r['failed_posts'])}"
    )
    print(f"    card entry p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms, max {r['max']:.0f} ms")
    print(
        f"    {r['posts']} posts for {len(r['failed_posts']) + r['posted']} cards ({r['busy']} "
        f"busy answers or timeouts, each followed by a back-off); from a card's first post to "
        f"its answer, waits included: p95 {r['entry_p95']:.0f} ms"
    )
    for failed in r["failed_posts"][:5]:
        print(f"    failed: {failed}")
    if r["cut"] and "refused" in r["cut"]:
        print(f"    the cut and the bracket: the draw was refused: {r['cut']['refused']}")
    elif r["cut"]:
        c = r["cut"]
        print(
            f"    the cut and the bracket: drawn {c['drawn']:.2f} s after the last card (the "
            f"director's draw answered in {c['draw']:.2f} s, {c['qualifiers']} entrants in "
            f"its first round), the "
            f"public bracket page showing it {c['shown']:.2f} s after the last card"
        )
    load.print_reads(r)


def summary(runs: list[dict]) -> None:
    if not runs:
        return

    def span(key: str) -> str:
        values = [r[key] for r in runs]
        return f"{min(values):.0f} / {statistics.median(values):.0f} / {max(values):.0f}"

    failed = sum(len(r["failed_posts"]) for r in runs)
    reader_errors = sum(
        w.get("errors", 0) + w.get("non2xx", 0) for r in runs for w in r["reads"].values()
    )
    print()
    print(
        "| games, spectators | runs | p50 ms (min/median/max) | p95 ms | max ms "
        "| failed posts, spectator errors | exactly once |"
    )
    print("| --- | ---: | --- | --- | --- | --- | --- |")
    print(
        f"| {runs[0]['tables']}, {runs[0]['spectators']} | {len(runs)} | {span('p50')} | "
        f"{span('p95')} | {span('max')} | {failed}, {reader_errors} | "
        f"{all(r['exactly_once'] for r in runs)} ({sum(r['posted'] for r in runs)} cards) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=600, help="an even number (600)")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3, help="rounds, each measured (3)")
    parser.add_argument(
        "--spread", type=float, default=60.0, help="seconds over which the games finish (60)"
    )
    load.add_server_options(parser, database=DB_NAME, port=PORT, nginx_port=NGINX_PORT)
    parser.add_argument(
        "--spectator-nice", type=int, default=load.SPECTATOR_NICE, help="wrk's nice"
    )
    parser.add_argument(
        "--busy-core", action="store_true", help="keep one core busy for the whole run"
    )
    parser.add_argument(
        "--card-cost",
        action="store_true",
        help="only a card's statements and worker CPU, in this process (no servers)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="with --card-cost: where a card's CPU goes (cProfile), and its costliest functions",
    )
    args = parser.parse_args()
    if args.entrants < 2 or args.entrants % 2:
        sys.exit("--entrants: an even number, at least 2 (no byes in this bench)")
    if not 1 <= args.runs <= 22:
        sys.exit("--runs: 1 to 22 (the event's qualifying rounds)")
    # load.py's helpers read these at each call: this run's names and ports, not load.py's.
    load.DB_NAME, load.REDIS_URL = args.database, REDIS_URL
    load.PORT, load.NGINX_PORT = args.port, args.nginx_port
    load.SPECTATOR_NICE = args.spectator_nice
    if not args.card_cost and not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    if not args.card_cost and not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        sys.exit("nginx is needed: apt-get install nginx-light")
    load.empty_redis()
    load.create_database()
    try:
        with load.busy_core(args.busy_core):
            if args.card_cost:
                card_cost(build_event(args.entrants, args.runs), profile=args.profile)
            else:
                main_event(args)
    finally:
        if args.keep_database:
            print(f"database {load.DB_NAME} kept: dropdb {load.DB_NAME} when done with it")
        else:
            load.drop_database()


def main_event(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    event = build_event(args.entrants, args.runs)
    print(f"{args.entrants} entrants built in {time.perf_counter() - started:.1f} s")
    logs = Path(tempfile.mkdtemp(prefix="pegboard-tournament-load-"))
    web = load.start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            "deploy/gunicorn.conf.py",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{args.port}",
            "-w",
            str(args.web_workers),
            "--access-logfile",
            "/dev/null",
        ],
        logs / "web.log",
    )
    worker = load.start(
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
        load.wait_for(f"http://127.0.0.1:{args.port}/ping")
        from deploy.nginx_local import start_nginx

        proxy = start_nginx(
            workdir=logs / "nginx",
            port=args.nginx_port,
            upstream=f"127.0.0.1:{args.port}",
            rate_limits=False,
            buffered_log=True,
        )
        script = logs / "report.lua"
        script.write_text(load.WRK_SCRIPT)
        print(
            f"{args.entrants // 2} games a round (finishing over {args.spread:.0f} s, both "
            f"players entering), nginx + gunicorn ({args.web_workers} workers), PostgreSQL "
            f"{load.DB_NAME}, Redis {load.REDIS_URL}, {args.spectators} spectators at nice "
            f"{load.SPECTATOR_NICE}{', one core kept busy' if args.busy_core else ''}"
        )
        for number in range(1, args.runs + 1):
            result = one_run(
                event,
                proxy.url,
                script,
                args.spectators,
                args.spread,
                seed=number,
                log=logs / "nginx" / "access.log",
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

    measured("rounds", len(runs), args.runs)
    measured("cards stored", sum(r["stored"] for r in runs), args.runs * args.entrants)


if __name__ == "__main__":
    main()
