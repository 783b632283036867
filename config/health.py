"""The health answers before everything else, and the organiser's warning that nothing is sent.

``HealthMiddleware`` comes first in ``MIDDLEWARE``: ``/healthz`` and ``/readyz`` are answered
before the HTTPS redirect (``SECURE_SSL_REDIRECT``) and before the Host is checked against
``ALLOWED_HOSTS``, so a load balancer or ``curl http://127.0.0.1:8000/healthz`` on the host gets
200 or 503, never a 301 or a 400. Nothing else is answered here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from league.kernel.heartbeat import heartbeat_status
from league.views.health import healthz, readyz

PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {"/healthz": healthz, "/readyz": readyz}


class HealthMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info)
        if probe is not None and request.method in ("GET", "HEAD"):
            return probe(request)
        return self.get_response(request)


def sending_stalled(request: HttpRequest) -> dict[str, Any]:
    """Template context: on the organiser's pages, ``sending_stalled`` is the heartbeat when
    beat or the worker has stopped (so reminders and mails are not going out), else absent."""
    if not request.path.startswith("/organise/"):
        return {}
    status = heartbeat_status()
    return {} if status.ok else {"sending_stalled": status}
