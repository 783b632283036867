"""The tournament TV redraws itself when a result is entered elsewhere: no reload, within the
five seconds a TV may lag, by polling the tournament's version (and doing nothing while it
stands still)."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import TV
from tests.tournaments.conftest import director, field, night, user_of  # noqa: F401
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_tv_shows_a_verified_result_without_a_reload(
    live_server,
    browser,
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    version_polls: list[int] = []
    page.on(
        "response",
        lambda r: version_polls.append(r.status) if r.url.endswith("/version/") else None,
    )
    page.goto(f"{live_server.url}/tournaments/{night.pk}/tv/")
    page.evaluate("window.__sameDocument = true")
    first_row = page.locator("[data-seating] tbody tr").first
    assert game.first.name in first_row.inner_text()
    page.wait_for_timeout(5_500)  # two polls while nothing changes: empty 304s, no redraw
    assert len(version_polls) >= 2 and set(version_polls) == {304}, version_polls

    for side in (game.first, game.second):
        services.scorecard_enter(user=user_of(side), game=game, winner=game.first, loser_score=97)
    started = time.monotonic()
    page.wait_for_function(
        "want => document.querySelector('[data-seating] tbody tr').innerText.includes(want)",
        arg=f"{game.first.name} (97)",
        timeout=5_000,
    )
    assert time.monotonic() - started < 5
    assert page.evaluate("window.__sameDocument") is True  # redrawn in place, not reloaded
    context.close()
