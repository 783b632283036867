"""API tokens for phone apps: issued at sign-in, expiring after ``API_TOKEN_DAYS``, revoked by
their owner or by a change of password.

DRF's own ``Token`` (one per user) is kept, so existing apps and the schema stay as they are;
expiry is checked on every request by ``league.api.authentication.ExpiringTokenAuthentication``
and a token past its age is replaced at the next sign-in.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone
from rest_framework.authtoken.models import Token


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
