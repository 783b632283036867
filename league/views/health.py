"""The health check: answers 200 when the database answers. Redis is not asked on purpose."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse


def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def ping(request: HttpRequest) -> HttpResponse:
    """Liveness: the process answers (no database, no cache). Also the benchmarks' baseline."""
    return HttpResponse("ok", content_type="text/plain")
