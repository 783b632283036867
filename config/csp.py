"""A Content-Security-Policy header on every response (Django 5.2 has none built in).

The policy is the ``CSP`` setting, a mapping of directive to sources::

    CSP = {"default-src": ["'self'"], "img-src": ["'self'", "data:"]}

A response that already carries the header (a view that needs another policy) keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponseBase

HEADER = "Content-Security-Policy"


def policy_header(policy: Mapping[str, Sequence[str]]) -> str:
    """The header value for ``policy``: its directives in order, separated by semicolons.

    >>> policy_header({"default-src": ["'self'"], "img-src": ["'self'", "data:"]})
    "default-src 'self'; img-src 'self' data:"
    """
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    """Sets the Content-Security-Policy header from ``settings.CSP`` (built once, at start-up)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        policy = getattr(settings, "CSP", None)
        if not policy:
            raise ImproperlyConfigured(
                "ContentSecurityPolicyMiddleware needs the CSP setting (directive -> sources)."
            )
        self.get_response = get_response
        self.header = policy_header(policy)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault(HEADER, self.header)
        return response
