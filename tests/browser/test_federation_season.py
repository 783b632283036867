"""A federation's week in a browser, in French on a phone: two clubs' nights and one sanctioned
event closed and sent up by their directors, a statistician sending the event back and then
approving all three once fixed; then the regional Grass Roots table, the national tables and
Ann's career page show the points worked out by hand below, at 390 px, nothing overflowing."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from federation.models import GrassRootsSchedule, PointsSchedule
from tests.browser.conftest import context_in, log_in
from tests.browser.layout import fits_at_widths, overflows
from tests.federation.conftest import (  # noqa: F401
    ACC,
    clubs,
    director,
    finished_event,
    regions,
    statistician,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
OVERFLOWS = overflows(scrolls=".table-scroll")
REVERSED = ["Hal", "Gus", "Flo", "Eve", "Dee", "Cy", "Bob", "Ann"]


def shipped_data() -> None:
    """A transactional test's database may have lost the migrations' rows: load them again."""
    if not PointsSchedule.objects.exists():
        importlib.import_module("federation.migrations.0002_default_schedule").load(apps, None)
    if not GrassRootsSchedule.objects.exists():
        importlib.import_module("federation.migrations.0004_shipped_federation_data").load(
            apps, None
        )


def test_two_nights_and_an_event_go_up_and_count_in_french_on_a_phone(
    live_server,
    browser,
    shot,
    clubs,  # noqa: F811
    regions,  # noqa: F811
    director,  # noqa: F811
    statistician,  # noqa: F811
):
    shipped_data()
    for user in (director, statistician):
        user.set_password("pass-word-123")
        user.save()
    # Crooked Peg (Atlantic): Ann beats everyone, 9 wins by 21: 18 game points, 18 GR points.
    east = finished_event(
        "Lundi au Crooked Peg", club=clubs[0], day=dt.date(2026, 9, 7), kind="club-night", games=9
    )
    # Skunk Line (Prairies): the order turned round: Hal 18 GR points, Ann none.
    west = finished_event(
        "Mardi au Skunk Line",
        club=clubs[1],
        day=dt.date(2026, 9, 8),
        kind="club-night",
        games=9,
        field=REVERSED,
    )
    # A consolation of 7 games at Skunk Line (minimum 9): Ann, champion and top-half qualifier,
    # 3 x (14 - 9 + 1) + 4 x 1 playoff win = 22 points; Bob, bottom half, a flat 3.
    event = finished_event(
        "Consolante d'automne", club=clubs[1], day=dt.date(2026, 9, 12), kind="consolation", games=7
    )
    base = live_server.url
    context = context_in(browser, live_server, "fr", viewport={"width": 390, "height": 844})
    page = context.new_page()

    log_in(page, live_server, director.username)
    for closed in (east, west, event):
        page.goto(f"{base}/direct/nights/{closed.pk}/")
        page.click("[data-send-up]")
        assert page.locator("[data-results-status=sent]").count() == 1

    log_in(page, live_server, statistician.username)
    page.goto(f"{base}/federation/review/")
    page.click("text=Consolante d'automne")
    page.fill("#reason", "Le numéro ACC de Hal ?")
    page.click("[data-send-back]")
    for name in ("Lundi au Crooked Peg", "Mardi au Skunk Line"):
        page.goto(f"{base}/federation/review/")
        page.click(f"text={name}")
        page.click("[data-approve]")

    log_in(page, live_server, director.username)
    page.goto(f"{base}/direct/nights/{event.pk}/")
    assert "Le numéro ACC de Hal ?" in page.locator("[data-sent-back]").inner_text()
    page.click("[data-send-up]")

    log_in(page, live_server, statistician.username)
    page.goto(f"{base}/federation/review/")
    page.click("text=Consolante d'automne")
    page.click("[data-approve]")

    prairies = regions[1].pk
    checks = {
        # The Prairies' Grass Roots table: Skunk Line's night only: Hal 18 first, Ann absent.
        "region-gr": (f"/federation/regions/{prairies}/grass-roots/", ACC["Hal"], "18"),
        # The national Grass Roots table: Ann 18 (Crooked Peg) and Hal 18 (Skunk Line).
        "national-gr": ("/federation/grass-roots/", ACC["Ann"], "18"),
        # The national points table: Ann's 22 from the consolation, National Champion.
        "national": ("/federation/", ACC["Ann"], "22"),
    }
    problems: dict[str, list[str]] = {}
    for name, (path, member, points) in checks.items():
        problems |= fits_at_widths(
            page,
            f"{base}{path}",
            widths=(390,),
            shot=shot,
            name=f"layout/federation-season-{name}-{{width}}-fr",
            measure=OVERFLOWS,
        )
        row = page.locator(f"[data-member='{member}']")
        assert points in row.inner_text(), name
    page.goto(f"{base}/federation/regions/{prairies}/grass-roots/")
    assert page.locator(f"[data-member='{ACC['Ann']}']").count() == 0
    assert "Classement national Grass Roots" in page.goto(f"{base}/federation/grass-roots/").text()
    page.goto(f"{base}/federation/")
    assert "Ann" in page.locator("[data-national-champion]").inner_text()

    # Ann's career: 22 points from 3 events, 18 Grass Roots points, 1,978 to Master.
    problems |= fits_at_widths(
        page,
        f"{base}/federation/members/{ACC['Ann']}/",
        widths=(390,),
        shot=shot,
        name="layout/federation-season-member-{width}-fr",
        measure=OVERFLOWS,
    )
    assert "22 points" in page.locator("[data-career-total]").inner_text()
    assert "18 points Grass Roots" in page.locator("[data-career-gr]").inner_text()
    assert "1978 points avant Maître" in page.locator("[data-title-progress]").inner_text()
    context.close()
    assert problems == {}
