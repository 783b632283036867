"""Score entry is rate limited per user: a runaway script or a stuck retry loop gets a 429 with
a sentence, and stores nothing; reading, and other people's entries, go on."""

from __future__ import annotations

import pytest

from tests.security.routes import database_state, deal_body

LEGAL = [  # four legal deals of the ``game`` fixture, Ann (seat 0) dealing first
    deal_body(number=1, dealer=0),
    deal_body(number=2, dealer=1, starter="2C"),
    deal_body(number=3, dealer=2, starter="9D"),
    deal_body(number=4, dealer=3, starter="KS"),
]


@pytest.fixture
def low_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"deals": "3/min"},
    }


def test_the_default_rate_comes_from_the_settings():
    from django.conf import settings

    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["deals"].endswith("/min")


def test_entering_deals_faster_than_the_rate_answers_429_and_stores_nothing(
    low_rate, game, ann, session_client
):
    client = session_client(ann)
    for body in LEGAL[:3]:
        assert client.post(f"/api/games/{game.pk}/deals/", body, format="json").status_code == 201
    before = database_state()

    response = client.post(f"/api/games/{game.pk}/deals/", LEGAL[3], format="json")

    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert body["detail"].startswith("Scores are coming in faster than anyone can play")
    assert "nothing was stored" in body["detail"]
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 60
    assert f"Wait {seconds} second" in body["detail"]
    assert database_state() == before


def test_reading_is_not_counted_and_other_people_are_not_held_up(
    low_rate, game, ann, cat, session_client
):
    ann_client = session_client(ann)
    for body in LEGAL[:3]:
        ann_client.post(f"/api/games/{game.pk}/deals/", body, format="json")
    assert ann_client.post(f"/api/games/{game.pk}/deals/", LEGAL[3], format="json").status_code == (
        429
    )
    for _ in range(5):
        assert ann_client.get(f"/api/games/{game.pk}/deals/").status_code == 200
        assert ann_client.get(f"/api/games/{game.pk}/").status_code == 200
    # Cat plays in the same game and has entered nothing: her deal goes in.
    created = session_client(cat).post(f"/api/games/{game.pk}/deals/", LEGAL[3], format="json")
    assert created.status_code == 201, created.json()


def test_other_writes_are_not_counted_as_score_entry(low_rate, match, ann, session_client):
    client = session_client(ann)
    for number in (1, 2, 3):
        started = client.post(
            f"/api/matches/{match.pk}/games/",
            {"seats": ["Ann", "Cat", "Bob", "Dan"], "number": number},
            format="json",
        )
        assert started.status_code == 201
        if number < 3:  # started by mistake: cancelled, so the next one may start
            cancelled = client.post(f"/api/games/{started.json()['id']}/cancel/")
            assert cancelled.status_code == 200
    game_id = started.json()["id"]
    for body in LEGAL[:3]:
        assert client.post(f"/api/games/{game_id}/deals/", body, format="json").status_code == 201
