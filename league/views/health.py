"""Health for load balancers, supervisors and Prometheus.

- ``/healthz`` (liveness): the process answers and the database answers. Redis is not asked on
  purpose: a Redis outage must not take the web servers out of a load balancer.
- ``/readyz`` (readiness): the database, Redis when one is configured, and the heartbeat of beat
  and a worker (``league.kernel.heartbeat``): 503 with the reasons in JSON when any is missing.
- ``/metrics``: Prometheus's text format (django-prometheus), only with the bearer token of
  ``PEGBOARD_METRICS_TOKEN``; without one set it does not exist (404).

``config.health.HealthMiddleware`` answers the first two before any other middleware, so a probe
over plain HTTP, by the host's address, gets its answer rather than the HTTPS redirect or a
refused Host.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

from league.kernel.heartbeat import heartbeat_status


def _database() -> str | None:
    """None when the database answers, else why not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"the database does not answer ({type(exc).__name__})"
    return None


def _redis() -> str | None:
    """None when Redis answers (or none is configured), else why not."""
    if not settings.REDIS_URL:
        return None
    try:
        cache.set("pegboard:readyz", 1, timeout=30)
        if cache.get("pegboard:readyz") != 1:
            return "Redis does not keep what is written to it"
    except Exception as exc:
        return f"Redis does not answer ({type(exc).__name__})"
    return None


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    if _database():
        return _no_store(JsonResponse({"status": "error", "database": "unreachable"}, status=503))
    return _no_store(JsonResponse({"status": "ok", "database": "ok"}))


def readyz(request: HttpRequest) -> HttpResponse:
    checks: dict[str, str] = {}
    reasons: list[str] = []
    database = _database()
    checks["database"] = "ok" if database is None else "error"
    reasons += [database] if database else []
    redis = _redis()
    checks["redis"] = "not configured" if not settings.REDIS_URL else ("error" if redis else "ok")
    reasons += [redis] if redis else []
    beat = heartbeat_status()
    if beat.in_process:
        checks["worker"] = checks["beat"] = "in-process"
    else:
        for name, age in (("beat", beat.beat_age), ("worker", beat.worker_age)):
            checks[name] = "missing" if age is None else f"{int(age)} s ago"
        reasons += beat.reasons
    body = {"status": "not ready" if reasons else "ok", "checks": checks, "reasons": reasons}
    return _no_store(JsonResponse(body, status=503 if reasons else 200))


def ping(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers (no database, no cache). Also the benchmarks' baseline."""
    return HttpResponse("ok", content_type="text/plain")


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus's scrape, behind ``PEGBOARD_METRICS_TOKEN`` (``Authorization: Bearer ...``)."""
    token = settings.PEGBOARD_METRICS_TOKEN
    if not token:
        raise Http404
    sent = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not secrets.compare_digest(sent.encode(), token.encode()):
        return HttpResponse("a metrics token is needed\n", status=401, content_type="text/plain")
    from django_prometheus.exports import ExportToDjangoView

    return _no_store(ExportToDjangoView(request))
