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
    """A phone-sized browser context (390x844); closed after the test."""
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
