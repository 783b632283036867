"""Standings fresh in the background, and correct without it (real Redis and Celery worker)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from league.models import Season, StandingsSnapshot
from league.selectors.standings import standings_for_season
from league.services.games import game_confirm
from tests.factories import play_until_over

needs_worker = pytest.mark.skipif(
    not settings.REDIS_URL or settings.CELERY_TASK_ALWAYS_EAGER,
    reason="needs REDIS_URL and a Celery worker (run by .ci/run)",
)


@pytest.mark.redis
@needs_worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_recomputes_standings_after_a_confirmed_game(game, ann, cat):
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    season = Season.objects.get(pk=game.match.week.season_id)
    deadline = time.monotonic() + 30
    snapshot = None
    while time.monotonic() < deadline:
        snapshot = StandingsSnapshot.objects.filter(
            season=season, results_version=season.results_version
        ).first()
        if snapshot:
            break
        time.sleep(0.2)
    assert snapshot is not None, "the worker did not recompute the standings within 30 s"
    # The task stores the rendered pages last: wait for it to finish before the test's tables
    # are emptied under it.
    from league.models import StandingsPage

    while time.monotonic() < deadline:
        if StandingsPage.objects.filter(
            season=season, results_version=season.results_version, language="en"
        ).exists():
            break
        time.sleep(0.2)
    game.refresh_from_db()
    assert snapshot.data["standings"][0]["team"] == game.winner.name
    season.refresh_from_db()
    assert not season.standings_stale


@pytest.mark.django_db(transaction=True)
def test_with_redis_and_the_broker_down_score_entry_is_fast_and_standings_right(
    game, ann, cat, settings
):
    """Point the cache and the broker at a closed port: writes succeed, reads compute."""
    from config.celery import app

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    old = (app.conf.task_always_eager, app.conf.broker_url)
    app.conf.task_always_eager = False
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        start = time.monotonic()
        play_until_over(game, ann)
        game_confirm(game=game, user=cat)
        deals = game.deals.count()
        elapsed = (time.monotonic() - start) / (deals + 1)
        assert elapsed < 2.0, f"each write took {elapsed:.2f} s with Redis down"
        season = Season.objects.get(pk=game.match.week.season_id)
        data = standings_for_season(season)
        game.refresh_from_db()
        assert data["standings"][0]["team"] == game.winner.name
        assert data["results_version"] == season.results_version
    finally:
        app.conf.task_always_eager, app.conf.broker_url = old
