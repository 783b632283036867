"""Every page fits every screen: at 360, 390, 768 and 1920 px, the public pages, the captain's
entry page and the venue TV, on the demo league, in English and French. Nothing overflows its
box (scrollWidth <= clientWidth for every element); a width that does is kept as a screenshot in
artifacts/screenshots/layout/ (every width with PEGBOARD_SCREENSHOTS=all)."""

from __future__ import annotations

import pytest

from league.models import Game, GameStatus, Match, Player, Week
from league.services.demo import build_demo
from tests.browser.conftest import context_in
from tests.browser.layout import OVERFLOWS, fits_at_widths

# French, whose longer words are the harder fit, in make test; English, the same pages and
# parts again, in make test-slow (CI runs both).
LANGUAGES = ["fr", pytest.param("en", marks=pytest.mark.slow)]
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 768, 1920)


def pages(live_server) -> dict[str, str]:
    summary = build_demo(weeks_played=4)
    season = summary.season
    week = Week.objects.filter(season=season, venue__isnull=False).order_by("number").last()
    match = Match.objects.filter(week__season=season, week__number=1).first()
    game = Game.objects.filter(match=match).first()
    player = Player.objects.filter(teams__season=season).first()
    base = live_server.url
    return {
        "home": f"{base}/",
        "standings": f"{base}/seasons/{season.pk}/standings/",
        "schedule": f"{base}/seasons/{season.pk}/schedule/",
        "seeding": f"{base}/seasons/{season.pk}/seeding/",
        "match": f"{base}/matches/{match.pk}/",
        "game": f"{base}/games/{game.pk}/",
        "team": f"{base}/teams/{match.home_id}/",
        "player": f"{base}/players/{player.pk}/",
        "league": f"{base}/leagues/{season.league_id}/",
        "rules": f"{base}/rules/",
        "tv": f"{base}/venues/{week.venue_id}/weeks/{week.pk}/scoreboard/",
        "week-story": f"{base}/weeks/{week.pk}/story/",
    }


def entry_page(live_server) -> tuple[str, str]:
    """A game under way and a captain who plays in it."""
    game = Game.objects.filter(status=GameStatus.IN_PROGRESS).select_related("match__home").first()
    captain = game.match.home.captain.user.username
    return f"{live_server.url}/games/{game.pk}/enter/", captain


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_overflows_at_any_width(live_server, browser, shot, language):
    urls = pages(live_server)
    entry_url, captain = entry_page(live_server)
    problems = {}
    context = context_in(browser, live_server, language)
    page = context.new_page()
    for name, url in urls.items():
        problems |= fits_at_widths(
            page, url, widths=WIDTHS, shot=shot, name=f"layout/{name}-{{width}}-{language}"
        )
    # The captain's entry page.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", captain)
    page.fill("#id_password", "cribbage")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    problems |= fits_at_widths(
        page,
        entry_url,
        widths=WIDTHS,
        shot=shot,
        name=f"layout/entry-{{width}}-{language}",
        ready="[data-deal-form]:not([hidden])",
    )
    context.close()
    assert problems == {}


def tournament_pages(live_server) -> dict[str, str]:
    """The demo club night (9 rounds, the bracket drawn) and the club season it belongs to."""
    from tournaments.demo import build_demo_club_season, build_demo_night

    night = build_demo_night()
    season = build_demo_club_season()
    base = live_server.url
    return {
        "tournaments": f"{base}/tournaments/",
        "night": f"{base}/tournaments/{night.pk}/",
        "round": f"{base}/tournaments/{night.pk}/rounds/1/",
        "bracket": f"{base}/tournaments/{night.pk}/bracket/",
        "night-tv": f"{base}/tournaments/{night.pk}/tv/",
        "night-story": f"{base}/tournaments/{night.pk}/story/",
        "club": f"{base}/tournaments/clubs/{season.club_id}/",
        "club-season": f"{base}/tournaments/clubs/seasons/{season.pk}/",
    }


# A bracket is wider than a phone by nature: it scrolls sideways inside its own box (and only
# there: the page itself and everything else must still fit).
SCROLLS_ON_PURPOSE = ("div.bracket",)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_tournament_page_overflows_at_any_width(live_server, browser, shot, language):
    urls = tournament_pages(live_server)
    problems = {}
    context = context_in(browser, live_server, language)
    page = context.new_page()
    for name, url in urls.items():
        problems |= fits_at_widths(
            page,
            url,
            widths=WIDTHS,
            shot=shot,
            name=f"layout/{name}-{{width}}-{language}",
            on_purpose=SCROLLS_ON_PURPOSE,
        )
    context.close()
    assert problems == {}


def test_the_standings_note_names_the_waiting_columns_only_where_they_are_shown(
    live_server, browser
):
    """The note under the table says which columns give each team's unconfirmed and disputed
    games; a phone does not show those columns, so there it must not send the reader to them."""
    summary = build_demo(weeks_played=4)
    assert Game.objects.filter(status=GameStatus.DISPUTED).exists()
    url = f"{live_server.url}/seasons/{summary.season.pk}/standings/"
    seen = {}
    for width in (390, 768, 1920):
        context = browser.new_context(
            viewport={"width": width, "height": 900}, locale="en", service_workers="block"
        )
        page = context.new_page()
        page.goto(url)
        sentence = page.get_by_text("The Unconfirmed and Disputed columns show each team's.")
        column = page.get_by_role("columnheader", name="Unconfirmed")
        seen[width] = (sentence.is_visible(), column.is_visible())
        context.close()
    assert seen == {390: (False, False), 768: (False, False), 1920: (True, True)}


def test_on_a_phone_the_standings_say_which_tie_break_placed_a_team(live_server, browser):
    """The "Placed by" column does not fit a phone: there a note under the team's name says
    it, for the teams a tie-break placed (not those league points did), and fits the screen."""
    from league.selectors.standings import standings_for_season

    summary = build_demo(weeks_played=4)
    rows = standings_for_season(summary.season)["standings"]
    tied = {r["team"]: r["decided_by"] for r in rows if r["decided_by_key"] != "points"}
    assert tied, "the demo has teams level on points"
    url = f"{live_server.url}/seasons/{summary.season.pk}/standings/"
    seen = {}
    for width in (360, 390, 768):
        context = browser.new_context(
            viewport={"width": width, "height": 900}, locale="en", service_workers="block"
        )
        page = context.new_page()
        page.goto(url)
        notes = {}
        for cell in page.locator("th[scope=row]").all():
            note = cell.locator(".placed-note")
            if note.count() and note.is_visible():
                notes[cell.locator("a").inner_text()] = note.inner_text()
        column = page.get_by_role("columnheader", name="Placed by").is_visible()
        seen[width] = (notes, column, page.evaluate(OVERFLOWS))
        context.close()
    phone = ({team: f"Placed by {why}" for team, why in tied.items()}, False, [])
    assert seen == {360: phone, 390: phone, 768: ({}, True, [])}
