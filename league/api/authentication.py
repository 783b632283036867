"""Token authentication whose tokens expire (``API_TOKEN_DAYS``; see league/services/tokens.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from league.services.tokens import token_expired


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, refusing a token older than ``API_TOKEN_DAYS``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        """``(user, token)`` for a live token; raises ``AuthenticationFailed`` (401) otherwise."""
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise AuthenticationFailed(_("Your sign-in has expired: sign in again."))
        return user, token
