"""A phone on a busy floor: when the server answers 503 or 429, or gives no answer in time, the
card waits on the phone and is sent again later, each wait longer than the last and never
shorter than the server's Retry-After, one send at a time; a card whose answer was lost is
stored once all the same (its key)."""

from __future__ import annotations

import itertools
import time

import pytest

from league.models import Player
from tests import factories
from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import Scorecard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Short figures for a test (the phone's own: 2 s doubling to 60 s, 20 s without an answer).
FAST = "window.PegboardOutboxSettings = {baseMs: 400, capMs: 4000, timeoutMs: 1500};"
CARDS = "**/api/tournament-tables/*/scorecards/"


@pytest.fixture
def table(db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

    director = factories.UserFactory(username="dora")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    night = services.tournament_create(user=director, name="Busy Night", draw_seed=5)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        services.entrant_register(user=director, tournament=night, name=name, check_in=True)
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
    return services.round_seat_next(user=director, tournament=night).games.get(table=1)


def _open_card(phone, live_server, table):
    page = phone.new_page()
    page.add_init_script(FAST)
    log_in(page, live_server, table.first.name.lower())
    page.goto(f"{live_server.url}/tournaments/tables/{table.pk}/scorecard/")
    page.check(f"input[name=winner][value='{table.first.pk}']")
    page.fill("#id_loser_score", "97")
    return page


def _stored(table) -> list[tuple]:
    return [(c.side_id, c.winner_id, c.loser_score) for c in Scorecard.objects.filter(game=table)]


def test_a_busy_server_is_asked_again_later_and_later_never_before_retry_after(
    live_server, phone, table, shot
):
    page = _open_card(phone, live_server, table)
    sent: list[float] = []  # when each post left the phone
    busy = [(503, "2"), (429, "1"), (503, None)]  # the server's first three answers

    def floor(route):
        sent.append(time.monotonic())
        if busy:
            status, retry_after = busy.pop(0)
            headers = {"Retry-After": retry_after} if retry_after else {}
            route.fulfill(
                status=status,
                headers=headers,
                content_type="application/json",
                body='{"detail": "Busy."}',
            )
        else:
            route.continue_()

    page.route(CARDS, floor)
    page.click("[data-scorecard] button[type=submit]")
    page.wait_for_selector('[data-card-status][data-busy="1"]:not([hidden])')
    assert "The server is busy" in page.inner_text("[data-card-status]")
    shot(page, "scorecard-busy-floor")

    page.wait_for_url(f"{live_server.url}/tournaments/*/", timeout=30_000)
    assert len(sent) == 4, sent  # three busy answers, then the card
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert gaps[0] >= 2.0, gaps  # Retry-After: 2
    assert gaps[1] >= 1.0, gaps  # Retry-After: 1 (the back-off's own wait is shorter)
    assert gaps[2] >= 0.8, gaps  # the third failure: at least half of 400 ms x 4
    assert _stored(table) == [(table.first.pk, table.first.pk, 97)]
    # The wait is over and forgotten: the next card would go at once.
    assert page.evaluate("() => localStorage.getItem('pegboard.outbox.backoff.v1')") is None


def test_no_answer_in_time_is_given_up_and_sent_again_once(live_server, phone, table):
    """The first send reaches the server, which stores the card, but its answer never comes
    back in time (a floor so slow the phone gives up): the phone waits, sends the card again
    with its key, and the server answers with the card it has; one card is stored."""
    page = _open_card(phone, live_server, table)
    sent: list[float] = []

    def slow(route):
        sent.append(time.monotonic())
        if len(sent) == 1:
            route.fetch()  # the server stores the card; its answer is lost (never fulfilled)
            return
        route.continue_()

    page.route(CARDS, slow)
    page.click("[data-scorecard] button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tournaments/*/", timeout=30_000)
    assert len(sent) == 2, sent
    assert sent[1] - sent[0] >= 1.5 + 0.2, sent  # the timeout, then at least half a wait
    assert _stored(table) == [(table.first.pk, table.first.pk, 97)]
    keys = {c.key for c in Scorecard.objects.filter(game=table)}
    assert len(keys) == 1 and None not in keys


def test_the_waits_double_to_a_cap_spread_at_random_and_honour_retry_after(
    live_server, phone, table
):
    """The figures behind the waits, as the phone draws them (2 s doubling to 60 s): each
    between half its ceiling and the whole, so phones told to wait together come back apart;
    never under the server's Retry-After."""
    page = phone.new_page()
    log_in(page, live_server, table.first.name.lower())
    page.goto(f"{live_server.url}/tournaments/tables/{table.pk}/scorecard/")
    draws = page.evaluate(
        """() => [1, 2, 3, 4, 5, 6, 7, 8].map((tries) =>
             Array.from({length: 200}, () => window.PegboardOutbox.waitAfter(tries, 0)))"""
    )
    for tries, waits in enumerate(draws, start=1):
        ceiling = min(60_000, 2000 * 2 ** (tries - 1))
        assert ceiling / 2 <= min(waits) and max(waits) <= ceiling, (tries, min(waits), max(waits))
        assert len(set(waits)) > 100, tries  # spread, not one figure for every phone
    told = page.evaluate(
        "() => Array.from({length: 200}, () => window.PegboardOutbox.waitAfter(1, 30))"
    )
    assert min(told) >= 30_000 and max(told) <= 36_000 and len(set(told)) > 100
