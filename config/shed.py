"""Polite load shedding: a score entry (a write to the API) that waited in the queue longer than
its phone will wait for an answer is answered at once with 503 and ``Retry-After`` instead of
being worked on.

nginx stamps each request with when it arrived (``X-Request-Start: t=<seconds>``, its
``$msec``: deploy/nginx.conf). On a floor so slow that requests queue in front of the workers,
the oldest ones are those their phones have given up on (the outbox waits 20 s for an answer,
static/js/outbox.js): working on them only makes the queue longer, and every phone's retry
waits behind them. Shed, they cost a worker a fraction of a millisecond, the phone keeps the
card and sends it again after the wait it is told (with its own back-off and jitter), and the
card's key stores it once whatever happened to an earlier send. Reads and pages are never
shed (nginx's micro-cache answers most of them), nor a request without the stamp (no nginx in
front: the test server, ``runserver``).

``SHED_QUEUED_SECONDS`` (10; 0 turns it off) and ``SHED_RETRY_AFTER`` (5 s) are settings."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def queued_seconds(request: HttpRequest, now: float | None = None) -> float | None:
    """How long the request waited since nginx received it (None: no stamp, or a bad one)."""
    raw = request.META.get("HTTP_X_REQUEST_START", "")
    if not raw:
        return None
    try:
        started = float(raw.removeprefix("t="))
    except ValueError:
        return None
    return (time.time() if now is None else now) - started


class ShedStaleWritesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = float(getattr(settings, "SHED_QUEUED_SECONDS", 10))
        if limit > 0 and request.method in WRITES and request.path.startswith("/api/"):
            waited = queued_seconds(request)
            if waited is not None and waited > limit:
                return shed()
        return self.get_response(request)


def shed() -> HttpResponse:
    retry_after = int(getattr(settings, "SHED_RETRY_AFTER", 5))
    body = {
        "detail": _(
            "The server is too busy to take this now: nothing was stored. Your phone keeps it "
            "and sends it again by itself."
        ),
        "code": "busy",
    }
    response = HttpResponse(
        json.dumps(body), status=503, content_type="application/json; charset=utf-8"
    )
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response
