"""Login lockout that an attacker at the bar cannot turn against a captain.

django-axes counts wrong passwords per name AND address (``AXES_LOCKOUT_PARAMETERS``): five
wrong ones for "ann" from the bar's address lock "ann" there for ``AXES_COOLOFF_TIME``, and
nobody else. But everyone at the bar shares that address, so anyone there could lock Ann out by
typing wrong passwords for her. So a phone or browser that has signed in as Ann before carries a
signed *device cookie* (OWASP's "device cookies" against lockout abuse); from such a device Ann's
*correct* password is let through even while her name is locked at that address. A wrong
password from that device still counts and is still refused: the cookie lets the right password
in, it never lets anyone guess more, and its own wrong passwords lock the device itself.

The client's address: behind nginx every request comes from nginx, which sets ``X-Real-IP``.
That header is believed only from the addresses in ``PEGBOARD_TRUSTED_PROXIES``; anyone else
talking to gunicorn directly is counted at their own address, so they cannot rotate addresses by
sending the header.
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.db import transaction
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone

from league.models.devices import KnownDevice

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
#
# The cookie names a ``KnownDevice`` row (a random nonce, signed): the row counts the device's
# own wrong passwords and locks the device itself after ``AXES_FAILURE_LIMIT`` of them for
# ``AXES_COOLOFF_TIME`` (OWASP: "lock out the device cookie"), so the cookie never gives more
# guesses than a stranger gets. Deleting the row revokes the cookie: a new password and "sign
# out everywhere" do (``forget_devices``).


def _username(value: Any) -> str:
    return str(value or "").strip().lower()


def _max_age() -> int:
    return int(settings.PEGBOARD_DEVICE_DAYS * 24 * 3600)


def _cookie_data(request: Any) -> dict[str, str] | None:
    raw = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=_SALT, max_age=_max_age())
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("n"), str):
        return None
    return data


def _device_of(request: Any, username: str) -> KnownDevice | None:
    """The known device whose cookie ``request`` carries, if it is ``username``'s."""
    data = _cookie_data(request)
    if data is None or not username or data.get("u") != username:
        return None
    return (
        KnownDevice.objects.select_related("user")
        .filter(nonce=data["n"], user__username__iexact=username)
        .first()
    )


def remember_device(response: HttpResponseBase, user: Any, request: Any = None) -> None:
    """Mark the browser or app that just signed in as ``user``'s own device (keeping the
    device it already was, if its cookie is still valid)."""
    username = _username(user.get_username())
    device = _device_of(request, username) if request is not None else None
    if device is None:
        device = KnownDevice.objects.create(user=user, nonce=secrets.token_urlsafe(24))
    elif device.failures:
        KnownDevice.objects.filter(pk=device.pk).update(failures=0)  # she got in: start again
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps({"u": username, "n": device.nonce}, salt=_SALT, compress=True),
        max_age=_max_age(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def _locked(device: KnownDevice) -> bool:
    return device.locked_until is not None and device.locked_until > timezone.now()


def right_password_from_own_device(request: Any, credentials: dict[str, Any] | None) -> bool:
    """``AXES_WHITELIST_CALLABLE``: True (let through, not counted) only for the right password
    sent from a device that signed in as that user before and is not itself locked. A wrong
    password from such a device counts against the device (once per request: axes asks again,
    with the password blanked, when it records the failure)."""
    credentials = credentials or {}
    username = _username(credentials.get("username"))
    password = credentials.get("password")
    if not isinstance(password, str) or getattr(request, "_pegboard_device_checked", False):
        return False
    device = _device_of(request, username)
    if device is None or _locked(device) or not device.user.is_active:
        return False
    try:
        request._pegboard_device_checked = True
    except AttributeError:  # pragma: no cover - a request that takes no attributes
        return False
    if device.user.check_password(password):
        return True
    _count_failure(device)
    return False


def _count_failure(device: KnownDevice) -> None:
    """One more wrong password from ``device``: at ``AXES_FAILURE_LIMIT`` it is locked for
    ``AXES_COOLOFF_TIME``."""
    with transaction.atomic():
        device = KnownDevice.objects.select_for_update().get(pk=device.pk)
        if _locked(device):
            return
        device.failures += 1
        if device.failures >= settings.AXES_FAILURE_LIMIT:
            device.failures = 0
            device.locked_until = timezone.now() + settings.AXES_COOLOFF_TIME
        device.save(update_fields=["failures", "locked_until"])


def forget_devices(user_id: int) -> int:
    """Revoke every device cookie of the account. Returns how many there were."""
    deleted, _ = KnownDevice.objects.filter(user_id=user_id).delete()
    return deleted


@receiver(pre_save, sender=get_user_model(), dispatch_uid="pegboard-forget-devices-on-password")
def _forget_devices_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password revokes the account's device cookies: whoever had the old password may
    have had one of its devices."""
    if instance.pk is None or kwargs.get("raw"):
        return
    before = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if before is not None and before != instance.password:
        forget_devices(instance.pk)


@receiver(user_logged_in, dispatch_uid="pegboard-remember-device")
def _note_sign_in(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    if request is not None and user is not None:
        request.pegboard_signed_in_as = user


class DeviceCookieMiddleware:
    """Gives a browser that signed in during this request its device cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        user = getattr(request, "pegboard_signed_in_as", None)
        if user is not None:
            remember_device(response, user, request)
        return response
