"""Guessing passwords: five wrong ones lock that name at that address for a while, no more.

One bar's wifi is one address for every captain in it, so the lock is per name AND address:
the captain who fumbled her password is locked out, the other captains at the bar are not,
and nobody elsewhere can lock her out of her own phone.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client
from rest_framework.test import APIClient

from league.models import AuditEntry, Deal

BAR = "203.0.113.7"  # the bar's shared address
HOME = "198.51.100.20"
PASSWORD = "pass-word-123"
COOL_OFF = timedelta(minutes=15)


@pytest.fixture(autouse=True)
def _lockout_settings(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = COOL_OFF
    settings.AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]


def web_login(username: str, password: str, address: str) -> tuple[int, Client]:
    browser = Client()
    response = browser.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code, browser


def signed_in(browser: Client) -> bool:
    return "_auth_user_id" in browser.session


def api_login(username: str, password: str, address: str):
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def cool_off_passes() -> None:
    """Move every recorded failure back past the cool-off, as if the captain waited it out."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - COOL_OFF - timedelta(seconds=5))


# --- The web login form -------------------------------------------------------------------------


def test_five_wrong_passwords_lock_that_name_at_that_address_only(ann, cat):
    for attempt in range(4):
        status, browser = web_login("ann", "wrong", BAR)
        assert status == 200, attempt  # the form again, with its error
        assert not signed_in(browser)
    status, _ = web_login("ann", "wrong", BAR)
    assert status == 429

    # Ann, even with the right password, from the bar: refused, with a sentence.
    browser = Client()
    response = browser.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
    )
    assert response.status_code == 429
    assert b"too many login attempts" in response.content.lower()
    assert not signed_in(browser)

    # Cat, at the same bar: fine. Ann from home: fine.
    status, browser = web_login("cat", PASSWORD, BAR)
    assert status == 302 and signed_in(browser)
    status, browser = web_login("ann", PASSWORD, HOME)
    assert status == 302 and signed_in(browser)


def test_after_the_cool_off_the_locked_name_can_log_in_again(ann):
    for _ in range(5):
        web_login("ann", "wrong", BAR)
    assert web_login("ann", PASSWORD, BAR)[0] == 429

    cool_off_passes()

    status, browser = web_login("ann", PASSWORD, BAR)
    assert status == 302 and signed_in(browser)


def test_four_wrong_passwords_then_the_right_one_start_the_count_again(ann):
    for _ in range(4):
        web_login("ann", "wrong", BAR)
    status, browser = web_login("ann", PASSWORD, BAR)
    assert status == 302 and signed_in(browser)
    for _ in range(4):
        assert web_login("ann", "wrong", BAR)[0] == 200
    assert web_login("ann", PASSWORD, BAR)[0] == 302


def test_wrong_passwords_for_a_name_nobody_has_lock_only_that_name(ann):
    for _ in range(6):
        web_login("nobody", "wrong", BAR)
    assert web_login("nobody", "wrong", BAR)[0] == 429
    status, browser = web_login("ann", PASSWORD, BAR)
    assert status == 302 and signed_in(browser)


# --- The API's token endpoint -------------------------------------------------------------------


def test_the_token_endpoint_locks_the_same_way_and_says_so(ann, cat):
    for _ in range(4):
        response = api_login("ann", "wrong", BAR)
        assert response.status_code == 400
        assert "token" not in response.json()
    locked = api_login("ann", "wrong", BAR)
    assert locked.status_code == 429

    response = api_login("ann", PASSWORD, BAR)
    assert response.status_code == 429
    body = response.json()
    assert "token" not in body
    assert body["code"] == "locked_out"
    assert "too many login attempts" in body["detail"].lower()
    assert int(response.headers["Retry-After"]) == COOL_OFF.total_seconds()

    assert "token" in api_login("cat", PASSWORD, BAR).json()
    assert "token" in api_login("ann", PASSWORD, HOME).json()

    cool_off_passes()
    assert "token" in api_login("ann", PASSWORD, BAR).json()


def test_failures_on_the_web_and_the_api_add_up(ann):
    for _ in range(3):
        web_login("ann", "wrong", BAR)
    for _ in range(2):
        api_login("ann", "wrong", BAR)
    assert web_login("ann", PASSWORD, BAR)[0] == 429
    assert api_login("ann", PASSWORD, BAR).status_code == 429


