"""Headless Chromium (Debian's package) driven by Playwright against the live test server.

Skipped, saying why, when /usr/bin/chromium is not installed (apt-get install chromium)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("PEGBOARD_REQUIRE_BROWSER"):  # CI: a missing browser is a failure
            pytest.fail("PEGBOARD_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A phone-sized browser context (390x844); closed after the test. Its service worker is
    off: Playwright cannot intercept what a page controlled by one sends (the tests that cut
    the connection route requests); ``phone_with_worker`` has it."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, locale="en-GB", service_workers="block"
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def phone_with_worker(browser):
    """A phone (390x844) whose pages install Pegboard's service worker, as a real phone does."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="en-GB")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def shot():
    """``shot(page, name)`` saves a screenshot into artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log_in(page, live_server, username: str, password: str = "pass-word-123") -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def type_deal(page, deal: dict, *, save: bool = True) -> None:
    """Type one deal the way a captain does: starter, pegging, the shows in order, the crib."""
    if deal.get("starter"):
        page.fill("#starter", deal["starter"])
    for side, points in enumerate(deal["pegging"]):
        box = page.locator(f"#f-pegging-{side}")
        if box.is_enabled():
            box.fill(str(points))
    for seat, points in deal["shows"].items():
        page.fill(f"#f-shows-{seat}", str(points))
    if deal["crib"] is not None:
        page.fill("#f-crib", str(deal["crib"]))
    if save:
        page.click("[data-save]")


def wait_for_next(page, number: int, total: int) -> None:
    """After deal ``number`` of ``total`` is saved: the form asks for the next, or ends."""
    if number < total:
        page.wait_for_function(
            "n => document.querySelector('[data-deal-title]').textContent === 'Deal ' + n",
            arg=number + 1,
        )
    else:
        page.wait_for_selector("[data-game-over]:not([hidden])")


def pending(page) -> int:
    """How many entries the page says are waiting on the phone."""
    return int(page.get_attribute("[data-sync-status]", "data-pending"))


def wait_until_sent(page, timeout: int = 10_000) -> None:
    page.wait_for_selector('[data-sync-status][data-pending="0"]', timeout=timeout)


def stored(game) -> list[int]:
    """The numbers of the deals the server holds for ``game``."""
    from league.models import Deal

    return list(Deal.objects.filter(game=game).order_by("number").values_list("number", flat=True))
