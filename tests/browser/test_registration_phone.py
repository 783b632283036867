"""Players register for a weekend's main event from a 390 px phone: two take the places, the
third goes on the waiting list, a duplicate is refused in words, the first withdraws through
the link in her confirmation mail, and the waiting player is promoted and told by mail; the
director then answers, pays and checks in from the list at 1024 px."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.browser.conftest import PHONE, context_in, log_in
from tests.browser.layout import OVERFLOWS
from tests.tournaments.conftest import director  # noqa: F401
from tournaments import services
from tournaments.models import EntrantStatus, LedgerEntry, LedgerKind, Registration
from tournaments.services import registration as reg

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def register(page, url: str, name: str, acc: str, *, email: str | None = None) -> None:
    page.goto(url)
    page.fill("#id_name", name)
    page.fill("#id_email", email or f"{name.lower()}@example.com")
    page.check("input[name=member_status][value=member]")
    page.fill("#id_acc_number", acc)
    page.click("[data-register-button]")
    page.wait_for_load_state()


def fits(page) -> None:
    assert page.evaluate(OVERFLOWS) == [], page.url


def link_in(message, live_server) -> str:
    """The player's own page, from the link in a mail (the site's address swapped for the
    test server's)."""
    path = re.search(r"https?://[^/\s]+(/tournaments/registration/[^/\s]+/)", message.body)
    assert path, message.body
    return live_server.url + path.group(1)


def test_register_wait_withdraw_and_promotion_on_a_phone(
    live_server,
    phone,
    browser,
    shot,
    director,  # noqa: F811
):
    event = services.tournament_create(
        user=director, name="Autumn Classic Main", kind="main", games_per_entrant=4
    )
    reg.desk_set(
        user=director,
        tournament=event,
        changes={"capacity": 2, "venue": "Legion Hall", "entry_fee": 2500},
    )
    url = f"{live_server.url}/tournaments/{event.pk}/event/"
    page = phone.new_page()
    page.goto(url)
    assert "0 of 2 taken" in page.inner_text("[data-places]")
    fits(page)
    shot(page, "registration-event-390")

    register(page, url, "Ann", "4101")
    assert page.inner_text("[data-status]") == "Your place is confirmed."
    assert "$25.00" in page.inner_text("[data-fee-state]")
    fits(page)
    register(page, url, "Bob", "4102")
    assert page.inner_text("[data-status]") == "Your place is confirmed."

    page.goto(url)
    assert page.is_visible("[data-full]")  # the form says it leads to the waiting list
    register(page, url, "Cy", "4103")
    assert page.inner_text("[data-status]") == "You are number 1 on the waiting list."
    fits(page)
    shot(page, "registration-waiting-390")

    register(page, url, "Annie", "4199", email="ANN@example.com")  # Ann again, another name
    assert "already registered for Autumn Classic Main" in page.inner_text("[data-error=email]")
    fits(page)
    page.goto(url)
    assert "2 of 2 taken" in page.inner_text("[data-places]")
    assert page.get_attribute("[data-waiting]", "data-waiting") == "1"

    # Ann withdraws through the link in her confirmation.
    confirmation = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    mail.outbox.clear()
    page.goto(link_in(confirmation, live_server))
    page.click("[data-withdraw]")
    page.wait_for_load_state()
    assert page.inner_text("[data-status]") == "You have withdrawn."
    assert not page.is_visible("[data-withdraw]")

    # Cy is promoted, told by mail, and her page says so.
    (told,) = [m for m in mail.outbox if m.to == ["cy@example.com"]]
    assert "a place came free and it is yours" in told.subject
    page.goto(link_in(told, live_server))
    assert page.inner_text("[data-status]") == "Your place is confirmed."
    shot(page, "registration-promoted-390")
    page.goto(url)
    assert "2 of 2 taken" in page.inner_text("[data-places]")
    assert page.get_attribute("[data-waiting]", "data-waiting") == "0"

    # The director, at a desk: Bob and Cy paid, checked in from the list.
    director.set_password("pass-word-123")
    director.save()
    desk = browser.new_context(viewport={"width": 1024, "height": 768}, service_workers="block")
    screen = desk.new_page()
    log_in(screen, live_server, director.username)
    screen.goto(f"{live_server.url}/direct/events/{event.pk}/registration/")
    assert screen.is_visible("[data-owed-by=Bob]") and screen.is_visible("[data-owed-by=Cy]")
    for name in ("Bob", "Cy"):
        screen.check(f"[data-accepted={name}] input[type=checkbox]")
    screen.click("[data-paid-button]")
    screen.wait_for_load_state()
    assert "2 entry fees recorded as paid." in screen.inner_text(".messages")
    for name in ("Bob", "Cy"):
        screen.check(f"[data-accepted={name}] input[type=checkbox]")
    screen.click("[data-check-in]")
    screen.wait_for_load_state()
    assert screen.is_visible("[data-accepted=Cy] [data-checked-in]")
    shot(screen, "registration-direct-1024")
    desk.close()

    # The event page, the player's page and the flyer fit the phone in French too.
    french = context_in(browser, live_server, "fr", viewport=PHONE)
    page = french.new_page()
    cy = Registration.objects.get(name="Cy")
    for path in (
        f"/tournaments/{event.pk}/event/",
        f"/tournaments/registration/{cy.token}/",
        f"/tournaments/{event.pk}/event/flyer/",
    ):
        page.goto(live_server.url + path)
        fits(page)
    shot(page, "registration-flyer-fr-390")
    french.close()
    assert LedgerEntry.objects.filter(tournament=event, kind=LedgerKind.FEE).count() == 2
    assert set(event.entrants.values_list("name", "status")) == {
        ("Ann", EntrantStatus.WITHDRAWN),
        ("Bob", EntrantStatus.CHECKED_IN),
        ("Cy", EntrantStatus.CHECKED_IN),
    }
    assert Registration.objects.get(name="Cy").status == "accepted"
