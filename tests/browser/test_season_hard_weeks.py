"""A season's hard weeks, walked in Chromium at 390 px by the organiser (Lena) and two captains
(Ann of Fifteen Two, Cat of Nobs), in English and in French:

- Ann asks to postpone next week's match from its page; Cat sees the request on her home page
  and accepts it there, in one tap; the match then starts on its make-up date, not before (an
  early start is refused, naming that night);
- in the season's last two weeks Ann reads why she cannot postpone, instead of a missing button;
- tonight's night is cancelled: Ann's home page asks nothing about it and says why;
- Lena tries to finish the season while a dispute is open: refused, naming what is left and
  her; she confirms in her name and the season is finished.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from league.models import Match, Season, SeasonState, Week
from league.services.disputes import dispute_raise
from league.services.postponements import week_cancel
from tests.browser.conftest import PHONE
from tests.factories import play_until_over

# A long walk in the browser through a season's hard weeks: make test-slow and CI.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SAID = {
    "en": {
        "asked": "Asked to move a match",
        "late": "No make-up dates in the last two weeks: ask the organiser.",
        "cancelled": "This night is cancelled: The Crown is flooded",
        "early": "This match is played on {night}: its games start that night",
        "unsettled": "still has 1 open dispute and 1 game not yet confirmed",
        "who": "confirm that you, Lena Organiser, finish it as it stands",
    },
    "fr": {
        "asked": "On vous demande de déplacer un match",
        "late": "Pas de date de rattrapage dans les deux dernières semaines : demandez à "
        "l'organisateur.",
        "cancelled": "Cette soirée est annulée : The Crown is flooded",
        "early": "Ce match se joue le {night} : ses parties commencent ce soir-là",
        "unsettled": "a encore 1 litige ouvert et 1 partie pas encore confirmée",
        "who": "confirmez que vous, Lena Organiser, la terminez en l'état",
    },
}


def _phone(browser, live_server, user, language: str):
    context = browser.new_context(viewport=PHONE, locale=language, service_workers="block")
    context.set_default_timeout(10_000)
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [
            {"name": "django_language", "value": language, "url": live_server.url},
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
        ]
    )
    return context.new_page()


@pytest.fixture
def hard_weeks(season, home_team, away_team, other_team, league_admin, ann, cat):
    """Six Thursdays, week 1 last week (game 1 of Fifteen Two v Nobs played and disputed by
    Nobs), week 2 tonight (cancelled), weeks 3 to 6 to come; Fifteen Two meet Nobs in weeks 1
    and 3 and His Heels in week 5."""
    league_admin.first_name, league_admin.last_name = "Lena", "Organiser"
    league_admin.save()
    today = timezone.localdate()
    weeks = {
        n: Week.objects.create(season=season, number=n, date=today + dt.timedelta(weeks=n - 2))
        for n in range(1, 7)
    }
    played = Match.objects.create(week=weeks[1], home=home_team, away=away_team)
    Match.objects.create(week=weeks[2], home=home_team, away=other_team)
    from league.services.games import game_start

    game = game_start(match=played, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play_until_over(game, ann)
    game.refresh_from_db()
    dispute_raise(game=game, user=cat, claim="Deal 1: the crib was 2, not 4", deal_number=1)
    week_cancel(week=weeks[2], user=league_admin, reason="The Crown is flooded")
    return {
        "next": Match.objects.create(week=weeks[3], home=home_team, away=away_team),
        "late": Match.objects.create(week=weeks[5], home=home_team, away=other_team),
    }


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_seasons_hard_weeks_at_390_px(
    live_server, browser, shot, hard_weeks, season, ann, cat, league_admin, language
):
    said, url = SAID[language], live_server.url
    ann_page = _phone(browser, live_server, ann, language)
    cat_page = _phone(browser, live_server, cat, language)
    lena = _phone(browser, live_server, league_admin, language)
    nxt = hard_weeks["next"]
    makeup = nxt.week.date + dt.timedelta(days=2)

    # Ann asks to postpone next week's match from its page.
    ann_page.goto(f"{url}/matches/{nxt.pk}/")
    ann_page.click("summary#postpone-title")
    ann_page.fill("form[action$='/postpone/'] input[name=date]", makeup.isoformat())
    ann_page.fill("form[action$='/postpone/'] input[name=reason]", "Bob is away")
    ann_page.click("form[action$='/postpone/'] button[type=submit]")
    ann_page.wait_for_load_state()

    # Cat sees it on her home page and accepts it there, in one tap.
    cat_page.goto(f"{url}/")
    request = cat_page.locator("section.postponements-to-answer")
    assert said["asked"] in request.inner_text()
    shot(cat_page, f"hard-weeks-{language}-asked")
    request.locator("button[value=accept]").click()
    cat_page.wait_for_url(f"{url}/")
    nxt.refresh_from_db()
    assert nxt.date == makeup
    assert cat_page.locator("section.postponements-to-answer").count() == 0

    # Before its make-up date, no game starts: the page names the night.
    ann_page.goto(f"{url}/matches/{nxt.pk}/")
    with translation.override(language):
        night = date_format(makeup, "DATE_FORMAT")
    assert said["early"].format(night=night) in ann_page.inner_text("main")
    assert ann_page.locator("form[action$='/start/']").count() == 0

    # In the last two weeks: the sentence why, not a missing button.
    ann_page.goto(f"{url}/matches/{hard_weeks['late'].pk}/")
    assert said["late"] in ann_page.inner_text("main")
    assert ann_page.locator("summary#postpone-title").count() == 0
    shot(ann_page, f"hard-weeks-{language}-late")

    # Tonight is cancelled: nobody is asked whether they come.
    ann_page.goto(f"{url}/")
    nights = ann_page.locator("section.your-nights")
    assert said["cancelled"] in nights.inner_text()
    assert nights.locator("li.night-row").first.locator("button[value=in]").count() == 0
    shot(ann_page, f"hard-weeks-{language}-home")

    # Lena finishes the season: refused while the dispute is open, then done in her name.
    lena.goto(f"{url}/organise/seasons/{season.pk}/")
    life = lena.locator("section.season-life")
    life.locator("summary").last.click()
    lena.fill("#finish-reason", "The Crown closes for the winter")
    life.locator("button[value=finish]").click()
    lena.wait_for_load_state()
    text = lena.inner_text("body")
    assert said["unsettled"] in text and said["who"] in text
    assert Season.objects.get(pk=season.pk).state == SeasonState.PUBLISHED
    life = lena.locator("section.season-life")
    life.locator("summary").last.click()
    lena.fill("#finish-reason", "The Crown closes for the winter")
    life.locator("input[name=confirm]").check()
    life.locator("button[value=finish]").click()
    lena.wait_for_load_state()
    assert Season.objects.get(pk=season.pk).state == SeasonState.FINISHED
    shot(lena, f"hard-weeks-{language}-finished")
