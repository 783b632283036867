"""A volunteer league admin sets up a whole season alone in Chromium, timed and counted: the
season from the league's rules, 16 players pasted (each gets a login and an invitation by
email), 8 teams pasted, a 7-week schedule from a start date skipping a holiday, at a venue with
4 tables. Then one player opens the invitation, chooses a password and logs in. The test prints
its figures (actions: clicks, fills, choices and uploads; seconds) and writes them to
artifacts/organiser-setup.json."""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from league.kernel.permissions import LEAGUE_ADMINS
from league.models import Match, Player, Season
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
LAPTOP = {"width": 1366, "height": 800}
NAMES = [
    ("Ann", "Archer"),
    ("Bob", "Baker"),
    ("Cat", "Carter"),
    ("Dan", "Dyer"),
    ("Eve", "Evans"),
    ("Fay", "Fisher"),
    ("Gus", "Grant"),
    ("Hal", "Hughes"),
    ("Ivy", "Irwin"),
    ("Jay", "Jones"),
    ("Kim", "King"),
    ("Lou", "Lane"),
    ("May", "Moss"),
    ("Ned", "Nash"),
    ("Oly", "Owen"),
    ("Pat", "Price"),
]
TEAMS = [
    "Fifteen Two",
    "His Nobs",
    "His Heels",
    "Double Run",
    "Skunk Works",
    "Muggins",
    "Peg Out",
    "Nineteen",
]
HOLIDAY = dt.date(2026, 11, 26)


class Counted:
    """The organiser's hands on the page: every click, fill, choice and upload is counted."""

    def __init__(self, page) -> None:
        self.page = page
        self.actions = 0

    def click(self, selector: str) -> None:
        self.actions += 1
        self.page.click(selector)

    def fill(self, selector: str, value: str) -> None:
        self.actions += 1
        self.page.fill(selector, value)

    def choose(self, selector: str, value: str) -> None:
        self.actions += 1
        self.page.select_option(selector, value)


@pytest.fixture
def setup_world(db):
    league = factories.LeagueFactory(name="Thursday Doubles")
    lena = factories.UserFactory(username="lena", email="lena@example.org")
    lena.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    return league


def test_a_league_admin_sets_up_a_season_of_eight_teams_in_minutes(
    live_server, browser, shot, setup_world, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    context = browser.new_context(viewport=LAPTOP, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    me = Counted(page)
    started = time.monotonic()

    # Log in and open the workspace.
    page.goto(f"{live_server.url}/accounts/login/")
    me.fill("#id_username", "lena")
    me.fill("#id_password", "pass-word-123")
    me.click("main button[type=submit]")
    me.click("text=Organise the league")

    # (a) The season, from the league's rules (shown as sentences).
    me.fill("#id_name", "Spring 2027")
    me.click("text=Create the season")
    page.wait_for_selector("text=A win by 30 or more is a skunk")

    # (b) 16 players pasted, each with a login and an invitation, held while it is a draft.
    me.click("nav.steps >> text=Players")
    roster = "\n".join(f"{first} {last}, {first.lower()}@example.org" for first, last in NAMES)
    me.fill("#id_paste-names", roster)
    me.click("button[name=add-paste]")
    page.wait_for_selector("text=16 invitations held: they go out when the season is published.")

    # (c) 8 teams of two pasted, the captain first.
    me.click("text=Next: the teams")
    teams = "\n".join(
        f"{name}, {' '.join(NAMES[2 * i])}, {' '.join(NAMES[2 * i + 1])}"
        for i, name in enumerate(TEAMS)
    )
    me.fill("#id_paste-teams", teams)
    me.click("button[name=add-teams]")
    page.wait_for_selector("text=8 teams added.")

    # (d) The schedule: first night, Thursdays, a holiday skipped, the venue and its tables.
    me.click("text=Next: the schedule")
    me.fill("#id_s-start", "2026-10-15")
    me.choose("#id_s-weekday", "3")
    me.fill("#id_s-skip", HOLIDAY.isoformat())
    me.fill("#id_s-new_venue", "The Crooked Peg")
    me.fill("#id_s-tables", "4")
    me.click("button[name=make]")
    page.wait_for_selector("text=The schedule has 7 weeks.")
    seconds = time.monotonic() - started
    organiser_actions = me.actions
    shot(page, "organiser-schedule-laptop")

    # (e) Published: the invitations held go out, once.
    assert len(mail.outbox) == 0
    me.click("nav.steps >> text=1. Season and rules")
    me.click("text=Publish the season")
    page.wait_for_selector("text=Spring 2027 is published")

    season = Season.objects.get(name="Spring 2027")
    assert season.teams.count() == 8 and Player.objects.count() == 16
    weeks = list(season.weeks.order_by("number"))
    assert len(weeks) == 7
    assert HOLIDAY not in [w.date for w in weeks]
    assert weeks[0].date == dt.date(2026, 10, 15) and weeks[-1].date == dt.date(2026, 12, 3)
    assert Match.objects.filter(week__season=season).count() == 28
    assert len(mail.outbox) == 16

    # One player opens the invitation on a phone, chooses a password and logs in.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    player_page = phone.new_page()
    them = Counted(player_page)
    letter = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    link = re.search(r"(https?://\S+/welcome/\S+)", letter.body).group(1)
    assert link.startswith(live_server.url)
    player_page.goto(link)
    player_page.wait_for_selector("text=Your user name is")
    shot(player_page, "organiser-welcome-phone")
    them.fill("#id_new_password1", "fifteen-two-4")
    them.fill("#id_new_password2", "fifteen-two-4")
    them.click("text=Save my password")
    player_page.wait_for_url(f"{live_server.url}/")  # signed in, on the home page
    player_page.wait_for_selector("text=you are signed in")
    assert player_page.is_visible("text=Log out (ann)")
    phone.close()

    figures = {
        "organiser_actions": organiser_actions,
        "organiser_seconds": round(seconds, 1),
        "player_actions": them.actions,
        "teams": 8,
        "players": 16,
        "weeks": 7,
        "invitations": len(mail.outbox),
        "what": "log in, create the season, paste 16 players (logins and invitations), paste "
        "8 teams, schedule 7 Thursdays from 2026-10-15 skipping 2026-11-26 at a new venue "
        "with 4 tables",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "organiser-setup.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(
        f"\nOrganiser set-up: {organiser_actions} actions in {seconds:.1f} s "
        f"(the player: {them.actions} actions to set a password and log in)"
    )
    assert seconds < 600  # the issue: under ten minutes (a person types slower than this)
    assert organiser_actions <= 25
    context.close()
