"""Results up, in a browser: a director sends a closed event up from the workspace, a
statistician sends it back with a reason, the director sends it again, the statistician
approves; then the national table, the regional table and the member's career show the points,
at 390 px and 1920 px, in English and in French, nothing overflowing."""

from __future__ import annotations

import datetime as dt
import importlib
from pathlib import Path

import pytest
from django.apps import apps

from federation.models import PointsSchedule
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

# A long walk in the browser (send, send back, resend, approve, three pages in two
# languages and two widths): make test-slow and CI.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
OVERFLOWS = overflows(scrolls=".table-scroll")


def shipped_schedule() -> None:
    """A transactional test's database may have lost the migration's rows: load them again."""
    if not PointsSchedule.objects.exists():
        module = importlib.import_module("federation.migrations.0002_default_schedule")
        module.load(apps, None)


def test_results_go_up_come_back_and_count_on_the_public_pages(
    live_server,
    browser,
    shot,
    clubs,  # noqa: F811
    regions,  # noqa: F811
    director,  # noqa: F811
    statistician,  # noqa: F811
):
    shipped_schedule()
    for user in (director, statistician):
        user.set_password("pass-word-123")
        user.save()
    event = finished_event(
        "Fall Consolation", club=clubs[1], day=dt.date(2026, 9, 1), kind="consolation", games=7
    )
    base = live_server.url
    context = context_in(browser, live_server, "en", viewport={"width": 390, "height": 844})
    page = context.new_page()

    log_in(page, live_server, director.username)
    page.goto(f"{base}/direct/nights/{event.pk}/")
    page.click("[data-send-up]")
    assert page.locator("[data-results-status=sent]").count() == 1

    log_in(page, live_server, statistician.username)
    page.goto(f"{base}/federation/review/")
    page.click("text=Fall Consolation")
    page.fill("#reason", "Check Hal's card.")
    page.click("[data-send-back]")

    log_in(page, live_server, director.username)
    page.goto(f"{base}/direct/nights/{event.pk}/")
    assert "Check Hal's card." in page.locator("[data-sent-back]").inner_text()
    page.click("[data-send-up]")

    log_in(page, live_server, statistician.username)
    page.goto(f"{base}/federation/review/")
    page.click("text=Fall Consolation")
    page.click("[data-approve]")
    context.close()

    urls = {
        "national": f"{base}/federation/",
        "region": f"{base}/federation/regions/{regions[1].pk}/",
        "member": f"{base}/federation/members/{ACC['Ann']}/",
    }
    problems = {}
    for language in ("en", "fr"):
        context = context_in(browser, live_server, language)
        page = context.new_page()
        for name, url in urls.items():
            problems |= fits_at_widths(
                page,
                url,
                widths=(390, 1920),
                shot=shot,
                name=f"layout/federation-{name}-{{width}}-{language}",
                measure=OVERFLOWS,
            )
            for width in (390, 1920):
                page.set_viewport_size({"width": width, "height": 900})
                page.screenshot(
                    path=str(Path(f"/tmp/i53-federation-{name}-{width}-{language}.png"))
                )
            if name != "member":  # Ann: 3 x (14 - 9 + 1) + 4 x 1 = 22
                row = page.locator(f"[data-member='{ACC['Ann']}']")
                assert "22" in row.inner_text(), (name, language)
            else:
                assert "22" in page.locator("[data-career-total]").inner_text()
        if language == "fr":
            assert "Classement" in page.goto(urls["national"]).text()
        context.close()
    assert problems == {}
