"""The night reminder for 1,000 players, by one worker: every mail (to Django's locmem backend)
and every Web Push (to a local stand-in for the push service, each message encrypted for its
device and signed with VAPID) built and sent by one process.

    python bench/notify.py                 # 1,000 players (500 teams, 250 matches)
    python bench/notify.py --players 200

Not a test: it measures and prints. Target: under 60 s for 1,000 players. The query
count of building the reminders is pinned by
tests/league/test_notify.py::test_building_the_night_reminders_takes_the_same_queries_...;
here the whole run's queries are printed beside its time. A throwaway SQLite file, built with
bulk inserts (not the services), and tasks in-process (the embedded default).
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
import tempfile
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class StandIn:
    """A push service that takes every message (201) and counts them."""

    def __init__(self) -> None:
        self.count = 0
        lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    stand_in.count += 1
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pegboard-notify-bench-") as folder:
        try:
            measure(Path(folder), args.players - args.players % 4)
        finally:
            if "django.db" in sys.modules:
                from django.db import connections

                connections.close_all()


def measure(folder: Path, players: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'notify-bench.sqlite3'}"
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings

    from league.kernel.push import vapid_pair_new

    pair = vapid_pair_new()
    settings.PEGBOARD_VAPID_PUBLIC_KEY = pair["public"]
    settings.PEGBOARD_VAPID_PRIVATE_KEY = pair["private"]
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.contrib.auth import get_user_model
    from django.core import mail
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from config.celery import app
    from league.models import League, Match, Player, PushSubscription, Season, Team, Venue, Week
    from league.services.notify import notify_scheduled

    app.conf.task_always_eager = True
    mail.outbox = []
    call_command("migrate", verbosity=0)
    stand_in = StandIn()
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
    season = Season.objects.create(league=league, name="Bench Season")
    venue = Venue.objects.create(name="The Bench Bar", time_zone="Europe/Paris")
    week = Week.objects.create(
        season=season, number=1, date=timezone.localdate() + timedelta(days=1), venue=venue
    )
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
    PushSubscription.objects.bulk_create(
        PushSubscription(
            player=p,
            endpoint=f"{stand_in.url}/push/{p.pk}",
            p256dh=p256dh,
            auth="MDEyMzQ1Njc4OWFiY2RlZg",
        )
        for p in people
    )
    built = time.perf_counter() - started
    print(f"built {players} players, {len(teams) // 2} matches in {built:.1f} s")

    started = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        done = notify_scheduled()
    took = time.perf_counter() - started
    print(
        f"night reminder: {done['night_reminders']} matches, {len(mail.outbox)} mails, "
        f"{stand_in.count} pushes in {took:.1f} s ({len(queries)} queries); target < 60 s: "
        f"{'met' if took < 60 else 'NOT MET'}"
    )
    started = time.perf_counter()
    notify_scheduled()
    print(
        f"run again (beat a quarter hour later): {len(mail.outbox)} mails, {stand_in.count} "
        f"pushes in total, {time.perf_counter() - started:.1f} s"
    )
    stand_in.server.shutdown()


if __name__ == "__main__":
    main()
