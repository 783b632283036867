"""The page parts a season's life and availability add fit a phone (360 and 390 px) and the
TV-sized screen, in English and French: the home page's "Are you coming?" and "Next seasons",
who is coming on a match page and on the organiser's season page, the season's life card,
and the page a reminder's signed link opens. Nothing overflows its box; a width that does is
kept as a screenshot in artifacts/screenshots/season-life/ (every width with
PEGBOARD_SCREENSHOTS=all)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import Match, Player, Week
from league.services.availability import availability_answer, availability_link
from league.services.demo import build_demo
from league.services.rules import season_create
from league.services.season_life import season_publish
from league.services.seasons import schedule_create, team_create
from tests.browser.conftest import context_in
from tests.browser.layout import fits_at_widths, overflows_in

#: The parts this feature adds; the rest of each page is test_layout.py's business (the
#: organiser's rules form, for one, is wider than a phone inside its closed <details>).
PARTS = ".season-life, .who-is-coming, .your-nights, .season-card--next, .night-answer"

SCOPED = overflows_in(PARTS)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 1920)


def _setting(live_server) -> dict[str, object]:
    """The demo league with next season published (first night in two months) and a draft
    after it; Ann has answered for her next night, Bob not yet."""
    summary = build_demo(weeks_played=4)
    season = summary.season
    boss = get_user_model().objects.get(username="leagueadmin")
    spring = season_create(league=season.league, user=boss, name="Spring 2027 (a long name)")
    for i in range(4):
        players = [Player.objects.create(name=f"Spring player {i}{j}") for j in range(2)]
        team_create(season=spring, user=boss, name=f"Spring team {i}", players=players)
    schedule_create(
        season=spring, user=boss, start_date=timezone.localdate() + dt.timedelta(days=60)
    )
    season_publish(season=spring, user=boss)
    draft = season_create(league=season.league, user=boss, name="Fall 2027")
    ann = Player.objects.get(name="Ann")
    today = timezone.localdate()
    night = (
        Week.objects.filter(season=season, date__gte=today, matches__home__players=ann)
        .order_by("date")
        .first()
        or Week.objects.filter(season=season, date__gte=today, matches__away__players=ann)
        .order_by("date")
        .first()
    )
    assert night is not None, "the demo has a night to come for Ann"
    availability_answer(user=ann.user, player=ann, week=night, answer="in")
    match = Match.objects.filter(week=night, home__players=ann).first() or Match.objects.get(
        week=night, away__players=ann
    )
    base = live_server.url
    return {
        "captain": {
            "home": f"{base}/",
            "match": f"{base}/matches/{match.pk}/",
            "league": f"{base}/leagues/{season.league_id}/",
        },
        "organiser": {
            "organise": f"{base}/organise/",
            "running": f"{base}/organise/seasons/{season.pk}/",
            "draft": f"{base}/organise/seasons/{draft.pk}/",
            "match-organiser": f"{base}/matches/{match.pk}/",
        },
        "visitor": {
            "home-visitor": f"{base}/",
            "link": availability_link(player=ann, week=night, base_url=base),
        },
    }


def _log_in(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


@pytest.mark.slow  # a sweep of the parts at every width in both languages: make test-slow, CI
def test_the_new_parts_fit_phones_and_the_tv(live_server, browser, shot):
    urls = _setting(live_server)
    who = {"captain": ("ann", "cribbage"), "organiser": ("leagueadmin", "leagueadmin")}
    problems = {}
    seen = {}
    for language in ("en", "fr"):
        for role, pages in urls.items():
            context = context_in(browser, live_server, language)
            page = context.new_page()
            if role in who:
                _log_in(page, live_server.url, *who[role])
            for name, url in pages.items():
                problems |= fits_at_widths(
                    page,
                    url,
                    widths=WIDTHS,
                    shot=shot,
                    name=f"season-life/{name}-{{width}}-{language}",
                    measure=SCOPED,
                )
                seen[name] = page.content()
            context.close()
    assert problems == {}
    # The parts are there to be measured, not missing.
    assert "answer-buttons" in seen["home"] and "season-card--next" in seen["home"]
    assert "season-card--next" in seen["home-visitor"] and "Fall 2027" not in seen["home-visitor"]
    assert "who-is-coming" in seen["match"] and "answer--in" in seen["match"]
    assert "season-life" in seen["running"] and "who-is-coming" in seen["running"]
    assert "season-life" in seen["draft"] and "answer-buttons" in seen["link"]


def test_a_reminders_link_answers_in_one_tap_on_a_phone_without_signing_in(
    live_server, phone, shot
):
    """The real browser posts the form with its CSRF cookie, as a phone opening a mail does."""
    urls = _setting(live_server)
    page = phone.new_page()
    page.goto(str(urls["visitor"]["link"]))
    page.click("button[value=out]")
    page.wait_for_selector("text=You are out that night")
    assert page.locator("button[value=out][aria-pressed=true]").count() == 1
    shot(page, "season-life/link-answered-390-en")
    ann = Player.objects.get(name="Ann")
    assert list(ann.availability.values_list("answer", flat=True)) == ["out"]
