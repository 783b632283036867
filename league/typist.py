"""An offline entry is sent only by its typist's session (security review, M1).

The phone's outbox (static/js/outbox.js) sends each waiting entry with ``X-Pegboard-Typist``:
the id of the account that was signed in when it was typed. If someone else is signed in now
(another player on the same shared phone, or a tab still open from before), the write is
refused with 409 ``typist_signed_out`` before any view runs, and the outbox keeps the entry for
its typist. Requests without the header are untouched.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _

HEADER = "HTTP_X_PEGBOARD_TYPIST"
SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}


class TypistMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        typist = request.META.get(HEADER)
        if typist is not None and request.method not in SAFE:
            user = getattr(request, "user", None)
            signed_in = user is not None and user.is_authenticated
            if signed_in and str(user.pk) != typist.strip():  # type: ignore[union-attr]
                return JsonResponse(
                    {
                        "detail": _(
                            "Someone else typed this entry on this phone: it waits for them "
                            "to sign in again. Nothing was stored."
                        ),
                        "code": "typist_signed_out",
                    },
                    status=409,
                )
        return self.get_response(request)
