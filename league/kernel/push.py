"""Web Push (RFC 8030, 8291, 8292) for the notification service: the VAPID pair, the payload a
notification carries, and sending one to each of a player's devices with ``pywebpush``.

A push service's 404 or 410 means the browser dropped the subscription: it is deleted. Any
other failure leaves it, and the delivery is retried."""

from __future__ import annotations

import base64
import json
import logging
from functools import cache
from typing import Any

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
    """Sends to the devices of many players over one HTTP session."""

    def __init__(self) -> None:
        pair = vapid_pair()
        self.vapid = _vapid(pair["private"]) if pair else None
        self.session = requests.Session()
        self.gone: list[int] = []

    def send(self, subscription: PushSubscription, payload: dict[str, Any]) -> None:
        """Send ``payload`` to one device; raises on a failure worth retrying."""
        assert self.vapid is not None
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
                timeout=10,
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
        self.session.close()


def vapid_pair_for_demo() -> bool:
    """Write a VAPID pair to ``PEGBOARD_VAPID_FILE`` when none is configured (the demo's, so
    push works on its own address). Returns whether it wrote one."""
    if vapid_pair() is not None:
        return False
    path = settings.PEGBOARD_VAPID_FILE
    path.write_text(json.dumps(vapid_pair_new()))
    path.chmod(0o600)
    return True
