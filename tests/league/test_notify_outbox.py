"""Nothing a player is owed is lost: the messages an event owes are written with the event (an
outbox), sent once the broker is back, and a sender killed in the middle of a fan-out leaves
the rest to the next one, each player told exactly once."""

from __future__ import annotations

import os
import signal
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from celery.app.task import Task
from django.core import mail
from django.db import connection
from kombu.exceptions import OperationalError

from league import notify_events as events
from league.kernel.notify import owe
from league.models import Delivery, DeliveryStatus, Player
from league.services.forfeits import match_forfeit
from league.tasks import notify_retry_failed
from tests import factories

ROOT = Path(__file__).resolve().parents[2]


def _with_emails(*teams):
    for team in teams:
        for player in team.players.all():
            player.user.email = f"{player.user.username}@example.com"
            player.user.save()


def test_a_forfeit_recorded_while_the_broker_is_down_reaches_its_players_once_it_is_back(
    match, home_team, away_team, league_admin, django_capture_on_commit_callbacks
):
    from config.celery import app

    _with_emails(home_team, away_team)
    refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    app.conf.task_always_eager = False
    try:
        with (
            mock.patch.object(Task, "apply_async", side_effect=refused),
            django_capture_on_commit_callbacks(execute=True),
        ):
            match_forfeit(match=match, team=away_team, reason="No show", user=league_admin)
    finally:
        app.conf.task_always_eager = True
    assert mail.outbox == []  # nothing went: the broker refused every task
    owed = Delivery.objects.filter(event="forfeit_recorded", channel="email")
    assert sorted(owed.values_list("player__name", "status")) == [
        ("Ann", "pending"), ("Bob", "pending"), ("Cat", "pending"), ("Dan", "pending"),
    ]  # fmt: skip
    # The broker is back: beat's sweep sends what is owed, once.
    assert notify_retry_failed() == 4
    assert notify_retry_failed() == 0
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ann@example.com", "bob@example.com", "cat@example.com", "dan@example.com",
    ]  # fmt: skip
    assert all("Forfeit" in m.subject for m in mail.outbox)
    assert set(owed.values_list("status", flat=True)) == {"sent"}


def test_a_sweep_sends_nothing_twice_while_a_dispatch_sends_the_same_event(
    match, home_team, away_team, league_admin, django_capture_on_commit_callbacks
):
    _with_emails(home_team, away_team)
    with django_capture_on_commit_callbacks(execute=True):
        match_forfeit(match=match, team=away_team, reason="No show", user=league_admin)
    assert len(mail.outbox) == 4
    assert notify_retry_failed() == 0
    assert len(mail.outbox) == 4


# --- A sender killed in the middle ---------------------------------------------------------------


class SmtpSink:
    """A mail server on 127.0.0.1 that accepts ``hold_after`` messages, then takes the next
    one's data and never answers it (the sender hangs there, to be killed). ``accepted`` holds
    the recipients of every message it said 250 to."""

    def __init__(self, *, hold_after: int | None = None) -> None:
        self.accepted: list[str] = []
        self.hold_after = hold_after
        self.holding = threading.Event()
        self.release = threading.Event()
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")
                self.wfile.flush()

            def handle(self) -> None:
                self.reply("220 sink")
                rcpt: list[str] = []
                while line := self.rfile.readline():
                    verb = line.decode(errors="replace").strip().split(" ")[0].upper()
                    if verb in {"EHLO", "HELO"}:
                        self.reply("250 sink")
                    elif verb == "RCPT":
                        rcpt.append(line.decode().split(":", 1)[1].strip().strip("<>"))
                        self.reply("250 ok")
                    elif verb == "DATA":
                        self.reply("354 go on")
                        while self.rfile.readline() not in {b".\r\n", b".\n", b""}:
                            pass
                        if sink.hold_after is not None and len(sink.accepted) >= sink.hold_after:
                            sink.holding.set()
                            sink.release.wait(60)  # never answered: the sender is killed
                            return
                        sink.accepted.extend(rcpt)
                        rcpt = []
                        self.reply("250 queued")
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:  # MAIL, RSET, NOOP
                        rcpt = [] if verb in {"MAIL", "RSET"} else rcpt
                        self.reply("250 ok")

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _sender(port: int, *, lease: int = 300) -> subprocess.Popen:
    """Beat's sweep in a process of its own, mailing through the sink at ``port``."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "PEGBOARD_NOTIFY_LEASE": str(lease),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("REDIS_URL", None)  # the sweep runs in the process; no broker needed
    code = "import django; django.setup(); from league.kernel.notify import dispatch; dispatch()"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow  # a sender process started and killed for real (make test-slow, CI)
def test_a_sender_killed_after_six_of_sixteen_mails_leaves_every_player_told_exactly_once():
    players = [
        factories.PlayerFactory(name=f"Player {n}", user__email=f"p{n}@example.com")
        for n in range(16)
    ]
    context = {"league": "Thursday Doubles", "season": "Fall 2026", "text": "Bring a pencil."}
    owe(event=events.ANNOUNCEMENT.code, recipients=[p.pk for p in players], context=context,
        key="announcement:kill")  # fmt: skip
    sink = SmtpSink(hold_after=6)
    try:
        sender = _sender(sink.port)
        assert sink.holding.wait(60), "the sender never reached its seventh mail"
        sender.send_signal(signal.SIGKILL)  # really killed, in the middle of the fan-out
        sender.wait(10)
        rows = Delivery.objects.filter(event="announcement")
        assert rows.filter(status=DeliveryStatus.SENT).count() == 6  # written as each went
        assert rows.filter(status=DeliveryStatus.SENDING).count() == 10
        assert len(sink.accepted) == 6
        sink.hold_after = None

        # Another sender at once: the dead one's claim still holds, so nothing goes twice.
        assert _sender(sink.port).wait(60) == 0
        assert len(sink.accepted) == 6

        # Once the lease is over, the rows the dead sender claimed are sent by the next one
        # (which hands back what it could not send within its own lease: run it again then).
        time.sleep(4.1)
        for _ in range(5):
            assert _sender(sink.port, lease=4).wait(60) == 0
            if len(sink.accepted) == 16:
                break
    finally:
        sink.close()
    assert sorted(sink.accepted) == sorted(f"p{n}@example.com" for n in range(16))
    assert set(rows.values_list("status", flat=True)) == {"sent"}
    assert not Player.objects.filter(deliveries__status="sending").exists()


def _worker(queue: str, port: int, *, lease: int = 300) -> subprocess.Popen:
    """A real Celery worker of its own queue, on the broker the suite uses, mailing through
    the sink at ``port``."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "PEGBOARD_NOTIFY_LEASE": str(lease),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("PYTEST_XDIST_WORKER", None)
    command = [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker",
               "--pool=solo", "--concurrency=1", "--without-gossip", "--without-mingle",
               "--loglevel=WARNING", "-Q", queue, "-n", f"{queue}@%h"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=env)


