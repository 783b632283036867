"""A player's phone gets a push and a tap opens the game to confirm: the service worker's push
handler is driven with a test message (Chrome's DevTools, as a push service would deliver it),
shows the notification, and its click takes the player's window to the game's page."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import log_in
from tests.factories import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_push_shows_and_its_tap_lands_on_the_game_to_confirm(
    live_server, phone_with_worker, shot, game, ann, cat
):
    play_until_over(game, ann)
    phone = phone_with_worker
    phone.grant_permissions(["notifications"], origin=live_server.url)
    page = phone.new_page()
    log_in(page, live_server, "cat")
    page.goto(f"{live_server.url}/notifications/")
    # A page whose navigation began while the worker was still installing is never claimed
    # (the worker's clients.claim() ran before the page existed), and a busy machine can make
    # an install fail outright; as on a phone, the next visit to the page is under the worker.
    for visit in range(3):
        try:
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            break
        except PlaywrightTimeout:
            if visit == 2:
                raise
            page.reload()
    cdp = phone.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(
            r["registrationId"]
            for r in event["registrations"]
            if r["scopeURL"].startswith(live_server.url) and not r.get("isDeleted")
        ),
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        if registrations:
            break
        page.wait_for_timeout(100)
    assert registrations, "the page's service worker is registered"
    message = {
        "title": "[Thursday Doubles] A result waits for your confirmation",
        "body": "Fifteen Two v Nobs (week 1), game 1 is over.",
        "url": f"/games/{game.pk}/",
        "tag": "result_to_confirm:test",
    }
    [worker] = phone.service_workers
    shown = None
    # A push service retries a message its worker did not take; so does this one, on a busy
    # machine, where a worker just started may miss the first. The tag makes a second delivery
    # replace the first notification, never add to it.
    for _attempt in range(4):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": registrations[-1],
                "data": json.dumps(message),
            },
        )
        for _ in range(40):
            shown = worker.evaluate(
                "() => self.registration.getNotifications()"
                ".then(n => n.map(x => [x.title, x.body, x.data.url]))"
            )
            if shown:
                break
            page.wait_for_timeout(100)
        if shown:
            break
    assert shown == [[message["title"], message["body"], message["url"]]]
    # The tap: the worker's notificationclick handler with the notification it showed.
    worker.evaluate(
        """() => self.registration.getNotifications().then(([n]) =>
            self.dispatchEvent(new NotificationEvent("notificationclick", {notification: n})))"""
    )
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("form[action$='/confirm/'] button").first.is_visible()
    shot(page, "push-tap-lands-on-the-game", full_page=False)
