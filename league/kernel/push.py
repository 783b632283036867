"""Web Push (RFC 8030, 8291, 8292) for the notification service: the VAPID pair, the payload a
notification carries, and sending one to each of a player's devices with ``pywebpush``.

A push service's 404 or 410 means the browser dropped the subscription: it is deleted. Any
other failure leaves it, and the delivery is retried.

A push endpoint is an address a player typed, in effect, so the worker never posts to one that
is not a push service's: https only, no user or password in it, and every address its host
resolves to a public one (checked when the device subscribes and again before each send); a
redirect is never followed. A local stand-in is allowed only for the origins listed in
``PEGBOARD_PUSH_TEST_ORIGINS``, a setting tests set and the environment cannot.

No player can hold up the others: a push is given ``CONNECT_TIMEOUT`` and ``READ_TIMEOUT``,
and a player's devices share ``PEGBOARD_PUSH_BUDGET`` seconds per notification; a device past
it is left for the next notification."""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import socket
import threading
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from league.models import PushSubscription

log = logging.getLogger(__name__)

PUSH_TTL = 12 * 3600  # seconds a push service keeps a message for a phone that is off
GONE = {404, 410}
CONNECT_TIMEOUT = 1.0  # seconds: a push service answers in well under a second
READ_TIMEOUT = 2.0


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}".lower()


def endpoint_allowed(endpoint: str) -> bool:
    """Whether the worker may post to ``endpoint``: https, no credentials, and a host whose
    every address is public (resolved now). A test's stand-in passes only when its origin is in
    ``PEGBOARD_PUSH_TEST_ORIGINS``."""
    if not isinstance(endpoint, str):
        return False
    if _origin(endpoint) in {o.lower() for o in settings.PEGBOARD_PUSH_TEST_ORIGINS}:
        return True
    try:
        parts = urlsplit(endpoint)
        port = parts.port or 443
    except ValueError:
        return False
    if parts.scheme != "https" or not parts.hostname or "@" in parts.netloc:
        return False
    try:
        found = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        return False
    addresses = {str(info[4][0]).split("%")[0] for info in found}
    try:
        return bool(addresses) and all(ipaddress.ip_address(a).is_global for a in addresses)
    except ValueError:
        return False


class EndpointRefused(Exception):
    """The endpoint is not a public push service's address (now): nothing was sent to it."""


class _NoRedirects(requests.Session):
    """A session that never follows a redirect: a push service answers, it never sends us on."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_pair_new() -> dict[str, str]:
    """A new VAPID pair: the private key's 32 bytes and the public key's uncompressed point,
    base64url (the public one is the browser's ``applicationServerKey``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {
        "public": _b64(public),
        "private": _b64(key.private_numbers().private_value.to_bytes(32)),
    }


def vapid_pair() -> dict[str, str] | None:
    """The configured pair: the environment's, else the demo's file, else None (no push)."""
    if settings.PEGBOARD_VAPID_PRIVATE_KEY and settings.PEGBOARD_VAPID_PUBLIC_KEY:
        return {
            "public": settings.PEGBOARD_VAPID_PUBLIC_KEY,
            "private": settings.PEGBOARD_VAPID_PRIVATE_KEY,
        }
    path = settings.PEGBOARD_VAPID_FILE
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("public") and data.get("private"):
        return {"public": str(data["public"]), "private": str(data["private"])}
    return None


@cache
def _vapid(private: str) -> Vapid02:
    return Vapid02.from_string(private)


class Pusher:
    """Sends to the devices of many players; one HTTP session per thread that sends."""

    def __init__(self) -> None:
        pair = vapid_pair()
        self.vapid = _vapid(pair["private"]) if pair else None
        self._sessions = threading.local()
        self._all: list[requests.Session] = []
        self.gone: list[int] = []

    @property
    def session(self) -> requests.Session:
        session = getattr(self._sessions, "session", None)
        if session is None:
            session = self._sessions.session = _NoRedirects()
            self._all.append(session)
        return session

    def send(
        self, subscription: PushSubscription, payload: dict[str, Any], *, within: float = 3.0
    ) -> None:
        """Send ``payload`` to one device in at most about ``within`` seconds; raises on a
        failure worth retrying (``EndpointRefused`` for an address that is not public now)."""
        assert self.vapid is not None
        if not endpoint_allowed(subscription.endpoint):
            raise EndpointRefused(subscription.endpoint[:60])
        timeout = (min(CONNECT_TIMEOUT, within), min(READ_TIMEOUT, within))
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=json.dumps(payload),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": settings.PEGBOARD_VAPID_SUBJECT},
                ttl=PUSH_TTL,
                timeout=timeout,
                requests_session=self.session,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                self.gone.append(subscription.pk)
                return
            raise

    def close(self) -> None:
        if self.gone:
            PushSubscription.objects.filter(pk__in=self.gone).delete()
        for session in self._all:
            session.close()


def vapid_pair_for_demo() -> bool:
    """Write a VAPID pair to ``PEGBOARD_VAPID_FILE`` when none is configured (the demo's, so
    push works on its own address). Returns whether it wrote one."""
    if vapid_pair() is not None:
        return False
    path = settings.PEGBOARD_VAPID_FILE
    path.write_text(json.dumps(vapid_pair_new()))
    path.chmod(0o600)
    return True
