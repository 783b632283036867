"""The venue's TV page updates by itself while deals are entered elsewhere."""

from __future__ import annotations

import time

import pytest

from league.services.games import deal_record
from tests.browser.conftest import TV
from tests.factories import game_deals, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_scoreboard_follows_the_game_without_a_reload(
    live_server, browser, shot, venue_week, game, ann
):
    deals = game_deals(game)
    play(game, ann, deals=2)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
    figure = page.locator("#boards figure").first
    game.refresh_from_db()
    assert figure.get_attribute("class") == "board board--tv"
    label = page.get_attribute("#boards svg", "aria-label")
    assert label == f"Fifteen Two {game.home_score}, Nobs {game.away_score}"
    page.evaluate("window.__sameDocument = true")

    for number in (3, 4):
        deal = {k: v for k, v in deals[number - 1].items() if k != "cards"}
        deal_record(game=game, user=ann, number=number, data=deal)
        game.refresh_from_db()
        want = f"Fifteen Two {game.home_score}, Nobs {game.away_score}"
        started = time.monotonic()
        page.wait_for_function(
            "want => document.querySelector('#boards svg').getAttribute('aria-label') === want",
            arg=want,
            timeout=5_000,
        )
        assert time.monotonic() - started < 5
    assert page.evaluate("window.__sameDocument") is True  # no reload
    shot(page, "scoreboard-tv", full_page=False)

    for number in range(5, len(deals) + 1):
        deal_record(game=game, user=ann, number=number, data=deals[number - 1])
    page.wait_for_selector(".tv-result", timeout=5_000)
    game.refresh_from_db()
    assert f"{game.winner.name} win by {game.margin}" in page.inner_text(".tv-result")
    shot(page, "scoreboard-tv-finished", full_page=False)
    context.close()
