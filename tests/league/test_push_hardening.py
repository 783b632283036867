"""One player's phones cannot stall the site's messages nor make the worker post anywhere: a
few devices per player, a short budget per notification, pushes after the mails on their own
queue, public https push services only, and nobody's phone moved to another player silently."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from league.kernel import notify as kernel
from league.kernel.push import endpoint_allowed, vapid_pair_new
from league.models import Delivery, Player, PushSubscription
from league.services.notify import push_subscribe

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"


def _json(endpoint: str) -> dict:
    return {"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": "MDEyMzQ1Njc4OWFiY2RlZg"}}


class StandIn:
    """A push service on 127.0.0.1: answers ``status`` (with ``location``), or accepts the
    connection and never answers (``silent``). Counts the connections it accepted."""

    def __init__(self, *, status: int = 201, location: str = "", silent: bool = False) -> None:
        self.posts: list[str] = []
        self.connections = 0
        stand_in = self
        if silent:
            self.sock = socket.socket()
            self.sock.bind(("127.0.0.1", 0))
            self.sock.listen(64)
            self.held: list[socket.socket] = []

            def accept() -> None:
                while True:
                    try:
                        conn, _addr = self.sock.accept()
                    except OSError:
                        return
                    stand_in.connections += 1
                    self.held.append(conn)  # never read, never answered

            threading.Thread(target=accept, daemon=True).start()
            self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
            self.server = None
            return

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                stand_in.posts.append(self.path)
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        else:
            self.sock.close()
            for conn in self.held:
                conn.close()


@pytest.fixture
def vapid(settings):
    pair = vapid_pair_new()
    settings.PEGBOARD_VAPID_PUBLIC_KEY = pair["public"]
    settings.PEGBOARD_VAPID_PRIVATE_KEY = pair["private"]


@pytest.fixture
def stand_ins(settings, vapid):
    made: list[StandIn] = []

    def make(**kwargs) -> StandIn:
        made.append(StandIn(**kwargs))
        settings.PEGBOARD_PUSH_TEST_ORIGINS = [s.url for s in made]
        return made[-1]

    yield make
    for stand_in in made:
        stand_in.close()


def _announce(players, key="announcement:1"):
    context = {"league": "Thursday Doubles", "season": "Fall 2026", "text": "Bring a pencil."}
    kernel.owe(event="announcement", recipients=[p.pk for p in players], context=context, key=key)


# --- H1: a few devices, a short budget, after the mails -------------------------------------------


def test_a_sixth_phone_pushes_out_the_oldest_of_a_players_five(home_team, stand_ins):
    service = stand_ins()
    bob = Player.objects.get(name="Bob")
    for n in range(6):
        push_subscribe(
            user=bob.user, data=_json(f"{service.url}/push/{n}"), user_agent=f"phone {n}"
        )
    kept = sorted(bob.push_subscriptions.values_list("user_agent", flat=True))
    assert kept == ["phone 1", "phone 2", "phone 3", "phone 4", "phone 5"]


def test_phones_that_never_answer_cost_a_player_one_short_budget_not_ten_seconds_each(
    home_team, stand_ins, settings
):
    settings.PEGBOARD_PUSH_BUDGET = 1.0
    silent = stand_ins(silent=True)
    bob = Player.objects.get(name="Bob")
    for n in range(5):
        push_subscribe(user=bob.user, data=_json(f"{silent.url}/push/{n}"), user_agent=f"p{n}")
    _announce([bob])
    kernel.dispatch_pushes()
    # The budget ran out on the first silent phone: the other four were not even tried.
    assert silent.connections == 1
    row = Delivery.objects.get(channel="push")
    assert row.status == "failed" and "Timeout" in row.reason


def test_the_mail_task_sends_every_mail_and_leaves_the_pushes_to_their_own_queue(
    home_team, away_team, stand_ins
):
    from config.celery import app

    service = stand_ins()
    for player in Player.objects.all():
        player.user.email = f"{player.name.lower()}@example.com"
        player.user.save()
    bob = Player.objects.get(name="Bob")
    push_subscribe(user=bob.user, data=_json(f"{service.url}/push/bob"), user_agent="Bob's")
    _announce(Player.objects.all())
    queued = []
    with mock.patch.object(kernel, "queue_task", lambda name, *a: queued.append((name, a))):
        kernel.dispatch(event="announcement", key="announcement:1")
    assert len(mail.outbox) == 4 and service.posts == []  # mails went; no push from this task
    assert queued == [(kernel.PUSH_TASK, ("announcement", "announcement:1"))]
    route = app.amqp.router.route({}, kernel.PUSH_TASK)
    assert route["queue"].name == "push"  # its own queue
    assert {q.name for q in app.conf.task_queues} == {"celery", "push"}  # a plain worker: both
    kernel.dispatch_pushes()
    assert service.posts == ["/push/bob"]


def test_a_player_sees_and_removes_their_phones_and_nobody_elses(home_team, away_team, client,
                                                                 stand_ins):  # fmt: skip
    service = stand_ins()
    bob, cat = Player.objects.get(name="Bob"), Player.objects.get(name="Cat")
    pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0 Mobile Safari/537.36"
    iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1"
    push_subscribe(user=bob.user, data=_json(f"{service.url}/push/b"), user_agent=pixel)
    cats = push_subscribe(user=cat.user, data=_json(f"{service.url}/push/c"), user_agent=iphone)
    client.force_login(bob.user)
    page = client.get(reverse("league:notify_choices")).content.decode()
    assert "Android phone, Chrome" in page and "iPhone, Safari" not in page
    client.post(reverse("league:push_device_remove", args=[cats.pk]))
    assert PushSubscription.objects.filter(pk=cats.pk).exists()  # not Bob's to remove
    bobs = bob.push_subscriptions.get()
    client.post(reverse("league:push_device_remove", args=[bobs.pk]))
    assert not bob.push_subscriptions.exists()


def test_a_league_admin_lists_and_deletes_any_players_phone_in_the_admin(
    home_team, league_admin, client, stand_ins
):
    service = stand_ins()
    bob = Player.objects.get(name="Bob")
    device = push_subscribe(
        user=bob.user, data=_json(f"{service.url}/x"), user_agent="Mozilla/5.0 (Android 14)"
    )
    league_admin.is_staff = True  # the admin's door
    league_admin.save()
    client.force_login(league_admin)
    listing = client.get(reverse("admin:league_pushsubscription_changelist"))
    assert listing.status_code == 200 and "Android phone" in listing.content.decode()
    client.post(reverse("admin:league_pushsubscription_delete", args=[device.pk]), {"post": "yes"})
    assert not PushSubscription.objects.exists()


# --- M1: public https push services only ----------------------------------------------------------


def _resolving(table):
    real = socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        if host in table:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (table[host], port))]
        return real(host, port, *args, **kwargs)

    return mock.patch("socket.getaddrinfo", fake)


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://127.0.0.1:8000/push/x",
        "http://localhost:6379/x",
        "https://localhost:6379/x",
        "https://127.0.0.1/x",
        "https://10.0.0.5/push",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/x",
        "https://user@push.example/x",
        "https://rebound.example/x",  # a public name that resolves to a private address
        "http://push.example/x",  # not https
        "ftp://push.example/x",
    ],
)
def test_an_endpoint_that_is_not_a_public_https_push_service_is_refused(endpoint, home_team):
    from league.kernel.errors import ValidationFailed

    bob = Player.objects.get(name="Bob")
    with _resolving({"push.example": "93.184.216.34", "rebound.example": "192.168.1.10"}):
        assert not endpoint_allowed(endpoint)
        with pytest.raises(ValidationFailed):
            push_subscribe(user=bob.user, data=_json(endpoint))
        assert endpoint_allowed("https://push.example/wpush/v2/abc")


def test_a_local_stand_in_is_refused_unless_a_test_names_it(home_team, settings, vapid):
    settings.PEGBOARD_PUSH_TEST_ORIGINS = []
    assert not endpoint_allowed("http://127.0.0.1:9/push")
    settings.PEGBOARD_PUSH_TEST_ORIGINS = ["http://127.0.0.1:9"]
    assert endpoint_allowed("http://127.0.0.1:9/push")
    assert not endpoint_allowed("http://127.0.0.1:10/push")
    from config import settings as production

    assert production.PEGBOARD_PUSH_TEST_ORIGINS == []


def test_a_push_service_that_redirects_is_not_followed(home_team, stand_ins):
    inner = stand_ins()
    outer = stand_ins(status=307, location=f"{inner.url}/internal")
    bob = Player.objects.get(name="Bob")
    push_subscribe(user=bob.user, data=_json(f"{outer.url}/push/bob"))
    _announce([bob])
    kernel.dispatch_pushes()
    assert outer.posts == ["/push/bob"] and inner.posts == []
    assert Delivery.objects.get(channel="push").status == "failed"


def test_an_address_that_stopped_being_allowed_is_not_posted_to(home_team, stand_ins, settings):
    service = stand_ins()
    bob = Player.objects.get(name="Bob")
    push_subscribe(user=bob.user, data=_json(f"{service.url}/push/bob"))
    settings.PEGBOARD_PUSH_TEST_ORIGINS = []  # as a name that now resolves to this machine
    _announce([bob])
    kernel.dispatch_pushes()
    assert service.posts == []
    assert "EndpointRefused" in Delivery.objects.get(channel="push").reason


# --- L2: nobody's phone moves silently ------------------------------------------------------------


def test_posting_another_players_endpoint_is_refused_and_theirs_stays(home_team, client,
                                                                     stand_ins):  # fmt: skip
    service = stand_ins()
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    push_subscribe(user=bob.user, data=_json(f"{service.url}/push/bob"))
    client.force_login(ann.user)
    response = client.post(
        reverse("league:push_subscription"),
        {"subscription": _json(f"{service.url}/push/bob")},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert "another player" in response.json()["detail"]
    assert PushSubscription.objects.get().player == bob
