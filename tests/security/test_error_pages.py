"""When something breaks, visitors get a plain page (or JSON under /api/), never a traceback."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.security.urls_boom import SECRET

LEAKS = ["Traceback", "Boom", "hunter2", 'File "', "/srv/pegboard", "SECRET_KEY", "settings"]


@pytest.fixture
def browser(settings, db) -> Client:
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.security.urls_boom"
    return Client(raise_request_exception=False)


def assert_no_leak(content: bytes) -> None:
    text = content.decode()
    for leak in LEAKS:
        assert leak not in text, leak


def test_a_page_that_fails_shows_a_plain_error_page(browser):
    response = browser.get("/boom/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    assert b"Something went wrong" in response.content
    assert_no_leak(response.content)


def test_an_api_call_that_fails_answers_json_without_a_traceback(browser):
    response = browser.get("/api/boom/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "detail": "Something went wrong on the server. Try again in a moment.",
        "code": "server_error",
    }
    assert_no_leak(response.content)


def test_an_api_view_that_fails_answers_json_without_a_traceback(browser, season, monkeypatch):
    def broken(season):
        raise RuntimeError(SECRET)

    monkeypatch.setattr("league.api.views.standings_for_season", broken)
    response = browser.get(f"/api/seasons/{season.pk}/standings/")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert_no_leak(response.content)


def test_an_unknown_page_is_a_plain_404(browser):
    response = browser.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Page not found" in response.content
    assert_no_leak(response.content)


def test_an_unknown_api_address_is_a_json_404(browser):
    response = browser.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_an_unknown_api_object_is_a_json_404(browser):
    response = browser.get("/api/games/999999/")
    assert response.status_code == 404
    assert response.json()["detail"]
