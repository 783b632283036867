"""Win probability in a browser: the TV's bar at 1920x1080 follows the game, inside its table
and labelled as information; the game page's swing chart on a 360 px phone, in French."""

from __future__ import annotations

import pytest

from league.services.deals import deal_record
from tests.browser.conftest import TV
from tests.factories import game_deals, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAR_INSIDE = """() => {
  const table = document.querySelector('.tv-table').getBoundingClientRect();
  const bar = document.querySelector('.winbar--tv').getBoundingClientRect();
  const home = document.querySelector('.winbar--tv .winbar-home').getBoundingClientRect();
  const track = document.querySelector('.winbar--tv .winbar-track').getBoundingClientRect();
  return {inside: bar.left >= table.left && bar.right <= table.right + 1
                  && bar.top >= table.top && bar.bottom <= table.bottom + 1,
          share: home.width / track.width, visible: bar.height > 0 && track.height > 0};
}"""


def test_the_tv_bar_shows_each_team_s_chance_and_follows_the_game(
    live_server, browser, shot, venue_week, game, ann
):
    deals = game_deals(game)
    play(game, ann, deals=2)
    context = browser.new_context(viewport=TV)
    page = context.new_page()
    page.goto(f"{live_server.url}/venues/{venue_week.venue_id}/scoreboard/")
    bar = page.locator(".winbar--tv")
    assert "information only" in bar.inner_text()
    home = int(bar.get_attribute("data-home-chance"))
    geometry = page.evaluate(BAR_INSIDE)
    assert geometry["visible"] and geometry["inside"]
    assert geometry["share"] == pytest.approx(home / 100, abs=0.02)
    label = bar.get_attribute("aria-label")
    assert f"Fifteen Two {home}%" in label and f"Nobs {100 - home}%" in label
    shot(page, "winprob-tv", full_page=False)

    for number in range(3, len(deals) + 1):  # to the end: the bar gives way to the result
        deal_record(game=game, user=ann, number=number, data=deals[number - 1])
    page.wait_for_selector(".tv-result", timeout=5_000)
    assert page.locator(".winbar--tv").count() == 0
    context.close()


def test_the_swing_chart_fits_a_small_phone_in_french(live_server, browser, shot, game, ann):
    play(game, ann)
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    chart = page.locator("svg.swing")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["width"] > 200 and box["x"] + box["width"] <= 360
    assert "Le fil de la partie" in page.inner_text("#swing-title")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "winprob-swing-phone-fr")
    context.close()


def test_the_luck_table_fits_a_small_phone_in_french(live_server, browser, shot, game, ann, match):
    from league.services.games import game_confirm

    play(game, ann, cards=True)
    game_confirm(game=game, user=match.away.captain.user)
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/teams/{match.home_id}/")
    section = page.locator("section.luck")
    section.scroll_into_view_if_needed()
    assert "Chance à la coupe" in section.inner_text()
    assert "(à titre indicatif)" in section.inner_text()
    box = section.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    shot(page, "luck-team-phone-fr")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