def test_a_locked_out_login_changes_no_league_data(ann, game):
    before = (Deal.objects.count(), AuditEntry.objects.count())
    for _ in range(7):
        api_login("ann", "wrong", BAR)
        web_login("ann", "wrong", BAR)
    assert (Deal.objects.count(), AuditEntry.objects.count()) == before


def test_behind_nginx_the_address_is_the_one_nginx_saw(ann, cat, settings):
    """In production every request reaches Django from nginx; X-Real-IP names the client."""
    settings.PEGBOARD_TRUSTED_PROXIES = ["172.16.0.0/12"]
    nginx = "172.18.0.5"
    for _ in range(5):
        APIClient().post(
            "/api/auth/token/",
            {"username": "ann", "password": "wrong"},
            format="json",
            REMOTE_ADDR=nginx,
            HTTP_X_REAL_IP=BAR,
        )
    at_bar = APIClient().post(
        "/api/auth/token/",
        {"username": "ann", "password": PASSWORD},
        format="json",
        REMOTE_ADDR=nginx,
        HTTP_X_REAL_IP=BAR,
    )
    assert at_bar.status_code == 429
    at_home = APIClient().post(
        "/api/auth/token/",
        {"username": "ann", "password": PASSWORD},
        format="json",
        REMOTE_ADDR=nginx,
        HTTP_X_REAL_IP=HOME,
    )
    assert at_home.status_code == 200


# --- Someone at the same bar cannot lock a captain out of her own phone ------------------------


def ann_phone() -> Client:
    """Ann's phone: it signed in as Ann once (and so carries her device cookie)."""
    phone = Client()
    response = phone.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
    )
    assert response.status_code == 302
    phone.post("/accounts/logout/", REMOTE_ADDR=BAR)
    assert "pegboard_device" in phone.cookies
    return phone


def test_wrong_passwords_from_the_bar_do_not_lock_the_right_one_out_of_her_own_phone(ann):
    phone = ann_phone()
    for _ in range(6):
        web_login("ann", "guess", BAR)  # someone else at the bar, guessing
    assert web_login("ann", PASSWORD, BAR)[0] == 429  # a new browser at the bar: locked

    response = phone.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
    )
    assert response.status_code == 302 and signed_in(phone)


def test_her_own_phone_gets_no_extra_guesses(ann):
    phone = ann_phone()
    for _ in range(5):
        web_login("ann", "guess", BAR)
    wrong = phone.post("/accounts/login/", {"username": "ann", "password": "x"}, REMOTE_ADDR=BAR)
    assert wrong.status_code == 429
    assert not signed_in(phone)


def test_a_device_cookie_is_for_one_name_only(ann, cat):
    phone = ann_phone()
    for _ in range(5):
        web_login("cat", "guess", BAR)
    as_cat = phone.post(
        "/accounts/login/", {"username": "cat", "password": PASSWORD}, REMOTE_ADDR=BAR
    )
    assert as_cat.status_code == 429


def test_the_app_gets_its_device_cookie_with_its_token(ann):
    app = APIClient()
    token = app.post(
        "/api/auth/token/",
        {"username": "ann", "password": PASSWORD},
        format="json",
        REMOTE_ADDR=BAR,
    )
    assert token.status_code == 200 and "pegboard_device" in app.cookies
    for _ in range(5):
        api_login("ann", "guess", BAR)
    again = app.post(
        "/api/auth/token/",
        {"username": "ann", "password": PASSWORD},
        format="json",
        REMOTE_ADDR=BAR,
    )
    assert again.status_code == 200 and "token" in again.json()


def test_x_real_ip_from_anyone_but_the_proxy_is_ignored(ann, settings):
    """Talking to gunicorn directly, a guesser cannot rotate addresses with X-Real-IP."""
    settings.PEGBOARD_TRUSTED_PROXIES = ["172.16.0.0/12"]
    for n in range(5):
        APIClient().post(
            "/api/auth/token/",
            {"username": "ann", "password": "guess"},
            format="json",
            REMOTE_ADDR=BAR,
            HTTP_X_REAL_IP=f"198.51.100.{n + 1}",
        )
    assert api_login("ann", PASSWORD, BAR).status_code == 429
