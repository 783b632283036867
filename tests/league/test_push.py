"""Web Push with no outside network: a local HTTP server stands in for the push service. It
receives the encrypted request pywebpush sends and decrypts it with the subscription's private
key to the payload the service worker will show; a 410 from it deletes the subscription."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.urls import reverse

from league.kernel.push import vapid_pair_new
from league.models import Delivery, Player, PushSubscription
from league.services.notify import push_subscribe
from league.tasks import notify_send


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """The stand-in: records each request; answers ``status`` (201 unless told otherwise)."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"0123456789abcdef"
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.json = {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


@pytest.fixture
def push_service(settings):
    pair = vapid_pair_new()
    settings.PEGBOARD_VAPID_PUBLIC_KEY = pair["public"]
    settings.PEGBOARD_VAPID_PRIVATE_KEY = pair["private"]
    service = PushService()
    settings.PEGBOARD_PUSH_TEST_ORIGINS = [service.url]  # the stand-in, allowed by name
    yield service
    service.close()


@pytest.fixture
def bobs_phone(push_service, home_team):
    bob = Player.objects.get(name="Bob")
    phone = Device(push_service.url + "/push/bob-phone")
    push_subscribe(user=bob.user, data=phone.json, user_agent="Bob's phone")
    return phone


def _send(match, key="match:1"):
    players = [p.pk for t in match.teams() for p in t.players.all()]
    context = {"league": "Thursday Doubles", "team": "Fifteen Two", "opponent": "Nobs",
               "date": "2026-12-10", "venue": "The Crooked Peg", "table": 3,
               "match_id": match.pk, "starts": "19:00"}  # fmt: skip
    return notify_send("night_reminder", players, context, key)


def test_the_push_service_gets_an_encrypted_message_the_phone_decrypts(
    push_service, bobs_phone, match
):
    _send(match)
    [request] = push_service.received
    assert request["path"] == "/push/bob-phone"
    assert request["headers"]["content-encoding"] == "aes128gcm"
    assert request["headers"]["authorization"].startswith("vapid t=")
    assert b"Fifteen Two" not in request["body"]  # encrypted on the way
    payload = bobs_phone.read(request["body"])
    assert payload["title"].startswith("[Thursday Doubles] You play on")
    assert payload["url"] == f"/matches/{match.pk}/"
    assert "table 3" in payload["body"]
    delivery = Delivery.objects.get(channel="push")
    assert (delivery.player.name, delivery.status) == ("Bob", "sent")
    _send(match)  # sent again: nothing twice
    assert len(push_service.received) == 1


def test_a_410_from_the_push_service_deletes_the_subscription(push_service, bobs_phone, match):
    push_service.status = 410
    _send(match)
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.exists()
    assert Delivery.objects.get(channel="push").status == "skipped"


def test_a_player_who_turned_push_off_for_reminders_gets_none(push_service, bobs_phone, match):
    from league.services.notify import notify_choices_set

    bob = Player.objects.get(name="Bob")
    notify_choices_set(user=bob.user, player=bob, off=[("reminders", "push")], language="en")
    _send(match)
    assert push_service.received == []
    assert Delivery.objects.get(channel="push").reason == "turned off by the player"


def test_a_device_subscribes_through_the_page_endpoint_and_can_unsubscribe(
    push_service, home_team, client
):
    bob = Player.objects.get(name="Bob")
    phone = Device(push_service.url + "/push/x")
    url = reverse("league:push_subscription")
    assert (
        client.post(url, {"subscription": phone.json}, content_type="application/json").status_code
        == 403
    )
    client.force_login(bob.user)
    response = client.post(url, {"subscription": phone.json}, content_type="application/json")
    assert response.status_code == 201
    assert PushSubscription.objects.get().player == bob
    bad = {**phone.json, "endpoint": "http://evil.example/push"}
    assert (
        client.post(url, {"subscription": bad}, content_type="application/json").status_code == 400
    )
    client.post(url, {"unsubscribe": phone.json["endpoint"]}, content_type="application/json")
    assert not PushSubscription.objects.exists()
    mail.outbox.clear()


def test_the_players_page_offers_push_with_the_sites_key_and_the_iphone_note(
    push_service, home_team, client, settings
):
    client.force_login(Player.objects.get(name="Bob").user)
    page = client.get(reverse("league:notify_choices")).content.decode()
    assert f'data-push-key="{settings.PEGBOARD_VAPID_PUBLIC_KEY}"' in page
    assert "Add to Home Screen" in page


def test_the_service_worker_shows_a_push_and_opens_its_page(client):
    worker = client.get("/sw.js").content.decode()
    assert 'addEventListener("push"' in worker and "showNotification" in worker
    assert 'addEventListener("notificationclick"' in worker and "openWindow" in worker
