"""A Redis that accepts connections and never answers (a hung server, a full network buffer, a
half-open connection) must not hold up a captain: every write answers within a second and the
pages still render. A real listener stands in for that Redis: it accepts and never replies.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.test import Client, override_settings
from rest_framework.test import APIClient

from config.settings import redis_cache
from league.models import Deal, Dispute
from tests.factories import play_until_over

QUICK = 1.0  # seconds a write may take with Redis silent


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """``redis://`` of a listener that accepts every connection and never sends a byte."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)  # kept open, never answered

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join(1)
    for conn in held:
        conn.close()
    server.close()


@pytest.fixture
def silent_cache_and_broker(silent_redis):
    """The cache and the Celery broker, configured as in production, pointed at the silent
    listener; tasks are sent to the broker (not run in-process)."""
    from config.celery import app

    before = (app.conf.task_always_eager, app.conf.broker_url)
    with override_settings(CACHES=redis_cache(silent_redis)):
        app.conf.task_always_eager = False
        app.conf.broker_url = silent_redis
        app.conf.broker_transport_options = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS
        app._pool = None  # connect anew, to the silent broker
        app.amqp._producer_pool = None
        try:
            yield
        finally:
            app.conf.task_always_eager, app.conf.broker_url = before
            app._pool = None
            app.amqp._producer_pool = None


def _timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def _deal(number: int, dealer: int) -> dict:
    return {
        "key": str(uuid.uuid4()),
        "number": number,
        "dealer": dealer,
        "starter": "5H",
        "pegging": [2, 3],
        "shows": {"1": 6, "2": 8, "3": 4, "0": 12},
        "crib": 5,
    }


def test_the_settings_time_out_every_redis_socket():
    options = redis_cache("redis://127.0.0.1:6379/0")["default"]["OPTIONS"]
    assert 0 < options["socket_timeout"] <= 0.5
    assert 0 < options["socket_connect_timeout"] <= 0.5
    broker = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert 0 < broker["socket_timeout"] <= 1 and 0 < broker["socket_connect_timeout"] <= 1
    assert 0 < django_settings.CELERY_REDIS_SOCKET_TIMEOUT <= 1
    assert django_settings.PEGBOARD_ENQUEUE_WAIT <= 0.3


@pytest.mark.django_db(transaction=True)
def test_a_deal_confirm_and_dispute_answer_quickly_with_redis_silent(
    silent_cache_and_broker, game, ann, cat
):
    from league.services.games import game_start

    home, away = APIClient(), APIClient()
    home.force_authenticate(ann)
    away.force_authenticate(cat)

    deals, took = _timed(lambda: play_until_over(game, ann))
    assert took / deals < QUICK, f"a deal took {took / deals:.2f} s with Redis silent"
    confirmed, took = _timed(lambda: away.post(f"/api/games/{game.pk}/confirm/"))
    assert confirmed.status_code == 200, confirmed.content
    assert took < QUICK, f"confirming took {took:.2f} s with Redis silent"

    second = game_start(
        match=game.match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"], first_dealer=0
    )
    created, took = _timed(lambda: home.post(f"/api/games/{second.pk}/deals/", _deal(1, 0), "json"))
    assert created.status_code == 201, created.content
    assert took < QUICK, f"a deal sent by the app took {took:.2f} s with Redis silent"
    disputed, took = _timed(
        lambda: away.post(
            f"/api/games/{second.pk}/disputes/",
            {"claim": "Deal 1 was 29.", "deal_number": 1},
            "json",
        )
    )
    assert disputed.status_code == 201, disputed.content
    assert took < QUICK, f"a dispute took {took:.2f} s with Redis silent"

    assert Dispute.objects.filter(game=second).count() == 1
    assert Deal.objects.filter(game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_pages_render_quickly_with_redis_silent(silent_cache_and_broker, played_season):
    visitor = Client()
    for url in ["/", f"/seasons/{played_season.pk}/standings/", "/healthz"]:
        page, took = _timed(lambda url=url: visitor.get(url))
        assert page.status_code == 200, url
        assert took < 2 * QUICK, f"{url} took {took:.2f} s with Redis silent"
    assert b"Fifteen Two" in visitor.get(f"/seasons/{played_season.pk}/standings/").content
