"""Token authentication whose tokens expire (``API_TOKEN_DAYS``; see league/services/tokens.py),
answered from Django's cache: a phone's token is read from the database once, then for
``TOKEN_CACHE_SECONDS`` from the cache, so a deal costs no query to know who sent it.

The cache entry is keyed by the token's SHA-256 digest (the token itself is never a cache key),
and goes the moment the token or its user changes (``league.services.tokens``: a revoked,
rotated or deleted token, any save of the user: a deactivation, a new password, a new role).
Expiry is checked on every request, cached or not.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from league.services.tokens import remember_token, remembered_token, token_expired


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, refusing a token older than ``API_TOKEN_DAYS``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """``(user, token)`` for a live token; raises ``AuthenticationFailed`` (401) otherwise."""
        found = remembered_token(key)
        if found is None:
            user, token = super().authenticate_credentials(key)  # refuses an unknown or inactive
            remember_token(key, user, token)
        else:
            user, token = found
        if token_expired(token):
            raise AuthenticationFailed(_("Your sign-in has expired: sign in again."))
        return user, token
