"""Email me a sign-in link: the way in for a captain locked out at the bar's shared address.

The login lockout (league/lockout.py) counts wrong passwords per name and address, and lets the
right password through from a device that signed in before. A phone that never signed in has no
such cookie, so after someone else's five wrong passwords for her name at the bar she would wait
the cool-off. Instead the locked page offers a link by email:

* The answer is the same whether or not an account matches (no account enumeration), and so is
  the work: the request is counted and one task is queued after commit; the task looks the
  account up and, only when an active account with an email matches, sends the mail.
* At most ``PEGBOARD_SIGNIN_LINKS_PER_HOUR`` requests per address and per account an hour
  (counted in the cache; if the cache cannot be reached no link is sent, and the lockout still
  ends after its cool-off).
* The link is signed (Django's ``signing``) and lives ``PEGBOARD_SIGNIN_LINK_MINUTES``. It
  carries the account's last sign-in time, which signing in changes, so it works once (as
  Django's password-reset tokens do).
* Opening it signs the player in, clears the lockout for that name (django-axes' ``reset``) and
  gives the phone its device cookie, so her password works there from then on.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.kernel.errors import DomainError
from league.services.results import queue_task

log = logging.getLogger(__name__)

SALT = "pegboard.signin-link"
SEND_TASK = "league.tasks.send_signin_link"  # (user_id, link_base): kept for queued tasks
DELIVER_TASK = "league.tasks.deliver_signin_link"  # (identifier, link_base)
MAX_IDENTIFIER = 254  # an email address's longest


class SignInLinkError(DomainError):
    """A sign-in link that cannot be used (too old, already used, or altered)."""


def counted(key: str, limit: int) -> bool:
    """Count one request under ``key`` for an hour; False once ``limit`` is passed."""
    cache.add(key, 0, timeout=3600)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=3600)
        return True


def signin_link_request(*, identifier: str, address: str | None, link_base: str) -> bool:
    """Ask for a sign-in link for the account with this user name or email.

    The request does the same work whether or not an account matches (security review, L8: a few
    milliseconds told them apart): it counts the address and queues one task after commit;
    the task (``notifications.signin_link_deliver``) looks the account up, counts it and sends
    the mail.
    Returns whether the request was accepted (not whether a mail will go); callers must not
    show it (the page says the same either way). ``link_base`` is the absolute URL the token
    is appended to.
    """
    identifier = (identifier or "").strip()[:MAX_IDENTIFIER]
    if not identifier:
        return False
    limit = settings.PEGBOARD_SIGNIN_LINKS_PER_HOUR
    try:
        if not counted(f"signin-link:ip:{address or '-'}", limit):
            return False
    except Exception:  # the cache is down: send nothing rather than send without a limit
        log.warning("sign-in link not sent: the throttle's cache cannot be reached", exc_info=True)
        return False

    def send() -> None:
        try:
            queue_task(DELIVER_TASK, identifier, link_base)
        except Exception:
            log.warning("could not queue a sign-in link", exc_info=True)

    transaction.on_commit(send)
    return True


def _stamp(user: User) -> str:
    return user.last_login.isoformat() if user.last_login else ""


def signin_link_token(user: User) -> str:
    """A signed token for ``user``, valid until they next sign in or the minutes pass."""
    return signing.dumps({"u": user.pk, "l": _stamp(user)}, salt=SALT, compress=True)


def signin_link_user(token: str) -> Any:
    """The account a sign-in link opens; raises :class:`SignInLinkError` with the reason."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.PEGBOARD_SIGNIN_LINK_MINUTES * 60)
    except signing.SignatureExpired as exc:
        raise SignInLinkError(
            _(
                "This sign-in link is too old: links last %(minutes)d minutes. "
                "Ask for a new one on the log-in page."
            )
            % {"minutes": settings.PEGBOARD_SIGNIN_LINK_MINUTES}
        ) from exc
    except signing.BadSignature as exc:
        raise SignInLinkError(
            _("This sign-in link is not one we sent: copy the whole link from the email.")
        ) from exc
    user = None
    if isinstance(data, dict):
        user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()  # type: ignore[misc]
    if user is None or data.get("l") != _stamp(user):
        raise SignInLinkError(
            _("This sign-in link was already used. Ask for a new one on the log-in page.")
        )
    return user


def signin_link_accept(*, token: str) -> Any:
    """Check the link, mark it used (the account's last sign-in time moves on, under its row
    lock, so two taps on one link sign in once) and clear the lockout for that name. The view
    then signs the returned account in."""
    with transaction.atomic():
        user = signin_link_user(token)
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        signin_link_user(token)  # again under the lock: refused if a twin request got here first
        user.last_login = timezone.now()
        user.save(update_fields=["last_login"])
        axes_reset(username=user.get_username())
    return user
