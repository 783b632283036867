"""M4: a device cookie is not a password oracle.

A phone that signed in as Ann may let her right password through a lockout caused by someone
else, but its own wrong guesses count and lock the device cookie itself (OWASP's device-cookie
guidance), and a new password or "sign out everywhere" revokes it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import KnownDevice

BAR = "203.0.113.7"
PASSWORD = "pass-word-123"


@pytest.fixture(autouse=True)
def _lockout_settings(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]


def login(browser: Client, password: str) -> int:
    return browser.post(
        "/accounts/login/", {"username": "ann", "password": password}, REMOTE_ADDR=BAR
    ).status_code


def ann_phone() -> Client:
    phone = Client()
    assert login(phone, PASSWORD) == 302
    phone.post("/accounts/logout/", REMOTE_ADDR=BAR)
    assert "pegboard_device" in phone.cookies
    return phone


def lock_ann_at_the_bar() -> None:
    for _ in range(6):
        login(Client(), "guess")
    assert login(Client(), PASSWORD) == 429


def test_a_stolen_device_cookie_gets_no_more_guesses_than_a_stranger(ann):
    phone = ann_phone()
    lock_ann_at_the_bar()
    for n in range(5):
        assert login(phone, f"guess-{n}") == 429
    # The right password now: the device locked itself with its own wrong guesses.
    assert login(phone, PASSWORD) == 429
    assert "_auth_user_id" not in phone.session


def test_the_device_cookie_counts_its_guesses_over_the_api_too(ann):
    app = APIClient()
    assert (
        app.post(
            "/api/auth/token/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
        ).status_code
        == 200
    )
    lock_ann_at_the_bar()
    for n in range(5):
        app.post("/api/auth/token/", {"username": "ann", "password": f"g{n}"}, REMOTE_ADDR=BAR)
    right = app.post("/api/auth/token/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR)
    assert right.status_code == 429


def test_a_few_fumbles_from_her_own_phone_still_let_her_in(ann):
    phone = ann_phone()
    lock_ann_at_the_bar()
    for n in range(3):
        login(phone, f"fumble-{n}")
    assert login(phone, PASSWORD) == 302


def test_a_new_password_revokes_the_device_cookie(ann):
    phone = ann_phone()
    user = get_user_model().objects.get(username="ann")
    user.set_password("a-new-pass-word-456")
    user.save()
    lock_ann_at_the_bar()
    assert (
        phone.post(
            "/accounts/login/",
            {"username": "ann", "password": "a-new-pass-word-456"},
            REMOTE_ADDR=BAR,
        ).status_code
        == 429
    )
    assert not KnownDevice.objects.filter(user=user).exists()


def test_sign_out_everywhere_revokes_sessions_tokens_and_device_cookies(ann):
    lost_phone = Client()
    assert login(lost_phone, PASSWORD) == 302
    app = APIClient()
    token = app.post(
        "/api/auth/token/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
    ).json()["token"]
    laptop = Client()
    assert login(laptop, PASSWORD) == 302

    page = laptop.get("/sign-out/everywhere/")
    assert page.status_code == 200
    assert laptop.post("/sign-out/everywhere/").status_code == 302

    assert "_auth_user_id" not in lost_phone.session
    assert lost_phone.get("/sign-out/everywhere/").status_code == 302  # back to log in
    assert not Token.objects.filter(key=token).exists()
    lock_ann_at_the_bar()
    assert login(lost_phone, PASSWORD) == 429  # its device cookie no longer passes the lock
