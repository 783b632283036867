"""A captain in a basement bar: the score-entry page, once opened, opens again with no signal
(the service worker keeps it), deals typed offline wait on the phone, and each is stored exactly
once when the signal returns."""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    log_in,
    pending,
    stored,
    type_deal,
    wait_for_next,
    wait_until_sent,
)
from tests.factories import game_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NETWORK = "() => fetch('/ping', {cache: 'no-store'}).then(() => 'online', () => 'offline')"


def test_the_entry_page_opens_in_airplane_mode_and_sends_each_deal_once(
    live_server, phone_with_worker, shot, game, ann
):
    deals = game_deals(game, seed=3)
    phone = phone_with_worker
    url = f"{live_server.url}/games/{game.pk}/enter/"
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(url)
    # The worker is installed and has kept this page for later.
    page.wait_for_selector("body[data-offline-ready]")
    page.wait_for_function(f"() => caches.match({url!r}).then(Boolean)")
    page.close()

    # Airplane mode, the tab closed: the page opens again, from the phone.
    phone.set_offline(True)
    page = phone.new_page()
    page.goto(url)
    assert page.evaluate(NETWORK) == "offline"  # really no network, for the worker too
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 1'"
    )
    assert "No connection: this is the copy of the page kept on this phone" in page.inner_text(
        "[data-sync-status]"
    )
    shot(page, "entry-airplane-mode")
    for number in (1, 2):
        type_deal(page, deals[number - 1])
        wait_for_next(page, number, len(deals))
    assert pending(page) == 2
    assert stored(game) == []

    # The signal returns: the outbox sends the two, once each.
    phone.set_offline(False)
    wait_until_sent(page, timeout=20_000)
    assert stored(game) == [1, 2]
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 3'"
    )
    assert stored(game) == [1, 2]
