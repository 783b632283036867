"""Marks every answer to a signed-in person private, so that no shared cache (the visitors'
micro-cache in deploy/nginx.conf, or any other on the way) ever keeps a page drawn for one
person; visitors' answers are left as the views made them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


class PrivateForSignedInMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True)
        return response
