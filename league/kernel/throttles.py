"""Limits on how fast the API can be asked: score entry per user, and a locked-out login's answer.

Score entry is counted in the cache; when the cache (Redis) is down the deal is let through
rather than refused, because entering scores matters more than counting them. Login attempts
are counted by django-axes in the database (settings ``AXES_*``).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from axes.helpers import get_cool_off, get_lockout_message
from axes.signals import user_locked_out
from django.core.exceptions import ImproperlyConfigured
from django.dispatch import receiver
from django.utils.translation import ngettext
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from league.kernel.cache import cache_failed, cache_paused

log = logging.getLogger(__name__)


class TooManyRequests(Throttled):
    """429 with a sentence, a ``code`` and ``Retry-After`` (whole seconds)."""

    def __init__(self, message: str, *, code: str, wait: float | None) -> None:
        # Not Throttled.__init__: it would append DRF's own "Expected available in ..." sentence.
        self.wait = math.ceil(wait) if wait is not None else None
        super(Throttled, self).__init__({"detail": message, "code": code})


class DealEntryThrottle(ScopedRateThrottle):
    """At most ``DEFAULT_THROTTLE_RATES[view.throttle_scope]`` writes per user; reads are free."""

    @property
    def THROTTLE_RATES(self) -> dict[str, str | None]:  # type: ignore[override]  # read per request: settings can change
        return api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[return-value]  # rates are texts

    def allow_request(self, request: Request, view: Any) -> bool:
        """True to let the request through; raises ``TooManyRequests`` to refuse it."""
        if request.method in SAFE_METHODS or cache_paused():
            return True
        try:
            return super().allow_request(request, view)
        except (TooManyRequests, ImproperlyConfigured):
            raise
        except Exception:  # the cache is down: let the captain's deal in
            cache_failed()
            return True

    def throttle_failure(self) -> bool:
        wait = self.wait()
        seconds = max(1, math.ceil(wait)) if wait is not None else 1
        message = ngettext(
            "Scores are coming in faster than anyone can play: nothing was stored. "
            "Wait %(n)s second, then send the deal again.",
            "Scores are coming in faster than anyone can play: nothing was stored. "
            "Wait %(n)s seconds, then send the deal again.",
            seconds,
        ) % {"n": seconds}
        raise TooManyRequests(message, code="throttled", wait=wait)


@receiver(user_locked_out)
def refuse_locked_out_api_login(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """Answer a locked-out ``/api/auth/token/`` with 429 and axes's sentence.

    django-axes's middleware answers a locked-out web login itself, but DRF hands
    ``authenticate()`` its own Request object, so the flag axes sets never reaches that middleware
    and the client would only see "Unable to log in". Raising here reaches DRF's handler instead.
    """
    if isinstance(request, Request):
        cool_off = get_cool_off(request)
        wait = cool_off.total_seconds() if cool_off is not None else None
        raise TooManyRequests(str(get_lockout_message()), code="locked_out", wait=wait)
