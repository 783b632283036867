"""End to end through the production processes: gunicorn, a Celery worker and beat, started
natively by .ci/run against PostgreSQL and Redis with the demo league seeded. Skipped unless
PEGBOARD_E2E_URL names the running server (plain HTTP here: the test sees what a phone sees)."""

from __future__ import annotations

import random
import time
import urllib.error
import urllib.request
import uuid

import pytest

from tests.e2e.live import BASE, call, token_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not BASE, reason="needs PEGBOARD_E2E_URL (run by .ci/run)"),
]


def test_the_health_check_answers_from_the_database():
    status, body = call("GET", "/healthz")
    assert status == 200 and body["database"] == "ok"


def test_a_captain_enters_a_whole_game_and_the_standings_follow():
    """This week's match not yet started (a game starts on its night; the demo's organiser lets
    this week's matches start any day): a whole game through the API, confirmed, counted."""
    from league.services.demo import random_game_deals

    ann, oly = token_for("ann"), token_for("oly")
    status, matches = call("GET", "/api/matches/?mine=1&limit=200", token=ann)
    assert status == 200
    match = next(
        m
        for m in matches["results"]
        if {m["home_name"], m["away_name"]} == {"Fifteen Two", "Nineteen"} and not m["games"]
    )
    season = match["season"]
    before = call("GET", f"/api/seasons/{season}/standings/")[1]
    played = {r["team"]: r["played"] for r in before["standings"]}

    status, game = call(
        "POST",
        f"/api/matches/{match['id']}/games/",
        {"seats": ["Ann", "Oly", "Bob", "Pat"], "first_dealer": 0},
        token=ann,
    )
    assert status == 201, game
    deals = random_game_deals(random.Random(7))
    for number, deal in enumerate(deals, start=1):
        body = {"key": str(uuid.uuid4()), "number": number, **deal}
        status, stored = call("POST", f"/api/games/{game['id']}/deals/", body, token=ann)
        assert status == 201, stored
        again = call("POST", f"/api/games/{game['id']}/deals/", body, token=ann)
        assert again[0] == 200  # a retry stores nothing twice
    status, confirmed = call("POST", f"/api/games/{game['id']}/confirm/", token=oly)
    assert status == 200 and confirmed["status"] == "confirmed", confirmed

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        after = call("GET", f"/api/seasons/{season}/standings/")[1]
        rows = {r["team"]: r["played"] for r in after["standings"]}
        if rows["Fifteen Two"] == played["Fifteen Two"] + 1:
            break
        time.sleep(0.5)
    assert rows["Fifteen Two"] == played["Fifteen Two"] + 1
    assert rows["Nineteen"] == played["Nineteen"] + 1
    status, game_now = call("GET", f"/api/games/{game['id']}/")
    assert len(game_now["deals"]) == len(deals)


def test_the_public_pages_and_the_tv_answer():
    for path in ("/", "/rules/", "/api/docs/"):
        request = urllib.request.Request(BASE + path)
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200


def test_the_browsers_request_for_the_site_icon_ends_on_pegboards():
    with urllib.request.urlopen(BASE + "/favicon.ico", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("image/svg+xml")
