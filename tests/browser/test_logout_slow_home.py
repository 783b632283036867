"""Security review, L7: logging out while the home page is slow (longer than the service worker's
4 s patience) must not bring back the signed-in home page the worker kept, nor leave any of the
player's pages in the phone's caches."""

from __future__ import annotations

import time

import pytest

import league.views.pages as pages
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_logging_out_while_the_home_page_is_slow_leaves_nothing_signed_in(
    live_server, phone_with_worker, shot, monkeypatch, ann
):
    page = phone_with_worker.new_page()
    log_in(page, live_server, "ann")
    page.wait_for_selector("body[data-offline-ready]")  # the worker kept the signed-in home page
    assert page.evaluate(f"() => caches.match({live_server.url + '/'!r}).then(Boolean)")

    slow = pages.my_open_matches

    def slowly(*args, **kwargs):
        time.sleep(6)
        return slow(*args, **kwargs)

    monkeypatch.setattr(pages, "my_open_matches", slowly)
    page.click("form[action$='/logout/'] button")
    page.wait_for_selector("a[href^='/accounts/login/']", timeout=20_000)
    page.wait_for_load_state("load")
    page.wait_for_timeout(1_000)
    assert page.locator("body[data-signed-in]").count() == 0
    assert "Log out" not in page.inner_text("header")
    assert page.evaluate("() => caches.keys().then(keys => keys.length)") == 0
    assert (
        page.evaluate("() => navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    )
    shot(page, "logged-out-after-a-slow-home-page")
