"""The venue's TV page updates by itself while deals are entered elsewhere."""

from __future__ import annotations

import time

import pytest

from league.services.deals import deal_record
from tests.browser.conftest import TV
from tests.factories import game_deals, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_scoreboard_follows_the_game_without_a_reload(
    live_server, browser, shot, venue_week, game, ann
):
    deals = game_deals(game)
    play(game, ann, deals=2)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
    figure = page.locator("#boards figure").first
    game.refresh_from_db()
    assert figure.get_attribute("class") == "board board--tv"
    label = page.get_attribute("#boards svg", "aria-label")
    assert label == f"Fifteen Two {game.home_score}, Nobs {game.away_score}"
    page.evaluate("window.__sameDocument = true")

    for number in (3, 4):
        deal = {k: v for k, v in deals[number - 1].items() if k != "cards"}
        deal_record(game=game, user=ann, number=number, data=deal)
        game.refresh_from_db()
        want = f"Fifteen Two {game.home_score}, Nobs {game.away_score}"
        started = time.monotonic()
        page.wait_for_function(
            "want => document.querySelector('#boards svg').getAttribute('aria-label') === want",
            arg=want,
            timeout=5_000,
        )
        assert time.monotonic() - started < 5
    assert page.evaluate("window.__sameDocument") is True  # no reload
    shot(page, "scoreboard-tv", full_page=False)

    for number in range(5, len(deals) + 1):
        deal_record(game=game, user=ann, number=number, data=deals[number - 1])
    page.wait_for_selector(".tv-result", timeout=5_000)
    game.refresh_from_db()
    assert f"{game.winner.name} win by {game.margin}" in page.inner_text(".tv-result")
    shot(page, "scoreboard-tv-finished", full_page=False)
    context.close()


def _start_games(matches):
    """A game under way at each of these tables, a few deals in (a league night's TV)."""
    from league.services.games import game_start

    for match in matches:
        home, away = match.home, match.away
        seats = [home.captain, away.captain, *home.players.exclude(pk=home.captain_id)]
        seats.append(*away.players.exclude(pk=away.captain_id))
        game = game_start(match=match, user=home.captain.user, seats=seats, first_dealer=1)
        play(game, home.captain.user, seed=match.table, deals=2 + match.table % 7)


# A TV cannot scroll: every element of the page inside the screen, nothing wider than its box.
OUTSIDE = """() => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollHeight > window.innerHeight + 1) bad.push('height ' + doc.scrollHeight);
  if (doc.scrollWidth > doc.clientWidth + 1) bad.push('width ' + doc.scrollWidth);
  for (const el of document.querySelectorAll('.tv-team .name, .tv-table-head, .tv-screens')) {
    if (el.scrollWidth > el.clientWidth + 1) bad.push(el.className + ': ' + el.textContent);
  }
  return bad;
}"""


def test_a_tv_left_on_the_page_shows_each_screen_in_turn(
    settings, live_server, browser, shot, venue_week, tables_33, game, ann
):
    settings.PEGBOARD_TV_ROTATE_SECONDS = 2
    play(game, ann, deals=3)
    _start_games(tables_33[1:32])
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
    assert page.locator("#boards .tv-table").count() == 32
    assert page.inner_text(".tv-screen") == "Screen 1 of 2: tables 1 to 32"
    page.evaluate("window.__sameDocument = true")
    shot(page, "scoreboard-tv-screen-32", full_page=False)
    assert page.evaluate(OUTSIDE) == []  # 32 boards fit a 1920x1080 TV
    page.wait_for_selector('#boards [data-screen="2"]', timeout=5_000)
    assert page.locator("#boards .tv-table").count() == 1
    assert page.inner_text(".tv-screen") == "Screen 2 of 2: table 33"
    shot(page, "scoreboard-tv-screen-2", full_page=False)
    page.wait_for_selector('#boards [data-screen="1"]', timeout=5_000)  # and round again
    assert page.evaluate("window.__sameDocument") is True  # no reload
    context.close()


