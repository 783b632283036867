"""The season's gaps fit a 360 px phone, in English and French: the seeding page's and the
organiser's list of teams the playoffs' nights rule keeps out, the career page's seasons as a
sub, and the organiser's players page with an invitation held for a draft. Screenshots in
artifacts/screenshots/season-gaps/."""

from __future__ import annotations

import pytest
from django.test import Client

from league.models import GameSeat, Player
from league.services.people import PlayerLine, season_invite
from league.services.rules import season_create
from league.services.season_ops import season_ops_update
from league.services.subs import subs_add
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARTS = ".playoff-ineligible, .sub-seasons, .organiser-table, .season-life"
OVERFLOW = (
    """() => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) bad.push('the page: ' + doc.scrollWidth);
  for (const part of document.querySelectorAll('PARTS')) {
    if (part.closest('.table-scroll')) continue;  // a wide table scrolls in its own box
    for (const el of [part, ...part.querySelectorAll('*')]) {
      if (el.clientWidth === 0 || getComputedStyle(el).display === 'inline') continue;
      if (el.scrollWidth > el.clientWidth + 1) bad.push(el.tagName + '.' + el.className);
    }
  }
  return bad;
}"""
).replace("PARTS", PARTS)


def _context(browser, live_server, user, *, language: str):
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, locale=language, service_workers="block"
    )
    cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies.append(
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            }
        )
    context.add_cookies(cookies)
    return context


@pytest.mark.slow  # a sweep of the parts at every width in both languages: make test-slow, CI
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_season_gaps_fit_a_phone(
    live_server, browser, shot, season, match, league, league_admin, language
):
    season_ops_update(season=season, user=league_admin, changes={"playoff_min_nights": 3})
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus Grant-Fitzwilliam")])
    gus = Player.objects.get(name="Gus Grant-Fitzwilliam")
    game = factories.confirmed_game(match, 1, match.home, 10)
    for seat, name in enumerate(["Ann", "Cat", gus.name, "Dan"]):
        GameSeat.objects.create(
            game=game, seat=seat, player=Player.objects.get(name=name), is_sub=name == gus.name
        )
    draft = season_create(league=league, user=league_admin, name="Spring 2027")
    added = subs_add(
        user=league_admin,
        season=draft,
        lines=[PlayerLine(name="Hal Hollingsworth-Smythe", email="hal@example.org")],
    )
    season_invite(user=league_admin, season=draft, players=added.to_invite, base_url="http://t/")
    problems = {}
    for who, url, name, expect in (
        (None, f"/seasons/{season.pk}/seeding/", "seeding", "playoff-ineligible"),
        (league_admin, f"/organise/seasons/{season.pk}/", "organiser", "playoff-ineligible"),
        (None, f"/players/{gus.pk}/", "career", "sub-seasons"),
        (league_admin, f"/organise/seasons/{draft.pk}/players/", "held", "badge--wait"),
    ):
        context = _context(browser, live_server, who, language=language)
        page = context.new_page()
        page.goto(live_server.url + url)
        shot(page, f"season-gaps/{name}-360-{language}")
        assert expect in page.content()
        if found := page.evaluate(OVERFLOW):
            problems[name] = found
        context.close()
    assert problems == {}
