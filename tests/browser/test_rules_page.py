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


@pytest.mark.parametrize("variant", ["five-card-61", "seven-card-181"])
def test_the_longest_rules_still_print_on_two_sheets(live_server, browser, shot, league, variant):
    """Every irregularity rule on, another game's wording: the most a season's page holds."""
    from tests import factories

    target = int(variant.rsplit("-", 1)[1])
    season = factories.SeasonFactory(
        league=league,
        name=f"All of {variant}",
        variant=variant,
        target=target,
        skunk_margin=31 if target == 61 else 46,
        double_skunk_margin=61 if target == 61 else 91,
        irregularities=["X-1", "X-2", "X-3", "X-4", "X-5"],
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, locale="fr-FR"
    )
    page = context.new_page()
    for language in ("fr", "en"):
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.emulate_media(media="screen")
        page.goto(f"{live_server.url}/rules/?season={season.pk}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px phone"
        shot(page, f"rules-{variant}-{language}-390")
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=False)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 1 <= pages <= 2, f"the {language} {variant} rules print on {pages} sheets"
    context.close()


def test_an_events_rules_read_on_a_phone_and_a_tv_in_french(live_server, browser, shot, db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS
    from tests import factories
    from tournaments import services

    director = factories.UserFactory(username="dora", is_staff=True)
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    event = services.tournament_create(user=director, name="Crooked Peg Club Night")
    for size, name in (
        ({"width": 390, "height": 844}, "390"),
        ({"width": 1920, "height": 1080}, "tv"),
    ):
        context = browser.new_context(viewport=size, device_scale_factor=1, locale="fr-FR")
        context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/tournaments/{event.pk}/")
        page.click("[data-rules-link]")
        assert "Une victoire par 31 points ou plus est un capot" in page.inner_text("#main")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page is {width}px wide on a {name} screen"
        shot(page, f"event-rules-fr-{name}")
        context.close()
