"""Login lockout that an attacker at the bar cannot turn against a captain.

django-axes counts wrong passwords per name AND address (``AXES_LOCKOUT_PARAMETERS``): five
wrong ones for "ann" from the bar's address lock "ann" there for ``AXES_COOLOFF_TIME``, and
nobody else. But everyone at the bar shares that address, so anyone there could lock Ann out by
typing wrong passwords for her. So a phone or browser that has signed in as Ann before carries a
signed *device cookie* (OWASP's "device cookies" against lockout abuse); from such a device Ann's
*correct* password is let through even while her name is locked at that address. A wrong
password from that device still counts and is still refused: the cookie lets the right password
in, it never lets anyone guess more.

The client's address: behind nginx every request comes from nginx, which sets ``X-Real-IP``.
That header is believed only from the addresses in ``PEGBOARD_TRUSTED_PROXIES``; anyone else
talking to gunicorn directly is counted at their own address, so they cannot rotate addresses by
sending the header.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

log = logging.getLogger(__name__)

DEVICE_COOKIE = "pegboard_device"
_SALT = "pegboard.lockout.device"


# --- The client's address --------------------------------------------------------------------


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for network in settings.PEGBOARD_TRUSTED_PROXIES:
        try:
            if ip in ipaddress.ip_network(network, strict=False):
                return True
        except ValueError:
            log.warning("PEGBOARD_TRUSTED_PROXIES: %r is not an address or network", network)
    return False


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for django-axes (``AXES_CLIENT_IP_CALLABLE``): ``X-Real-IP`` when
    the request comes from a trusted proxy (nginx, which overwrites any the client sent),
    otherwise the address the connection came from."""
    remote = request.META.get("REMOTE_ADDR")
    real = request.META.get("HTTP_X_REAL_IP", "").strip()
    if remote and real and _trusted(remote):
        try:
            return str(ipaddress.ip_address(real))
        except ValueError:
            return remote
    return remote


# --- Device cookies --------------------------------------------------------------------------


def _username(value: Any) -> str:
    return str(value or "").strip().lower()


def device_cookie_value(username: str) -> str:
    return signing.dumps({"u": _username(username)}, salt=_SALT, compress=True)


def remember_device(response: HttpResponseBase, username: str) -> None:
    """Mark the browser or app that just signed in as ``username``'s own device."""
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie_value(username),
        max_age=settings.PEGBOARD_DEVICE_DAYS * 24 * 3600,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _device_of(request: Any, username: str) -> bool:
    raw = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not raw or not username:
        return False
    try:
        data = signing.loads(raw, salt=_SALT, max_age=settings.PEGBOARD_DEVICE_DAYS * 24 * 3600)
    except signing.BadSignature:
        return False
    return isinstance(data, dict) and data.get("u") == username


def right_password_from_own_device(request: Any, credentials: dict[str, Any] | None) -> bool:
    """``AXES_WHITELIST_CALLABLE``: True (let through, not counted) only for the right password
    sent from a device that signed in as that user before."""
    credentials = credentials or {}
    username = _username(credentials.get("username"))
    password = credentials.get("password")
    if not isinstance(password, str) or not _device_of(request, username):
        return False
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    return user is not None and user.check_password(password)


@receiver(user_logged_in, dispatch_uid="pegboard-remember-device")
def _note_sign_in(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    if request is not None and user is not None:
        request.pegboard_signed_in_as = user.get_username()


class DeviceCookieMiddleware:
    """Gives a browser that signed in during this request its device cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        username = getattr(request, "pegboard_signed_in_as", None)
        if username:
            remember_device(response, username)
        return response
