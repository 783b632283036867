"""The ACC report pages (a night's, a season's Player of the year) fit a 360 px phone and a
1920 px screen in English and French: the wide table scrolls inside its own box."""

from __future__ import annotations

import pytest

from tests.browser.conftest import context_in
from tests.browser.layout import fits_at_widths, overflows
from tests.tournaments.conftest import TRUSTED, director, finished_night  # noqa: F401
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A wide table scrolls sideways inside its own box (and only there).
OVERFLOWS = overflows(scrolls=".table-scroll")


def test_the_reports_fit_a_phone_and_a_screen(
    live_server,
    browser,
    shot,
    director,  # noqa: F811
):
    director.set_password("pass-word-123")
    director.save()
    club = services.club_create(user=TRUSTED, name="Crooked Peg ACC Club")
    club.directors.add(director)  # a club's reports are its own directors' to read
    season = services.club_season_create(user=TRUSTED, club=club, name="Winter 2026")
    night = finished_night(
        "Night 1", ["Ann Longname-Cribbage", "Bob", "Cy", "Dee", "Eve"], season=season
    )
    urls = {
        "night-report": f"{live_server.url}/tournaments/{night.pk}/report/",
        "season-report": f"{live_server.url}/tournaments/clubs/seasons/{season.pk}/report/",
    }
    problems = {}
    for language in ("en", "fr"):
        context = context_in(browser, live_server, language)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", director.username)
        page.fill("#id_password", "pass-word-123")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        for name, url in urls.items():
            problems |= fits_at_widths(
                page,
                url,
                widths=(360, 1920),
                shot=shot,
                name=f"layout/{name}-{{width}}-{language}",
                measure=OVERFLOWS,
            )
            assert page.locator("[data-report-row]").count() == 5, (name, language)
        context.close()
    assert problems == {}
