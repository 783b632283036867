""" "Get notifications on this phone" never hangs without a word: when the phone's service
worker does not answer, the page says so and what to try, and the button can be tapped again."""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in

# It waits out the phone's bounded wait (15 s): make test-slow and CI run it.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_phone_that_does_not_answer_gets_a_sentence_not_a_hang(
    live_server, phone_with_worker, ann, settings
):
    from league.kernel.push import vapid_pair_new

    pair = vapid_pair_new()
    settings.PEGBOARD_VAPID_PUBLIC_KEY = pair["public"]
    settings.PEGBOARD_VAPID_PRIVATE_KEY = pair["private"]
    phone = phone_with_worker
    phone.route("**/sw.js", lambda route: None)  # the worker's script never comes
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/notifications/")
    status = page.locator("[data-push-status]")
    status.filter(has_text="This phone did not answer").wait_for(timeout=25_000)
    assert page.locator("[data-push-toggle]").is_visible()
