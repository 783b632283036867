"""API tokens for phone apps: issued at sign-in, expiring after ``API_TOKEN_DAYS``, revoked by
their owner or by a change of password.

DRF's own ``Token`` (one per user) is kept, so existing apps and the schema stay as they are;
expiry is checked on every request by ``league.api.authentication.ExpiringTokenAuthentication``
and a token past its age is replaced at the next sign-in.

That authentication remembers a token's user in Django's cache (``remember_token``), keyed by
the token's digest: the entry goes when the token is deleted (revoked, rotated at sign-in, its
user deleted) or saved, and when its user is saved (deactivated, a new password, a new role),
through the receivers below. A write behind the ORM's back (a QuerySet ``update`` of users or
tokens) sends no signal: the entry then lives out ``TOKEN_CACHE_SECONDS``.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from rest_framework.authtoken.models import Token

log = logging.getLogger(__name__)


def token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_DAYS)


def token_expires(token: Token) -> datetime:
    return token.created + token_lifetime()


def token_expired(token: Token) -> bool:
    return timezone.now() >= token_expires(token)


def token_issue(*, user: User) -> Token:
    """The user's token, a new one if they had none or theirs has expired."""
    with transaction.atomic():
        token = Token.objects.select_for_update().filter(user=user).first()
        if token is not None and token_expired(token):
            token.delete()
            token = None
        if token is None:
            token = Token.objects.create(user=user)
    return token


def token_revoke(*, user: User) -> int:
    """Sign every app of ``user`` out: their token stops working at once. Returns how many
    tokens were revoked (0 or 1)."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


@receiver(pre_save, sender=get_user_model(), dispatch_uid="pegboard-revoke-tokens-on-password")
def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password (set by its owner, an admin or a reset) signs every app out, as Django
    signs out the other sessions: whoever had the old password may have had the token too."""
    if instance.pk is None or kwargs.get("raw"):
        return
    before = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if before is not None and before != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()


# --- The cache of who a token is ----------------------------------------------------------------

#: How long a token's user is remembered without a change: the longest a write that sends no
#: signal (a QuerySet update) can go unnoticed.
TOKEN_CACHE_SECONDS = 300


def _token_entry(key: str) -> str:
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


def _user_entry(user_id: Any) -> str:
    return f"api-token-user:{user_id}"


def remembered_token(key: str) -> tuple[Any, Token] | None:
    """``(user, token)`` remembered for ``key``, or None (not remembered, or the cache is
    down: the caller reads the database)."""
    try:
        found: tuple[Any, Token] | None = cache.get(_token_entry(key))
    except Exception:  # a cache that is down costs a query, never a refusal
        return None
    return found


def remember_token(key: str, user: Any, token: Token) -> None:
    """Remember who ``key`` is until its expiry or ``TOKEN_CACHE_SECONDS``, whichever is first."""
    left = int((token_expires(token) - timezone.now()).total_seconds())
    if left <= 0:
        return
    seconds = min(TOKEN_CACHE_SECONDS, left)
    entry = _token_entry(key)
    try:
        cache.set_many({entry: (user, token), _user_entry(user.pk): entry}, seconds)
    except Exception:  # not remembered: the next request reads the database again
        log.warning("could not remember an API token in the cache", exc_info=True)


def forget_tokens_of(user_id: Any, key: str | None = None) -> None:
    """Forget what the cache remembers of ``user_id``'s token (and of ``key``)."""
    try:
        entries = [_user_entry(user_id)]
        if key is not None:
            entries.append(_token_entry(key))
        remembered = cache.get(entries[0])
        if remembered is not None:
            entries.append(remembered)
        cache.delete_many(entries)
    except Exception:  # a remembered entry lives out TOKEN_CACHE_SECONDS at most
        log.error("could not forget the API token of user %s in the cache", user_id, exc_info=True)


@receiver(post_delete, sender=Token, dispatch_uid="pegboard-forget-deleted-token")
@receiver(post_save, sender=Token, dispatch_uid="pegboard-forget-saved-token")
def forget_token(sender: Any, instance: Token, **kwargs: Any) -> None:
    """A revoked, rotated or changed token is read from the database again."""
    forget_tokens_of(instance.user_id, instance.key)


@receiver(post_delete, sender=get_user_model(), dispatch_uid="pegboard-forget-deleted-user")
@receiver(post_save, sender=get_user_model(), dispatch_uid="pegboard-forget-saved-user")
def forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A deactivated (or otherwise changed, or deleted) user's token is read again: an inactive
    user's token is then refused, as DRF refuses it."""
    if instance.pk is not None:
        forget_tokens_of(instance.pk)


def sign_out_everywhere(*, user: User) -> None:
    """Sign ``user`` out of every browser and app: every session of theirs ends, their API token
    stops working and every device cookie of theirs is revoked (so a lost phone gets no
    lockout privilege either). One transaction."""
    from django.contrib.sessions.models import Session

    from league.lockout import forget_devices

    with transaction.atomic():
        theirs = [
            session.pk
            for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
            if str(session.get_decoded().get("_auth_user_id")) == str(user.pk)
        ]
        Session.objects.filter(pk__in=theirs).delete()
        token_revoke(user=user)
        forget_devices(user.pk)
