"""What each page offers as a game moves through its life: a rejected game waits for a judge and
nobody can confirm it; a captain's home page follows the weeks by date, so an early game of next
week does not hide this week's unfinished match."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from league.models import GameStatus, Match, Week
from league.services.disputes import game_reject
from league.services.games import game_start
from tests import factories
from tests.browser.conftest import PHONE, log_in
from tests.factories import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DISPUTED = "This game is disputed: it does not count in the standings until a judge rules."


def test_a_rejected_game_offers_confirm_to_nobody_and_waits_for_a_judge(
    live_server, browser, shot, game, ann, cat, home_team, away_team, judge, league_admin
):
    play(game, ann)
    game_reject(game=game, user=cat, claim="Deal 4: Dan's hand was 12, not 8.", deal_number=4)
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    people = {
        "ann": ann,
        "bob": home_team.players.get(name="Bob").user,
        "cat": cat,
        "dan": away_team.players.get(name="Dan").user,
        "judy": judge,
        "lena": league_admin,
    }
    for name in [*people, None]:  # every role, and a visitor
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        context.set_default_timeout(10_000)
        page = context.new_page()
        if name:
            log_in(page, live_server, name)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        assert DISPUTED in page.inner_text("main"), name
        assert not page.query_selector("form[action$='/confirm/']"), name
        assert "Is this right?" not in page.inner_text("main"), name
        assert page.locator("main button", has_text="Confirm").count() == 0, name
        if name == "cat":
            shot(page, "rejected-game-cat")
            # Her phone's entry page: nothing to enter, and it says the game waits for a judge.
            page.goto(f"{live_server.url}/games/{game.pk}/enter/")
            page.wait_for_selector("[data-game-over]:not([hidden])")
            assert page.is_hidden("[data-deal-form]")
            assert "it waits for a judge's ruling" in page.inner_text("[data-game-over]")
            shot(page, "rejected-game-entry-cat")
        context.close()


def test_an_early_game_of_next_week_leaves_this_weeks_unfinished_match_on_the_home_page(
    live_server, phone, shot, season, home_team, away_team, other_team, ann
):
    today = timezone.localdate()
    this_week = Week.objects.create(season=season, number=5, date=today - dt.timedelta(days=1))
    next_week = Week.objects.create(season=season, number=6, date=today + dt.timedelta(days=6))
    unfinished = Match.objects.create(week=this_week, home=home_team, away=away_team, table=2)
    # The organiser let this one start before its night (a game starts on its night).
    early = Match.objects.create(
        week=next_week, home=other_team, away=home_team, table=1, early_start=True
    )
    # This week's match: one game played and waiting, two not started.
    first = game_start(match=unfinished, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play(first, ann)
    # Next week's match is played early: a game under way already.
    eve = other_team.captain.user
    early_game = game_start(match=early, user=eve, seats=["Eve", "Ann", "Fay", "Bob"])
    play(early_game, eve, deals=3)
    factories.WeekFactory(season=season, number=7, date=today + dt.timedelta(days=13))

    page = phone.new_page()
    log_in(page, live_server, "ann")  # lands on the home page
    mine = page.inner_text("#mine-title + ul")
    assert "Week 5, table 2" in mine  # this week's unfinished match is still listed
    assert "Week 6, table 1" in mine  # and the one started early
    assert mine.index("Week 5") < mine.index("Week 6")
    season_card = page.inner_text(".season-card")
    assert "This week: week 5" in season_card
    shot(page, "home-after-early-game")
