"""A score entry that queued in front of the workers past its phone's patience is answered at
once with 503 and Retry-After, and nothing is stored; anything fresher, any read and any request
nginx did not stamp go on as before (config/shed.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.tournaments.conftest import user_of
from tournaments import services
from tournaments.models import Scorecard

pytestmark = pytest.mark.django_db

NGINX = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


@pytest.fixture
def card(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.select_related("first").order_by("table")[0]
    client = APIClient()
    client.force_authenticate(user_of(game.first))
    body = {"winner": game.first_id, "loser_score": 90, "key": "shed-1"}
    url = f"/api/tournament-tables/{game.pk}/scorecards/"
    return client, url, body, game


def stamp(seconds_ago: float) -> dict[str, str]:
    return {"HTTP_X_REQUEST_START": f"t={time.time() - seconds_ago:.3f}"}


def test_a_card_that_queued_too_long_is_answered_busy_and_not_stored(card, settings):
    settings.SHED_QUEUED_SECONDS = 10
    client, url, body, game = card
    answer = client.post(url, body, format="json", **stamp(12))
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    assert answer.json()["code"] == "busy"
    assert "nothing was stored" in answer.json()["detail"]
    assert not Scorecard.objects.filter(game=game).exists()
    # Sent again (the phone's retry, same key) with a fresh stamp: stored, once.
    again = client.post(url, body, format="json", **stamp(0.2))
    assert again.status_code == 201, again.content
    assert client.post(url, body, format="json", **stamp(0.1)).status_code == 200
    assert Scorecard.objects.filter(game=game).count() == 1


def test_reads_unstamped_requests_and_a_setting_of_zero_are_never_shed(card, settings):
    settings.SHED_QUEUED_SECONDS = 10
    client, url, body, game = card
    assert client.get(f"/api/tournament-tables/{game.pk}/", **stamp(60)).status_code == 200
    assert client.post(url, body, format="json").status_code == 201  # no nginx in front
    settings.SHED_QUEUED_SECONDS = 0
    body = {**body, "key": "shed-2"}
    assert client.post(url, body, format="json", **stamp(60)).status_code != 503


def test_nginx_stamps_every_request_with_its_arrival():
    assert 'proxy_set_header X-Request-Start "t=${msec}";' in NGINX.read_text()
