"""Who is asking: a session (the web app) or a token (a phone app)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


@pytest.fixture
def session_client(db) -> Callable[[Any], APIClient]:
    """``session_client(user)``: signed in with a session, as the web app is."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def token_client(db) -> Callable[[Any], APIClient]:
    """``token_client(user)``: signed in with ``Authorization: Token ...``, as a phone app is."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
