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

    def take(page, name: str, *, full_page: bool = True, jpeg: bool = False) -> Path:
        # JPEG for the layout tests' many full-page captures: a third cheaper to encode.
        path = SCREENSHOTS / f"{name}.{'jpg' if jpeg else 'png'}"
        path.parent.mkdir(parents=True, exist_ok=True)
        options = {"type": "jpeg", "quality": 80} if jpeg else {}
        try:
            page.screenshot(path=str(path), full_page=full_page, **options)
        except Exception as exc:  # a keepsake, not a check: Chromium now and then answers a
            # full-page capture with "Unable to capture screenshot"; try once more, then keep
            # what the screen shows rather than fail the test the picture was for.
            if "Unable to capture screenshot" not in str(exc):
                raise
            try:
                page.screenshot(path=str(path), full_page=full_page, **options)
            except Exception:
                page.screenshot(path=str(path), full_page=False, **options)
        return path

    return take


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def set_language(context, live_server, language: str) -> None:
    """The site's language cookie, as the language switcher sets it."""
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])


def context_in(browser, live_server, language: str, **options):
    """A new browser context reading the site in ``language`` (its locale and the site's
    cookie), service workers blocked unless ``options`` say otherwise."""
    context = browser.new_context(**{"locale": language, "service_workers": "block", **options})
    set_language(context, live_server, language)
    return context


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


def wait_for_next(page, number: int, total: int, *, timeout: int | None = None) -> None:
    """After deal ``number`` of ``total`` is saved: the form asks for the next, or ends
    (``timeout`` in ms, the context's default when None)."""
    if number < total:
        page.wait_for_function(
            "n => document.querySelector('[data-deal-title]').textContent === 'Deal ' + n",
            arg=number + 1,
            timeout=timeout,
        )
    else:
        page.wait_for_selector("[data-game-over]:not([hidden])", timeout=timeout)


def pending(page) -> int:
    """How many entries the page says are waiting on the phone."""
    return int(page.get_attribute("[data-sync-status]", "data-pending"))


def wait_until_sent(page, timeout: int = 10_000) -> None:
    page.wait_for_selector('[data-sync-status][data-pending="0"]', timeout=timeout)


def stored(game) -> list[int]:
    """The numbers of the deals the server holds for ``game``."""
    from league.models import Deal

    return list(Deal.objects.filter(game=game).order_by("number").values_list("number", flat=True))


def rival_deal_3(game, ann, cat) -> tuple[dict, dict, str]:
    """Ann enters deals 1 to 3; Cat enters deal 3 again with her pegging one more and one
    hand counted differently: a rival entry."""
    from league.models import Deal
    from league.services.deals import deal_record
    from tests.factories import game_deals, play

    deals = [{k: v for k, v in d.items() if k != "cards"} for d in game_deals(game)]
    play(game, ann, deals=3)
    theirs = {**deals[2], "shows": dict(deals[2]["shows"]), "pegging": list(deals[2]["pegging"])}
    seat = next(iter(theirs["shows"]))
    theirs["shows"][seat] = 2 if theirs["shows"][seat] != 2 else 4
    theirs["pegging"][1] += 1
    deal_record(game=game, user=cat, number=3, data=theirs)
    assert Deal.objects.filter(game=game, number=3, is_rival=True).exists()
    return deals[2], theirs, seat
