"""The locked-out phone: "email me a sign-in link" on the locked log-in page.

Someone at the bar typed five wrong passwords for Ann, so her name is locked at the bar's shared
address; her phone never signed in before, so it has no device cookie. She asks for a link by
email, opens it on that phone and is in; from then on her password works there too.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from league.services import signin_links

BAR = "203.0.113.7"
PASSWORD = "pass-word-123"
LINK = re.compile(r"https?://[^\s]+/sign-in/link/([^\s/]+)/")


@pytest.fixture(autouse=True)
def _lockout_settings(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
    settings.PEGBOARD_SIGNIN_LINK_MINUTES = 15
    settings.PEGBOARD_SIGNIN_LINKS_PER_HOUR = 3


@pytest.fixture(autouse=True)
def _fresh_throttle():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def ann_with_email(ann):
    ann.email = "ann@example.org"
    ann.save()
    return ann


def lock_out(username: str) -> None:
    for _ in range(5):
        Client().post(
            "/accounts/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=BAR
        )


def ask_for_link(phone: Client, identifier: str, capture, address: str = BAR):
    with capture(execute=True):
        return phone.post(
            "/sign-in/link/", {"identifier": identifier}, REMOTE_ADDR=address, follow=True
        )


def token_in_mail() -> str:
    assert len(mail.outbox) == 1, [m.subject for m in mail.outbox]
    match = LINK.search(mail.outbox[0].body)
    assert match, mail.outbox[0].body
    return match.group(1)


def signed_in_as(phone: Client, user) -> bool:
    return phone.session.get("_auth_user_id") == str(user.pk)


def test_the_locked_phone_gets_a_link_and_is_in(ann_with_email, django_capture_on_commit_callbacks):
    lock_out("ann")
    phone = Client()
    locked = phone.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR
    )
    assert locked.status_code == 429
    assert b"too many login attempts" in locked.content.lower()
    assert b"Email me a sign-in link" in locked.content  # the way out is on the locked page

    response = ask_for_link(phone, "ann", django_capture_on_commit_callbacks)
    assert b"Check your email" in response.content
    assert mail.outbox[0].to == ["ann@example.org"]
    token = token_in_mail()

    page = phone.get(f"/sign-in/link/{token}/", REMOTE_ADDR=BAR)
    assert page.status_code == 200 and b"ann" in page.content
    assert not signed_in_as(phone, ann_with_email)  # opening the mail alone signs nobody in

    response = phone.post(f"/sign-in/link/{token}/", REMOTE_ADDR=BAR)
    assert response.status_code == 302
    assert signed_in_as(phone, ann_with_email)
    assert "pegboard_device" in response.cookies  # her phone is known from now on

    # The lockout for her name is cleared: her password works at the bar again.
    again = Client()
    ok = again.post("/accounts/login/", {"username": "ann", "password": PASSWORD}, REMOTE_ADDR=BAR)
    assert ok.status_code == 302


def test_the_link_can_be_asked_for_by_email_address(
    ann_with_email, django_capture_on_commit_callbacks
):
    ask_for_link(Client(), "ANN@example.org", django_capture_on_commit_callbacks)
    assert mail.outbox[0].to == ["ann@example.org"]


def test_a_link_works_once(ann_with_email, django_capture_on_commit_callbacks):
    ask_for_link(Client(), "ann", django_capture_on_commit_callbacks)
    token = token_in_mail()
    first = Client()
    assert first.post(f"/sign-in/link/{token}/").status_code == 302
    second = Client()
    response = second.post(f"/sign-in/link/{token}/")
    assert response.status_code == 400
    assert b"already used" in response.content
    assert not signed_in_as(second, ann_with_email)


def test_an_expired_link_is_refused_with_a_clear_message(
    ann_with_email, django_capture_on_commit_callbacks, monkeypatch
):
    ask_for_link(Client(), "ann", django_capture_on_commit_callbacks)
    token = token_in_mail()
    later = timezone.now().timestamp() + 16 * 60
    monkeypatch.setattr(signing.time, "time", lambda: later)
    phone = Client()
    response = phone.post(f"/sign-in/link/{token}/")
    assert response.status_code == 400
    assert b"too old" in response.content and b"15 minutes" in response.content
    assert not signed_in_as(phone, ann_with_email)


def test_a_tampered_link_is_refused_with_a_clear_message(
    ann_with_email, cat, django_capture_on_commit_callbacks
):
    ask_for_link(Client(), "ann", django_capture_on_commit_callbacks)
    token = token_in_mail()
    forged = signing.dumps({"u": cat.pk, "l": ""}, salt="someone-else", compress=True)
    for bad in (token[:-3] + "abc", forged):
        phone = Client()
        response = phone.post(f"/sign-in/link/{bad}/")
        assert response.status_code == 400
        assert b"not one we sent" in response.content
        assert "_auth_user_id" not in phone.session


def test_the_answer_is_the_same_whether_or_not_the_account_exists(
    ann_with_email, cat, django_capture_on_commit_callbacks
):
    """No enumeration: an account with an email, one without (Cat), and no account at all get
    the same page; only the first gets a mail."""
    pages = []
    for who in ("ann", "cat", "nobody-here"):
        response = ask_for_link(
            Client(), who, django_capture_on_commit_callbacks, f"10.0.0.{len(pages)}"
        )
        pages.append((response.status_code, response.content.replace(who.encode(), b"")))
    assert pages[0] == pages[1] == pages[2]
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


def test_links_are_throttled_per_account_and_per_address(
    ann_with_email, django_capture_on_commit_callbacks
):
    for n in range(5):  # from five addresses: only three mails for Ann in the hour
        ask_for_link(Client(), "ann", django_capture_on_commit_callbacks, f"198.51.100.{n}")
    assert len(mail.outbox) == 3

    mail.outbox.clear()
    signin_links.cache.clear()
    for n in range(5):  # from one address, whatever the name: three requests an hour
        name = "ann" if n == 4 else f"someone{n}"
        response = ask_for_link(Client(), name, django_capture_on_commit_callbacks)
        assert b"Check your email" in response.content  # the same answer when throttled
    assert mail.outbox == []


def test_a_link_request_with_nothing_typed_changes_nothing(django_capture_on_commit_callbacks, db):
    response = ask_for_link(Client(), "   ", django_capture_on_commit_callbacks)
    assert response.status_code == 200
    assert mail.outbox == []
