"""The night reminder for 1,000 players, 300 of them with a push endpoint that never answers:
every mail and sign-in link delivered by one mail worker within 60 s.

    python bench/notify.py                   # 1,000 players (500 teams, 250 matches), 300 silent
    python bench/notify.py --players 40      # the smallest run (tests/test_benches.py)

The scaled layout, on this machine: a Redis (port 18701) as broker and cache, one Celery worker
for mails and sign-in links (``-Q celery``) and one for pushes (``-Q push``), a mail server
(an SMTP sink on 18702 that counts what it accepts), a push service that answers (18703) and
a listener that accepts every connection and never answers (18704), the silent phones' push
service. The bench's own process writes the season (published, its first night tomorrow) with
bulk inserts into a throwaway SQLite file (or ``--database-url``), runs ``notify_scheduled()``
as beat would (the rows written, the tasks queued), asks for sign-in links in the middle of the
fan-out, and waits for the sink. It exits non-zero if it measured fewer matches, mails or
sign-in links than it set out to (``bench/measured.py``).
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from measured import measured  # noqa: E402

REDIS_PORT, SMTP_PORT, PUSH_PORT, SILENT_PORT = 18701, 18702, 18703, 18704
SIGNIN_LINKS = 20


class Sink:
    """A mail server that accepts everything and notes when each message arrived."""

    def __init__(self, port: int) -> None:
        self.arrived: list[tuple[float, str]] = []
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")
                self.wfile.flush()

            def handle(self) -> None:
                self.reply("220 sink")
                subject = ""
                while line := self.rfile.readline():
                    verb = line.decode(errors="replace").strip().split(" ")[0].upper()
                    if verb == "DATA":
                        self.reply("354 go on")
                        while (data := self.rfile.readline()) not in {b".\r\n", b""}:
                            if data.lower().startswith(b"subject:"):
                                subject = data.decode(errors="replace")
                        sink.arrived.append((time.monotonic(), subject))
                        self.reply("250 queued")
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:
                        self.reply("250 ok")

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class PushService:
    """A push service that takes every message (201) and counts them."""

    def __init__(self, port: int) -> None:
        self.count = 0
        lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    service.count += 1
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        class Server(ThreadingHTTPServer):
            allow_reuse_address = True
            request_queue_size = 256  # the worker posts 64 at a time
            daemon_threads = True

        self.server = Server(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Silent:
    """Accepts every connection and never answers: the phones that stall a worker."""

    def __init__(self, port: int) -> None:
        self.connections = 0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(1024)
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            self.held.append(conn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="a multiple of 4 (1000)")
    parser.add_argument("--silent", type=float, default=0.3, help="share with a silent phone")
    parser.add_argument("--database-url", default="", help="PostgreSQL instead of SQLite")
    parser.add_argument("--wait", type=float, default=180, help="give up after this (s)")
    args = parser.parse_args()
    if args.players < 4 or args.players % 4:
        sys.exit("--players: a multiple of 4, at least 4")
    if not shutil.which("redis-server"):
        sys.exit("redis-server is needed: apt-get install redis-server")
    with tempfile.TemporaryDirectory(prefix="pegboard-notify-bench-") as folder:
        measure(Path(folder), args)


def measure(folder: Path, args: argparse.Namespace) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    pair = {  # as league.kernel.push.vapid_pair_new makes it (Django is not set up yet)
        "public": base64.urlsafe_b64encode(public).rstrip(b"=").decode(),
        "private": base64.urlsafe_b64encode(key.private_numbers().private_value.to_bytes(32))
        .rstrip(b"=")
        .decode(),
    }
    (folder / "bench_notify_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n"
        f"PEGBOARD_PUSH_TEST_ORIGINS = ['http://127.0.0.1:{PUSH_PORT}', "
        f"'http://127.0.0.1:{SILENT_PORT}']\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}",
        "DJANGO_SETTINGS_MODULE": "bench_notify_settings",
        "DATABASE_URL": args.database_url or f"sqlite:///{folder / 'notify-bench.sqlite3'}",
        "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(SMTP_PORT),
        "PEGBOARD_VAPID_PUBLIC_KEY": pair["public"],
        "PEGBOARD_VAPID_PRIVATE_KEY": pair["private"],
        "PEGBOARD_SIGNIN_LINKS_PER_HOUR": "1000",
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    os.environ.update(env)
    sys.path.insert(0, str(folder))
    processes: list[subprocess.Popen] = []
    try:
        processes.append(
            subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(REDIS_PORT),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(folder),
                ],
                stdout=subprocess.DEVNULL,
            )
        )
        run(folder, args, env, processes)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def run(folder: Path, args: argparse.Namespace, env: dict, processes: list) -> None:
    import django

    django.setup()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from config.celery import app
    from league.kernel.queue import queue_task
    from league.models import (
        Delivery,
        League,
        Match,
        Player,
        PushSubscription,
        Season,
        SeasonState,
        Team,
        Venue,
        Week,
    )
    from league.services.notify import notify_scheduled

    call_command("migrate", verbosity=0)
    sink, pushes, silent = Sink(SMTP_PORT), PushService(PUSH_PORT), Silent(SILENT_PORT)
    players = args.players
    device = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = (
        base64.urlsafe_b64encode(
            device.public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )
        .rstrip(b"=")
        .decode()
    )

    started = time.perf_counter()
    league = League.objects.create(name="Bench League")
    tomorrow = timezone.localdate() + timedelta(days=1)
    season = Season.objects.create(league=league, name="Bench Season", state=SeasonState.PUBLISHED)
    venue = Venue.objects.create(name="The Bench Bar", time_zone="Europe/Paris")
    Week.objects.create(season=season, number=1, date=tomorrow, venue=venue)
    week = Week.objects.get(season=season)
    User = get_user_model()
    User.objects.bulk_create(
        User(username=f"p{i}", email=f"p{i}@example.com") for i in range(players)
    )
    users = list(User.objects.filter(username__startswith="p").order_by("pk"))
    Player.objects.bulk_create(Player(name=f"Player {u.pk}", user=u) for u in users)
    people = list(Player.objects.order_by("pk"))
    Team.objects.bulk_create(
        Team(season=season, name=f"Team {i}", captain=people[2 * i]) for i in range(players // 2)
    )
    teams = list(Team.objects.order_by("pk"))
    Team.players.through.objects.bulk_create(
        Team.players.through(team=team, player=people[2 * i + side])
        for i, team in enumerate(teams)
        for side in (0, 1)
    )
    Match.objects.bulk_create(
        Match(week=week, home=teams[2 * i], away=teams[2 * i + 1], table=i + 1)
        for i in range(len(teams) // 2)
    )
    quiet = round(players * args.silent)
    # Every third player or so has a silent phone, spread through the fan-out, the others one
    # that answers.
    step = players / quiet if quiet else players + 1
    silent_ids = {people[int(n * step)].pk for n in range(quiet)}
    PushSubscription.objects.bulk_create(
        PushSubscription(
            player=p,
            endpoint=(
                f"http://127.0.0.1:{SILENT_PORT}/push/{p.pk}"
                if p.pk in silent_ids
                else f"http://127.0.0.1:{PUSH_PORT}/push/{p.pk}"
            ),
            p256dh=p256dh,
            auth="MDEyMzQ1Njc4OWFiY2RlZg",
        )
        for p in people
    )
    matches = len(teams) // 2
    print(
        f"built {players} players ({quiet} with a silent phone), {matches} matches in "
        f"{time.perf_counter() - started:.1f} s"
    )

    base = ["celery", "-A", "config", "worker", "--pool=solo", "--concurrency=1",
            "--loglevel=WARNING", "--without-gossip", "--without-mingle"]  # fmt: skip
    celery = str(Path(sys.executable).parent / "celery")
    for queue in ("celery", "push"):
        processes.append(
            subprocess.Popen(
                [celery, *base[1:], "-Q", queue, "-n", f"{queue}@bench"],
                env=env,
                cwd=ROOT,
                stdout=open(folder / f"worker-{queue}.log", "w"),  # noqa: SIM115
                stderr=subprocess.STDOUT,
            )
        )
    deadline = time.monotonic() + 60
    while len(app.control.ping(timeout=1) or []) < 2:
        if time.monotonic() > deadline:
            sys.exit("the workers did not start: " + (folder / "worker-celery.log").read_text())
    print("workers up: one for mails and sign-in links (-Q celery), one for pushes (-Q push)")

    started = time.monotonic()
    done = notify_scheduled()
    queued = time.monotonic() - started
    link_base = "http://127.0.0.1:8000/sign-in/link/"
    for i in range(SIGNIN_LINKS):  # players locked out mid fan-out ask for a link
        queue_task(
            "league.tasks.deliver_signin_link", f"p{i * (players // SIGNIN_LINKS)}", link_base
        )
    wanted = players + SIGNIN_LINKS
    while len(sink.arrived) < wanted and time.monotonic() - started < args.wait:
        time.sleep(0.2)
    arrived = list(sink.arrived)
    links = [at for at, subject in arrived if "sign-in link" in subject]
    reminders = [at for at, subject in arrived if "You play on" in subject]
    last = max((at for at, _ in arrived), default=started) - started
    print(
        f"night reminder: {done['night_reminders']} matches; rows written and tasks queued in "
        f"{queued:.1f} s; {len(reminders)} reminder mails and {len(links)} sign-in links "
        f"delivered, the last {last:.1f} s after beat's run"
    )
    if links:
        print(f"sign-in links: the slowest arrived {max(links) - started:.1f} s after the start")
    # The pushes go on beside the mails: wait for them to settle, to say what they cost.
    while (
        Delivery.objects.filter(channel="push", status__in=["pending", "sending"]).exists()
        and time.monotonic() - started < args.wait
    ):
        time.sleep(0.5)
    settled = time.monotonic() - started
    print(
        f"pushes: {pushes.count} taken by the answering service, {silent.connections} "
        f"connections held by the silent one; all settled {settled:.1f} s after the start"
    )
    measured("matches reminded", done["night_reminders"], matches)
    measured("reminder mails", len(reminders), players)
    measured("sign-in links", len(links), SIGNIN_LINKS)
    print(f"target every mail and sign-in link within 60 s: {'met' if last < 60 else 'NOT MET'}")


if __name__ == "__main__":
    main()
