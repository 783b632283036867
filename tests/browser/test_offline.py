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


@pytest.fixture
def tonights_games(game, ann, season, home_team, away_team):
    """Ann's two games to play: game 1 of week 1 and game 1 of the return match in week 2."""
    from league.services.games import game_start
    from tests import factories

    week = factories.WeekFactory(season=season, number=2)
    again = factories.MatchFactory(week=week, home=away_team, away=home_team)
    other = game_start(match=again, user=ann, seats=["Cat", "Ann", "Dan", "Bob"], first_dealer=1)
    return [game, other]


def test_tonights_games_open_offline_after_only_the_home_page_was_seen(
    live_server, phone_with_worker, shot, tonights_games, ann
):
    """The captain opened the home page at home; it said tonight's games were kept only once
    the worker had stored each one. In the bar, with no signal, each game opens from the
    phone, and signing out leaves nothing of them behind."""
    phone = phone_with_worker
    urls = [f"{live_server.url}/games/{g.pk}/enter/" for g in tonights_games]
    page = phone.new_page()
    log_in(page, live_server, "ann")
    links = page.eval_on_selector_all(
        "[data-keep-offline][href$='/enter/']", "links => links.map(a => a.href)"
    )
    assert links == urls
    # The page says so only when the worker has answered that every page is stored.
    page.wait_for_function(
        "() => document.querySelector('[data-offline-status]').textContent"
        ".includes('kept for offline use')",
        timeout=30_000,
    )
    assert page.get_attribute("[data-offline-status]", "role") == "status"
    for url in urls:  # what it said is true: each page is on the phone
        assert page.evaluate(f"() => caches.match({url!r}, {{ignoreVary: true}}).then(Boolean)")
    shot(page, "home-kept-for-offline-use")
    page.close()

    phone.set_offline(True)
    for number, url in enumerate(urls):
        page = phone.new_page()
        page.goto(url)
        assert page.evaluate(NETWORK) == "offline"  # really no network, for the worker too
        page.wait_for_function(
            "() => document.querySelector('[data-deal-title]').textContent === 'Deal 1'"
        )
        assert "No connection: this is the copy of the page kept on this phone" in (
            page.inner_text("[data-sync-status]")
        ), number
        page.close()
    phone.set_offline(False)

    # Signing out empties the phone's copies.
    page = phone.new_page()
    page.goto(f"{live_server.url}/")
    page.click("form[action$='/logout/'] button")
    page.wait_for_function("() => caches.keys().then(keys => keys.length === 0)")
