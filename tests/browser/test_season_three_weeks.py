"""Three weeks of a season that runs itself, walked in Chromium at 390 px by the people who do
each step: the organiser, the four captains (Ann of the Aces, Bea of the Bells, Cy of the
Crows, Di of the Dukes), Bo of the Bells and Sid, the season's sub.

Each step the season's issue names is done through the pages by the role that does it: the
organiser prepares next season (a draft) and publishes it mid-season, and nothing of the
running season changes for a visitor or a captain (the home page's season card and its live
scoreboard link, the captain's "Your matches", the league page); Cy asks to postpone a match
and Ann accepts; Bo answers "out" for a night; Bea asks the sub list and seats Sid in Bo's
seat; the organiser records a no-show's forfeit and moves a whole night.

The games that are not the point of a step (every deal, the confirmations, and the starts of
the games after the first one of a match) are entered through the services (``_play``), as a
phone's API calls would, so the walk stays quick. After each step the standings page (read as
a captain sees it), its weeks won and the playoff rule's exclusions are compared with tables
worked out by hand below from the league's points rules: a win is 1 point, a skunk (a win by
31 or more) 1 more; a forfeit awards every game of the match at the points of a win and wins
the week; a week is won by winning more of the match's games; a team reaches the playoffs
when each of its players has sat at a table on 2 nights (a night the other team forfeited
counts for the team that came).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from league.kernel.permissions import LEAGUE_ADMINS
from league.models import Game, GameSeat, Match, Player, Season, Week
from league.selectors.playoffs import playoff_shortfalls
from league.services.deals import deal_record
from league.services.games import game_confirm, game_start
from league.services.people import PlayerLine
from league.services.rules import season_create
from league.services.season_life import season_publish
from league.services.season_ops import season_ops_update
from league.services.seasons import schedule_create, team_create
from league.services.subs import subs_add
from league.standings_row import SHOWN
from scoring.game import DealEntry
from scoring.game import Game as Scored
from scoring.variants import get_variant
from tests import factories
from tests.browser.conftest import PHONE

# A long walk, like the club nights' from check-in to champion: make test-slow and CI run it.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TEAMS = {
    "Aces": ("Ann", "Abe"),
    "Bells": ("Bea", "Bo"),
    "Crows": ("Cy", "Cal"),
    "Dukes": ("Di", "Dom"),
}

# The standings as worked out by hand: (team, played, won, lost, points, weeks won, skunks),
# in rank order. No two teams are level on points, so no tie-break decides an order.
AFTER_WEEK_1 = [
    # Aces beat Dukes 2-1; Crows beat Bells 3-0; no skunk.
    ("Crows", 3, 3, 0, 3, 1, 0),
    ("Aces", 3, 2, 1, 2, 1, 0),
    ("Dukes", 3, 1, 2, 1, 0, 0),
    ("Bells", 3, 0, 3, 0, 0, 0),
]
AFTER_SUB_NIGHT = [
    # Week 2: Bells, with Sid for Bo, beat Dukes 3-0, game 2 a skunk: 3 + 1 points.
    ("Bells", 6, 3, 3, 4, 1, 1),
    ("Crows", 3, 3, 0, 3, 1, 0),
    ("Aces", 3, 2, 1, 2, 1, 0),
    ("Dukes", 6, 1, 5, 1, 0, 0),
]
AFTER_MAKEUP = [
    # Crows v Aces of week 2, played on its make-up date: Crows win 2-1, no skunk.
    ("Crows", 6, 5, 1, 5, 2, 0),
    ("Bells", 6, 3, 3, 4, 1, 1),
    ("Aces", 6, 3, 3, 3, 1, 0),
    ("Dukes", 6, 1, 5, 1, 0, 0),
]
AFTER_FORFEIT = [
    # Week 3: Dukes do not turn up: Crows are awarded the 3 games (3 points) and the week.
    ("Crows", 9, 8, 1, 8, 3, 0),
    ("Bells", 6, 3, 3, 4, 1, 1),
    ("Aces", 6, 3, 3, 3, 1, 0),
    ("Dukes", 9, 1, 8, 1, 0, 0),
]
AFTER_WEEK_3 = [
    # Aces beat Bells 3-0 (Bo back), game 1 a skunk: 3 + 1 points.
    ("Crows", 9, 8, 1, 8, 3, 0),
    ("Aces", 9, 6, 3, 7, 2, 1),
    ("Bells", 9, 3, 6, 4, 1, 1),
    ("Dukes", 9, 1, 8, 1, 0, 0),
]
# Who the playoff rule (2 nights each) keeps out, with the nights each short player sat.
SHORT_AFTER_WEEK_1 = {
    "Aces": [("Abe", 1), ("Ann", 1)],
    "Bells": [("Bea", 1), ("Bo", 1)],
    "Crows": [("Cal", 1), ("Cy", 1)],
    "Dukes": [("Di", 1), ("Dom", 1)],
}
SHORT_AFTER_SUB_NIGHT = {
    "Aces": [("Abe", 1), ("Ann", 1)],
    "Bells": [("Bo", 1)],  # Sid sat for him: the night is Sid's, not Bo's
    "Crows": [("Cal", 1), ("Cy", 1)],
}
SHORT_AFTER_MAKEUP = {"Bells": [("Bo", 1)]}
SHORT_AFTER_FORFEIT = {"Bells": [("Bo", 1)]}  # Crows came: the night counts; Dukes have 2
SHORT_AFTER_WEEK_3: dict[str, list[tuple[str, int]]] = {}

COLUMNS = [c.key for c in SHOWN]
READ_ROWS = """() => [...document.querySelectorAll('table.standings tbody tr')].map(
  (tr) => [...tr.children].map((cell) =>
    (cell.querySelector('a') || cell).textContent.trim()))"""


def _setting(live_server) -> dict[str, Any]:
    """The league (its skunk at 31), a season published with four teams and six weeks, its
    first night a week ago and week 2 tonight, the playoff rule at 2 nights, Sid on the sub
    list; the organiser "boss"."""
    boss = factories.UserFactory(username="boss")
    boss.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    league = factories.LeagueFactory(name="Thursday Pairs", skunk_margin=31)
    season = season_create(league=league, user=boss, name="Winter 2026")
    season_ops_update(season=season, user=boss, changes={"playoff_min_nights": 2})
    players = {}
    for team, names in TEAMS.items():
        two = [factories.PlayerFactory(name=n) for n in names]
        players.update({p.name: p for p in two})
        team_create(season=season, user=boss, name=team, players=two, captain=two[0])
    today = timezone.localdate()
    schedule_create(
        season=season, user=boss, start_date=today - dt.timedelta(days=7), cycles=2, venue="Crown"
    )
    season_publish(season=season, user=boss)
    subs_add(user=boss, season=season, lines=[PlayerLine(name="Sid")])
    sid = Player.objects.get(name="Sid")
    sid.user = factories.UserFactory(username="sid")
    sid.save()
    players["Sid"] = sid
    return {"boss": boss, "league": league, "season": season, "players": players, "today": today}


def _match(season: Season, week: int, home: str, away: str) -> Match:
    """The schedule's match (the circle method's pairings, checked here as the hand tables
    assume them)."""
    return Match.objects.select_related("week").get(
        week__season=season, week__number=week, home__name=home, away__name=away
    )


def _play(
    match: Match,
    number: int,
    *,
    winner: str,
    skunk: bool,
    entering: Player,
    confirming: Player | None,
    seats: list[Player] | None = None,
    game: Game | None = None,
) -> Game:
    """Game ``number`` of ``match`` through the services: started with ``seats`` (home,
    away, home, away; or ``game`` already started), plain deals where ``winner``'s side shows
    12 a hand and the other 10 (no skunk) or 7 (a skunk), entered by ``entering``, confirmed
    by ``confirming`` (None: left to confirm). The outcome is checked, so the hand tables
    rest on it."""
    if game is None:
        assert seats is not None
        # The walk plays a later night's games today: as the organiser allows it (a game
        # starts on its night otherwise).
        Match.objects.filter(pk=match.pk).update(early_start=True)
        match.early_start = True
        game = game_start(match=match, user=entering.user, seats=seats, number=number)
    low = 7 if skunk else 10
    side = game.side_for_team(match.home if match.home.name == winner else match.away)
    scored = Scored(get_variant("partnership-121"), first_dealer=game.first_dealer, target=121)
    deal = 0
    while True:
        dealer = (game.first_dealer + deal) % 4
        deal += 1
        pegging = [2, 1] if side == 0 else [1, 2]
        scores = [scored.scores[s] + pegging[s] for s in range(2)]
        shows: dict[str, int] = {}
        for seat in [(dealer + i) % 4 for i in range(1, 5)]:
            if max(scores) >= 121:
                break
            shows[str(seat)] = 12 if seat % 2 == side else low
            scores[seat % 2] += shows[str(seat)]
        over = max(scores) >= 121
        data = {"dealer": dealer, "pegging": pegging, "shows": shows, "crib": None if over else 0}
        deal_record(game=game, user=entering.user, number=deal, data=data)
        scored.record(
            DealEntry(
                dealer,
                pegging=tuple(pegging),
                shows={int(k): v for k, v in shows.items()},
                crib=data["crib"],
            )
        )
        if over:
            break
    if confirming is not None:
        game_confirm(game=Game.objects.get(pk=game.pk), user=confirming.user)
    game.refresh_from_db()
    assert (game.winner.name, game.skunk_level) == (winner, int(skunk)), (game, game.margin)
    return game


def _phone(browser, live_server, user=None):
    """A 390 px phone signed in as ``user`` (a visitor's without), English."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="block")
    context.set_default_timeout(10_000)
    cookies = [{"name": "django_language", "value": "en", "url": live_server.url}]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        cookies.append({"name": "sessionid", "value": cookie, "url": live_server.url})
    context.add_cookies(cookies)
    return context.new_page()


def _standings(page, live_server, season: Season) -> list[tuple[Any, ...]]:
    page.goto(f"{live_server.url}/seasons/{season.pk}/standings/")
    rows = page.evaluate(READ_ROWS)
    keys = ("team", "played", "won", "lost", "points", "weeks_won", "skunks")
    at = [COLUMNS.index(k) for k in keys]
    return [(r[at[0]], *(int(r[i]) for i in at[1:])) for r in rows]


def _not_eligible(page, live_server, season: Season) -> dict[str, str]:
    """The seeding page's "Not eligible for the playoffs" list, as a captain reads it: each
    team's name and the sentence that says who is short."""
    page.goto(f"{live_server.url}/seasons/{season.pk}/seeding/")
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.ineligible-teams li')]
            .map(li => [li.querySelector('strong').textContent.trim(), li.textContent.trim()]))"""
    )


def _check(page, live_server, season: Season, table, short, step: str) -> None:
    assert _standings(page, live_server, season) == table, step
    assert playoff_shortfalls(Season.objects.get(pk=season.pk)) == short, step
    needed = Season.objects.get(pk=season.pk).playoff_min_nights
    shown = _not_eligible(page, live_server, season)
    assert set(shown) == set(short), step
    for team, players in short.items():
        for name, nights in players:
            assert f"{name} played {nights} of the {needed} nights required" in shown[team], step


def _said(page, text: str) -> None:
    """The page's message after a press says ``text`` (a refusal would say why not)."""
    page.wait_for_selector(f".messages >> text={text}")