def test_a_tv_pinned_to_a_screen_stays_on_it(settings, live_server, browser, venue_week, tables_33):
    settings.PEGBOARD_TV_ROTATE_SECONDS = 1
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/?screen=2")
    assert page.inner_text(".tv-screen") == "Screen 2 of 2: table 33"
    page.wait_for_timeout(3_000)  # three turns of a rotating TV; and three polls
    assert page.locator('#boards [data-screen="2"]').count() == 1
    assert page.inner_text(".tv-table h2") == "Table 33"
    page.click("text=Show every screen in turn")
    page.wait_for_selector('#boards [data-screen="2"]', timeout=5_000)
    context.close()


def test_a_screen_of_32_tables_fits_the_tv_in_french(
    live_server, browser, shot, venue_week, tables_33, game, ann
):
    play(game, ann, deals=3)
    _start_games(tables_33[1:32])
    context = browser.new_context(viewport=TV, locale="fr")
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
    assert page.inner_text(".tv-screen") == "Écran 1 sur 2 : tables 1 à 32"
    assert page.locator("#boards .tv-table").count() == 32
    shot(page, "scoreboard-tv-screen-32-fr", full_page=False)
    assert page.evaluate(OUTSIDE) == []
    context.close()


def test_the_end_of_the_night_still_fits_the_tv_when_every_table_says_skunk(
    live_server, browser, shot, venue_week, tables_33
):
    """The last state of a league night: every board finished with its longest line, a double
    skunk. On a screen of many tables it is said short ("de 47 : DOUBLE CAPOT", the star marks
    the winner) and whole; still one screen, nothing off the TV."""
    from tests.factories import confirmed_game

    for match in tables_33[:32]:
        confirmed_game(match, 1, match.away, margin=47, skunk=2)
    context = browser.new_context(viewport=TV, locale="fr")
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/?screen=1")
    assert page.locator("#boards .tv-table").count() == 32
    assert page.locator(".tv-result").all_inner_texts() == ["de 47 : DOUBLE CAPOT"] * 32
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.tv-result')]"
        ".filter(p => p.scrollWidth > p.clientWidth).length"
    )
    assert cut == 0  # each line whole, none ended with an ellipsis
    shot(page, "scoreboard-tv-screen-32-all-skunked-fr", full_page=False)
    assert page.evaluate(OUTSIDE) == []
    context.close()


def test_a_winners_name_and_result_stay_on_one_line_on_a_venue_of_four_tables(
    live_server, browser, shot, venue_week, season, match
):
    """A venue of a few tables (the two-column layout): the winner's star beside a three-digit
    score left "His / Nobs" on two lines and the result wrapped under it, at 1920 and 1280: the
    teams now take 42 % of a table, the board the rest."""
    from league import models
    from tests import factories
    from tests.factories import confirmed_game

    matches = [match]
    for table, (home, away) in enumerate(
        [("Skunk Works", "Double Run"), ("Nineteen", "Peg Out"), ("His Nobs", "Muggins")],
        start=2,
    ):
        matches.append(
            models.Match.objects.create(
                week=venue_week,
                home=factories.TeamFactory(season=season, name=home),
                away=factories.TeamFactory(season=season, name=away),
                table=table,
            )
        )
    for m in matches:
        confirmed_game(m, 1, m.home, margin=25)
    one_line = """() => [...document.querySelectorAll('.tv-team .name, .tv-result')].filter(el => {
        const range = document.createRange();
        range.selectNodeContents(el.firstChild);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
    }).map(el => el.textContent.trim())"""
    for viewport in (TV, {"width": 1280, "height": 720}):
        context = browser.new_context(viewport=viewport, locale="fr")
        context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
        assert page.locator("#boards .tv-table").count() == 4
        assert page.locator(".tv-team.is-winner").count() == 4
        assert page.evaluate(one_line) == []
        assert page.evaluate(OUTSIDE) == []
        shot(page, f"scoreboard-tv-four-tables-{viewport['width']}-fr", full_page=False)
        context.close()
