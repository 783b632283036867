"""The sub parts fit a phone (390 px) and the TV-sized screen, in English and French: the
match page's start form with its "Subs" group and "Need a sub?", and the organiser's sub list.
A sub is then seated from the phone's start form. Screenshots in artifacts/screenshots/subs/."""

from __future__ import annotations

import pytest
from django.test import Client

from league.models import GameSeat
from league.services.people import PlayerLine
from league.services.subs import subs_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARTS = ".ask-sub, .sub-list, .seat-grid"
OVERFLOW = (
    """() => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) bad.push('the page: ' + doc.scrollWidth);
  for (const part of document.querySelectorAll('PARTS')) {
    for (const el of [part, ...part.querySelectorAll('*')]) {
      if (el.clientWidth === 0 || getComputedStyle(el).display === 'inline') continue;
      if (el.scrollWidth > el.clientWidth + 1) bad.push(el.tagName + '.' + el.className);
    }
  }
  return bad;
}"""
).replace("PARTS", PARTS)


def _context(browser, live_server, user, *, width: int, language: str):
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=language, service_workers="block"
    )
    url = live_server.url
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": language, "url": url},
        ]
    )
    return context


@pytest.mark.slow  # a sweep of the parts at every width in both languages: make test-slow, CI
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_sub_parts_fit_a_phone_and_the_tv(
    live_server, browser, shot, match, ann, league_admin, season, language
):
    subs_add(
        user=league_admin,
        season=season,
        lines=[PlayerLine(name="Gus Grant-Fitzwilliam"), PlayerLine(name="Hal")],
    )
    problems = {}
    for width in (390, 1920):
        for who, url, name in (
            (ann, f"/matches/{match.pk}/", "match"),
            (league_admin, f"/organise/seasons/{season.pk}/players/", "organiser"),
        ):
            context = _context(browser, live_server, who, width=width, language=language)
            page = context.new_page()
            page.goto(live_server.url + url)
            shot(page, f"subs/{name}-{width}-{language}")
            if found := page.evaluate(OVERFLOW):
                problems[f"{name} at {width}"] = found
            body = page.content()
            assert "Gus Grant-Fitzwilliam" in body
            context.close()
    assert problems == {}


def test_a_captain_seats_a_sub_from_the_phone(
    live_server, browser, shot, match, ann, league_admin, season
):
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus")])
    context = _context(browser, live_server, ann, width=390, language="en")
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.select_option("#id_seat_2", label="Gus")
    page.click("text=Start the game")
    page.wait_for_url("**/enter/**")
    shot(page, "subs/entry-with-sub-390-en")
    assert "Gus" in page.content()
    assert GameSeat.objects.get(player__name="Gus").is_sub
    context.close()