def _running_parts(page, live_server, season: Season, *, captain: bool) -> dict[str, str]:
    """What a visitor or a captain sees of the running season: its card on the home page (with
    the live scoreboard's link), the captain's "Your matches", its row on the league page."""
    page.goto(f"{live_server.url}/")
    parts = {
        "card": page.inner_html(f"section[aria-labelledby=season-{season.pk}]"),
        "scoreboard": page.get_attribute("text=Live scoreboard", "href"),
    }
    if captain:
        parts["mine"] = page.inner_html("section[aria-labelledby=mine-title]")
    page.goto(f"{live_server.url}/leagues/{season.league_id}/")
    parts["league"] = page.inner_html(f"tr:has(a[href='/seasons/{season.pk}/standings/'])")
    return parts


def test_three_weeks_of_a_season_walked_by_its_people(live_server, browser, shot):
    s = _setting(live_server)
    season, boss, p, today = s["season"], s["boss"], s["players"], s["today"]
    url = live_server.url
    organiser = _phone(browser, live_server, boss)
    ann, bea, cy, di = (_phone(browser, live_server, p[n].user) for n in ("Ann", "Bea", "Cy", "Di"))
    bo, sid = (_phone(browser, live_server, p[n].user) for n in ("Bo", "Sid"))
    visitor = _phone(browser, live_server)

    # --- Week 1 (a week ago): played, not the point of a step -------------------------------
    ad, bc = _match(season, 1, "Aces", "Dukes"), _match(season, 1, "Bells", "Crows")
    aces = [p["Ann"], p["Di"], p["Abe"], p["Dom"]]
    for n, (winner, skunk) in enumerate([("Aces", False), ("Dukes", False), ("Aces", False)], 1):
        _play(ad, n, winner=winner, skunk=skunk, entering=p["Ann"], confirming=p["Di"], seats=aces)
    bells = [p["Bea"], p["Cy"], p["Bo"], p["Cal"]]
    for n in (1, 2, 3):
        _play(
            bc, n, winner="Crows", skunk=False, entering=p["Cy"], confirming=p["Bea"], seats=bells
        )
    _check(ann, live_server, season, AFTER_WEEK_1, SHORT_AFTER_WEEK_1, "after week 1")

    # --- The organiser prepares next season, then publishes it mid-season --------------------
    before = {
        "visitor": _running_parts(visitor, live_server, season, captain=False),
        "captain": _running_parts(ann, live_server, season, captain=True),
    }
    organiser.goto(f"{url}/organise/")
    organiser.select_option("#id_league", label="Thursday Pairs")
    organiser.fill("#id_name", "Spring 2027")
    organiser.click("text=Create the season")
    organiser.wait_for_selector("text=Publish the season")
    spring = Season.objects.get(name="Spring 2027")
    assert spring.state == "draft"
    # its teams and schedule through the services (the organiser's setup pages have their own
    # walk in test_organiser_setup.py)
    for team in ("Eights", "Nines"):
        two = [Player.objects.create(name=f"{team} player {i}") for i in (1, 2)]
        team_create(season=spring, user=boss, name=team, players=two)
    schedule_create(season=spring, user=boss, start_date=today + dt.timedelta(days=60))
    for page in (visitor, ann):  # a draft is the organisers' alone
        page.goto(f"{url}/")
        assert "Spring 2027" not in page.content()
    organiser.goto(f"{url}/organise/seasons/{spring.pk}/")
    organiser.click("text=Publish the season")
    organiser.wait_for_selector("text=Published: everyone sees it as the next season")
    shot(organiser, "season-walk/next-season-published-390")
    after = {
        "visitor": _running_parts(visitor, live_server, season, captain=False),
        "captain": _running_parts(ann, live_server, season, captain=True),
    }
    assert after == before
    week2 = Week.objects.get(season=season, number=2)  # tonight's, on the season's card
    assert (
        before["visitor"]["scoreboard"] == f"/venues/{week2.venue_id}/weeks/{week2.pk}/scoreboard/"
    )
    visitor.goto(f"{url}/")
    assert "Spring 2027" in visitor.inner_text("section.season-card--next")
    _check(ann, live_server, season, AFTER_WEEK_1, SHORT_AFTER_WEEK_1, "next season published")

    # --- Week 2 (tonight): Crows v Aces is postponed --------------------------------------------
    ca = _match(season, 2, "Crows", "Aces")
    makeup = today + dt.timedelta(days=3)
    cy.goto(f"{url}/matches/{ca.pk}/")
    cy.click("text=Ask to postpone")
    cy.fill("form[action$='/postpone/'] input[name=date]", makeup.isoformat())
    cy.fill("form[action$='/postpone/'] input[name=reason]", "Our venue has a wedding.")
    cy.click("text=Ask the other team")
    _said(cy, "Asked: the other team accepts or declines")
    ann.goto(f"{url}/matches/{ca.pk}/")
    ann.click("button[value=accept]")
    _said(ann, "Accepted: the match is played on")
    assert "postponed" in ann.inner_text("main")
    ca.refresh_from_db()
    assert ca.when == makeup
    _check(cy, live_server, season, AFTER_WEEK_1, SHORT_AFTER_WEEK_1, "postponed: nothing moves")

    # --- Bo is out; Bea asks the sub list and seats Sid in Bo's seat --------------------------
    bo.goto(f"{url}/")
    night = bo.locator(".night-row", has_text="Week 2")
    night.locator("button[value=out]").click()
    bo.wait_for_selector(".night-row:has-text('Week 2') button[value=out][aria-pressed=true]")
    _check(bo, live_server, season, AFTER_WEEK_1, SHORT_AFTER_WEEK_1, "Bo is out")
    db = _match(season, 2, "Dukes", "Bells")
    bea.goto(f"{url}/matches/{db.pk}/")
    assert "answer--out" in bea.inner_html(".who-is-coming")
    bea.click("text=Ask the sub list")
    _said(bea, "Asked: 1 sub is told you need a player.")
    seat = bea.evaluate(
        """() => [...document.querySelectorAll('.seat-grid select')].find(
          (s) => s.selectedOptions[0].textContent.trim() === 'Bo').id"""
    )
    bea.select_option(f"#{seat}", label="Sid")
    bea.click("text=Start the game")
    bea.wait_for_url("**/enter/**")
    shot(bea, "season-walk/sub-seated-390")
    first = Game.objects.get(match=db, number=1)
    assert GameSeat.objects.get(game=first, player=p["Sid"]).is_sub
    dukes = [p["Di"], p["Bea"], p["Dom"], p["Sid"]]
    _play(db, 1, winner="Bells", skunk=False, entering=p["Bea"], confirming=None, game=first)
    di.goto(f"{url}/games/{first.pk}/")  # Di, the other captain, confirms the sub's game
    assert "Sid" in di.inner_text("main")
    di.click("form[action$='/confirm/'] button")
    di.wait_for_selector("text=Confirmed by Di.")
    _play(db, 2, winner="Bells", skunk=True, entering=p["Bea"], confirming=p["Di"], seats=dukes)
    _play(db, 3, winner="Bells", skunk=False, entering=p["Bea"], confirming=p["Di"], seats=dukes)
    sid.goto(f"{url}/games/{first.pk}/")  # the sub finds the game he sat in, for the Bells
    assert "Sid" in sid.inner_text("main") and "Bells" in sid.inner_text("main")
    _check(bea, live_server, season, AFTER_SUB_NIGHT, SHORT_AFTER_SUB_NIGHT, "the sub's night")

    # --- The postponed match is played on its make-up date, within the deadline ----------------
    cy.goto(f"{url}/matches/{ca.pk}/")
    # the season's 14 days after its night (week 5, the second last, is later still)
    deadline = today + dt.timedelta(days=14)
    with translation.override("en"):
        said = date_format(deadline, "DATE_FORMAT")
    assert f"Play it by {said} at the latest." in cy.content()  # in its closed <details>
    assert ca.week.date < makeup <= deadline
    crows = [p["Cy"], p["Ann"], p["Cal"], p["Abe"]]
    for n, winner in enumerate(("Crows", "Aces", "Crows"), 1):
        _play(ca, n, winner=winner, skunk=False, entering=p["Cy"], confirming=p["Ann"], seats=crows)
    _check(cy, live_server, season, AFTER_MAKEUP, SHORT_AFTER_MAKEUP, "the make-up match")

    # --- Week 3: the organiser moves the whole night two days on ------------------------------
    week3 = Week.objects.get(season=season, number=3)
    moved = week3.date + dt.timedelta(days=2)
    organiser.goto(f"{url}/organise/seasons/{season.pk}/schedule/")
    night3 = organiser.locator("section#week-3")
    night3.locator("summary", has_text="Move the whole night").click()
    night3.locator("input[name$=date]").first.fill(moved.isoformat())
    night3.locator("input[name$=reason]").first.fill("The Crown is closed for repairs.")
    night3.locator("text=Move every match").click()
    _said(organiser, "Every match of week 3 moves to its new date.")
    ab, cd = _match(season, 3, "Aces", "Bells"), _match(season, 3, "Crows", "Dukes")
    assert (ab.when, cd.when) == (moved, moved)
    _check(ann, live_server, season, AFTER_MAKEUP, SHORT_AFTER_MAKEUP, "the night moved")

    # --- Dukes do not turn up: the organiser records their forfeit ------------------------------
    organiser.goto(f"{url}/matches/{cd.pk}/")
    organiser.click("text=Record a forfeit")
    organiser.check(f"input[name=team][value='{cd.away_id}']")
    organiser.fill("form[action$='/forfeit/'] input[name=reason]", "Nobody came by 7:30.")
    organiser.click("text=Record the forfeit")
    _said(organiser, "Dukes forfeits: 3 games awarded to Crows.")
    _check(cy, live_server, season, AFTER_FORFEIT, SHORT_AFTER_FORFEIT, "the forfeit")

    # --- Aces v Bells, Bo back at the table ---------------------------------------------------
    seats = [p["Ann"], p["Bea"], p["Abe"], p["Bo"]]
    for n, skunk in enumerate((True, False, False), 1):
        _play(
            ab, n, winner="Aces", skunk=skunk, entering=p["Ann"], confirming=p["Bea"], seats=seats
        )
    _check(ann, live_server, season, AFTER_WEEK_3, SHORT_AFTER_WEEK_3, "after week 3")
    ann.goto(f"{url}/seasons/{season.pk}/standings/")
    shot(ann, "season-walk/standings-after-week-3-390")
    for page in (organiser, ann, bea, cy, di, bo, sid, visitor):
        page.context.close()
