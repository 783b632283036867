"""Redis (the cache) down: pages, logging in and entering scores still work.

Sessions live in the database, standings are computed from the games when the cache can't
answer, and the score-entry rate limit lets deals through rather than refuse them.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.test import APIClient

from league.models import Deal

DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture
def dead_cache():
    # Restored when this fixture ends, before the suite's own cache.clear() runs.
    with override_settings(CACHES=DEAD_REDIS):
        with pytest.raises(Exception):  # noqa: B017 - whatever redis-py raises: it is down
            cache.get("anything")
        yield


def test_sessions_are_kept_in_the_database_not_only_the_cache():
    assert django_settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_pages_answer_with_the_cache_down(dead_cache, played_season):
    browser = Client()
    start = time.monotonic()
    for url in ["/", f"/seasons/{played_season.pk}/standings/", "/accounts/login/", "/healthz"]:
        response = browser.get(url)
        assert response.status_code == 200, url
    assert b"Fifteen Two" in browser.get(f"/seasons/{played_season.pk}/standings/").content
    assert time.monotonic() - start < 10


def test_logging_in_and_staying_logged_in_work_with_the_cache_down(dead_cache, ann, played_season):
    browser = Client()
    response = browser.post("/accounts/login/", {"username": "ann", "password": "pass-word-123"})
    assert response.status_code == 302
    page = browser.get("/")
    assert page.status_code == 200
    assert page.wsgi_request.user == ann
    assert b"Log out" in page.content


def test_an_app_gets_a_token_and_enters_a_deal_with_the_cache_down(dead_cache, game, ann):
    token = APIClient().post(
        "/api/auth/token/", {"username": "ann", "password": "pass-word-123"}, format="json"
    )
    assert token.status_code == 200
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    deal = {
        "key": str(uuid.uuid4()),
        "number": 1,
        "dealer": 0,
        "starter": "5H",
        "pegging": [2, 3],
        "shows": {"1": 6, "2": 8, "3": 4, "0": 12},
        "crib": 5,
    }
    created = app.post(f"/api/games/{game.pk}/deals/", deal, format="json")
    assert created.status_code == 201, created.json()
    assert Deal.objects.filter(game=game).count() == 1
    standings = app.get(f"/api/seasons/{game.match.week.season_id}/standings/")
    assert standings.status_code == 200
    assert {row["team"] for row in standings.json()["standings"]} == {"Fifteen Two", "Nobs"}
