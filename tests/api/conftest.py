"""API clients for the people at the table, and a clean cache for each test."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _clear_cache():
    # Standings are cached by (season id, results version); ids are reused between tests.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    """A visitor: not signed in."""
    return APIClient()


@pytest.fixture
def client_for(db):
    """``client_for(user)``: an API client signed in as ``user`` (a session, like the web app)."""

    def make(user) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def bob(home_team):
    return home_team.players.get(name="Bob").user


@pytest.fixture
def dan(away_team):
    return away_team.players.get(name="Dan").user


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Every fixture team makes accounts; the real hasher would spend seconds on them.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
