"""Security review, M1: an offline entry belongs to whoever typed it.

One shared phone at the bar: Ann (fay, in the issue) types a deal with no signal, her session
ends, and Cat (kim), captain of the other team, signs in on the same phone. Cat's session must
not send Ann's deal as Cat's: it waits for Ann, and Cat sees so, with a way to discard it. And
logging out with entries waiting asks what to do with them.
"""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from league.models import Deal
from tests.browser.conftest import log_in, pending, stored, type_deal
from tests.factories import game_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTBOX = "() => JSON.parse(localStorage.getItem('pegboard.outbox.v1') || '[]')"


def deal_typed_offline(page, phone, live_server, game) -> None:
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 1'"
    )
    phone.set_offline(True)
    type_deal(page, game_deals(game, seed=3)[0])
    page.wait_for_selector('[data-sync-status][data-pending="1"]')
    assert pending(page) == 1


def log_out(page) -> None:
    page.click("form[data-logout] button")


def test_the_next_player_on_the_phone_never_sends_the_deal_as_theirs(
    live_server, phone, shot, game, ann, cat
):
    page = phone.new_page()
    log_in(page, live_server, "ann")
    deal_typed_offline(page, phone, live_server, game)

    # Ann's session ends (it expired, or she was signed out elsewhere); the signal returns.
    Session.objects.all().delete()
    phone.set_offline(False)

    # Cat signs in on the same phone: Ann's deal waits for Ann, and Cat is told so.
    log_in(page, live_server, "cat")
    page.wait_for_timeout(6_000)  # longer than the outbox's retry
    assert stored(game) == []  # before the fix: stored, as entered by Cat
    notice = page.locator("[data-outbox-others]")
    assert notice.is_visible()
    assert "waiting for ann to sign in again" in notice.inner_text()
    shot(page, "outbox-waiting-for-its-typist")

    # Ann signs in again: her deal is sent, as hers.
    log_out(page)
    page.wait_for_selector("a[href^='/accounts/login/']")
    log_in(page, live_server, "ann")
    page.wait_for_function(f"() => ({OUTBOX})().length === 0", timeout=15_000)
    assert stored(game) == [1]
    assert Deal.objects.get(game=game, number=1).entered_by == ann


def test_the_server_refuses_an_entry_sent_in_someone_elses_session(client, game, ann, cat):
    """The browser is not trusted alone: a tab still open from before sends as its typist."""
    client.force_login(cat)
    response = client.post(
        f"/api/games/{game.pk}/deals/",
        {"number": 1},
        content_type="application/json",
        HTTP_X_PEGBOARD_TYPIST=str(ann.pk),
    )
    assert response.status_code == 409
    assert response.json()["code"] == "typist_signed_out"
    assert stored(game) == []


def test_logging_out_asks_and_keeps_the_entry_for_its_typist(
    live_server, phone, shot, game, ann, cat
):
    page = phone.new_page()
    log_in(page, live_server, "ann")
    deal_typed_offline(page, phone, live_server, game)
    page.route("**/api/games/*/deals/", lambda route: route.abort())  # still no signal to the API
    phone.set_offline(False)

    log_out(page)
    dialog = page.locator("[data-logout-dialog]")
    dialog.wait_for(state="visible")
    assert "1 score entry typed on this phone is not sent yet" in dialog.inner_text()
    shot(page, "logout-asks-about-waiting-entries")
    page.click("[data-logout-choice=keep]")
    page.wait_for_selector("a[href^='/accounts/login/']")
    assert [e["owner"]["name"] for e in page.evaluate(OUTBOX)] == ["ann"]

    # Cat signs in, sees it waiting for Ann, and discards it.
    page.unroute("**/api/games/*/deals/")
    log_in(page, live_server, "cat")
    page.locator("[data-outbox-others]").wait_for(state="visible")
    page.on("dialog", lambda d: d.accept())
    page.click("[data-outbox-discard-owner]")
    page.wait_for_function(f"() => ({OUTBOX})().length === 0")
    assert page.locator("[data-outbox-others]").is_hidden()
    assert stored(game) == []


def test_logging_out_can_send_the_waiting_entries_first(live_server, phone, game, ann):
    page = phone.new_page()
    log_in(page, live_server, "ann")
    deal_typed_offline(page, phone, live_server, game)
    page.route("**/api/games/*/deals/", lambda route: route.abort())
    phone.set_offline(False)
    page.wait_for_timeout(500)

    log_out(page)
    page.locator("[data-logout-dialog]").wait_for(state="visible")
    page.unroute("**/api/games/*/deals/")
    page.click("[data-logout-choice=send]")
    page.wait_for_selector("a[href^='/accounts/login/']")
    assert stored(game) == [1]
    assert Deal.objects.get(game=game, number=1).entered_by == ann
