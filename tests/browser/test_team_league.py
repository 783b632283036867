"""A team league in the browser at 390 px: the home captain names the boards, both captains
enter the match leg by leg (each on their own phone), the organiser closes the season and
promotes and relegates; in English and in French, nothing overflowing."""

from __future__ import annotations

import pytest

from teamleagues.models import Leg, TeamSeason
from tests.browser.conftest import PHONE, context_in, log_in
from tests.browser.layout import overflows
from tests.teamleagues.conftest import organiser, small_season  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OVERFLOWS = overflows(scrolls=".table-scroll")
TEXT = {
    "en": {"won": "U1 won", "closed": "This season is closed.", "board": "Board 1: Pairs"},
    "fr": {"won": "U1 gagne", "closed": "Cette saison est close.", "board": "Table 1 : Paires"},
}


def phone_of(browser, live_server, language, username):
    context = context_in(browser, live_server, language, viewport=PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server, username)
    return context, page


def name_boards(page, team):
    page.select_option("#b1_1", str(team.players[0].pk))
    page.select_option("#b1_2", str(team.players[1].pk))
    page.select_option("#b2_1", str(team.players[2].pk))
    page.click("[data-names-form] button[type=submit]")
    page.wait_for_selector(".message--success")


def enter_leg(page, board, winner, loser_score):
    form = page.locator(f'[data-board="{board}"] [data-leg-form]')
    form.locator("select[name=winner]").select_option(winner)
    form.locator("input[name=loser_score]").fill(str(loser_score))
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".message--success")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_captains_enter_a_match_and_the_organiser_promotes_and_relegates(
    live_server,
    browser,
    shot,
    organiser,  # noqa: F811
    language,
):
    s = small_season(organiser, league_name=f"Rye & District {language}")
    for user in (organiser, s.teams["U1"].captain, s.teams["U2"].captain):
        user.set_password("pass-word-123")
        user.save()
    url = f"{live_server.url}/team-leagues/fixtures/{s.left.pk}/"
    words = TEXT[language]
    home_ctx, home = phone_of(browser, live_server, language, s.teams["U1"].captain.username)
    away_ctx, away = phone_of(browser, live_server, language, s.teams["U2"].captain.username)
    try:
        home.goto(url)
        assert home.evaluate(OVERFLOWS) == []
        name_boards(home, s.teams["U1"])
        away.goto(url)
        name_boards(away, s.teams["U2"])
        home.reload()
        assert words["board"] in home.inner_text('[data-board="1"] h3')
        # Leg by leg: U1 wins each board 2-0; each captain enters each leg on their phone.
        for board in (1, 2):
            for _leg in (1, 2):
                enter_leg(home, board, "home", 97)
                enter_leg(away, board, "home", 97)
        home.reload()
        shot(home, f"team-league-match-{language}", jpeg=True)
        assert Leg.objects.filter(board__fixture=s.left, state="agreed").count() == 4
        assert words["won"] in home.inner_text("[data-score]")
        assert home.inner_text("[data-score]").startswith("4 – 0")
        assert home.evaluate(OVERFLOWS) == []
    finally:
        home_ctx.close()
        away_ctx.close()

    ctx, page = phone_of(browser, live_server, language, organiser.username)
    try:
        page.goto(f"{live_server.url}/team-leagues/seasons/{s.season.pk}/")
        assert page.evaluate(OVERFLOWS) == []
        page.fill("#next-name", "2027")
        page.click("[data-close-season] button[type=submit]")
        page.wait_for_selector('[data-division="Top"] [data-team="U1"]')
        nxt = TeamSeason.objects.get(league=s.league, name="2027")
        assert page.url.endswith(f"/team-leagues/seasons/{nxt.pk}/")
        top = page.inner_text('[data-division="Top"] tbody')
        bottom = page.inner_text('[data-division="Bottom"] tbody')
        assert all(n in top for n in ("T1", "T2", "U1")) and "T3" not in top
        assert all(n in bottom for n in ("T3", "U2", "U3"))
        assert page.evaluate(OVERFLOWS) == []
        shot(page, f"team-league-next-season-{language}", jpeg=True)
        page.goto(f"{live_server.url}/team-leagues/seasons/{s.season.pk}/")
        assert words["closed"] in page.inner_text("[data-closed]")
    finally:
        ctx.close()
