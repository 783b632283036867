"""One exception handler maps domain errors to API responses (HackSoft styleguide)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.kernel.errors import DomainError, TooFast


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Return a JSON response for domain errors: ``{"detail", "code", "field", ...}``."""
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        if exc.field:
            body["field"] = exc.field
        for key, value in exc.extra.items():
            body[key] = value
        response = Response(body, status=exc.status)
        if isinstance(exc, TooFast):
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, RequestDataTooBig):  # past DATA_UPLOAD_MAX_MEMORY_SIZE: read no further
        detail = _("This request is too large: nothing was stored.")
        return Response({"detail": detail, "code": "too_large"}, status=400)
    return drf_exception_handler(exc, context)
