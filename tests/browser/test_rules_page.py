"""The rules reference on a phone, in French, and on paper: one or two sheets for the bar's wall."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_rules_read_on_a_phone_in_french_and_print_on_two_sheets(
    live_server, browser, shot, season
):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, locale="fr-FR"
    )
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/?season={season.pk}")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Une victoire par 30 points ou plus est un capot" in page.inner_text("#main")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    shot(page, "rules-fr-390")
    shot(page, "rules-fr-390-top", full_page=False)
    page.locator("#W-2").scroll_into_view_if_needed()
    shot(page, "rules-fr-390-skunk", full_page=False)
    for language in ("fr", "en"):
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/rules/?season={season.pk}")
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=False)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 1 <= pages <= 2, f"the {language} rules print on {pages} sheets"
    context.close()