@pytest.mark.redis
@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL: a real broker and worker"
)
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_fan_out_leaves_every_player_mailed_exactly_once_by_the_next():
    from celery import current_app

    players = [
        factories.PlayerFactory(name=f"Player {n}", user__email=f"p{n}@example.com")
        for n in range(16)
    ]
    context = {"league": "Thursday Doubles", "season": "Fall 2026", "text": "Bring a pencil."}
    owe(event=events.ANNOUNCEMENT.code, recipients=[p.pk for p in players], context=context,
        key="announcement:worker")  # fmt: skip
    queue = f"killtest-{os.getpid()}"
    sink = SmtpSink(hold_after=6)
    workers: list[subprocess.Popen] = []
    try:
        workers.append(_worker(queue, sink.port))
        current_app.send_task(
            "league.tasks.notify_dispatch", args=["announcement", "announcement:worker"],
            queue=queue,
        )  # fmt: skip
        assert sink.holding.wait(90), "the worker never reached its seventh mail"
        workers[0].send_signal(signal.SIGKILL)  # the worker itself, in the middle of the task
        workers[0].wait(10)
        rows = Delivery.objects.filter(event="announcement")
        assert rows.filter(status=DeliveryStatus.SENT).count() == 6
        assert rows.filter(status=DeliveryStatus.SENDING).count() == 10
        sink.hold_after = None
        time.sleep(4.1)
        # A new worker; beat's sweep reaches it once the dead one's lease has run out (and
        # again, as beat would, for what it handed back at the end of its own lease).
        workers.append(_worker(queue, sink.port, lease=4))
        deadline = time.monotonic() + 90
        while len(sink.accepted) < 16 and time.monotonic() < deadline:
            current_app.send_task("league.tasks.notify_retry_failed", queue=queue)
            time.sleep(3)
        current_app.send_task("league.tasks.notify_retry_failed", queue=queue)  # again: nothing
        time.sleep(2)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
                worker.wait(20)
        sink.close()
    assert sorted(sink.accepted) == sorted(f"p{n}@example.com" for n in range(16))
    assert set(rows.values_list("status", flat=True)) == {"sent"}


def test_a_slow_mail_server_never_lets_the_lease_run_out_under_a_sender(db, settings, monkeypatch):
    """Past most of its lease a sender hands the rest of its chunk back, so no second sender
    ever mails what the first is still sending."""
    from django.core.mail.backends.locmem import EmailBackend

    settings.PEGBOARD_NOTIFY_LEASE = 3  # a sender mails for 2.4 s, at most three of these
    real = EmailBackend.send_messages

    def slow(self, messages):
        time.sleep(1.0)
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", slow)
    players = [
        factories.PlayerFactory(name=f"Player {n}", user__email=f"p{n}@example.com")
        for n in range(4)
    ]
    context = {"league": "Thursday Doubles", "season": "Fall 2026", "text": "Bring a pencil."}
    owe(event="announcement", recipients=[p.pk for p in players], context=context, key="slow")
    from league.kernel.notify import dispatch

    first = dispatch(event="announcement", key="slow")["sent"]
    assert 1 <= first < 4  # the rest went back, waiting
    assert Delivery.objects.filter(status="pending").count() == 4 - first
    while Delivery.objects.filter(status="pending").exists():
        dispatch(event="announcement", key="slow")
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{n}@example.com" for n in range(4)]
