"""The club's roster at /direct/ (ACC numbers, member/guest/visitor, a guest past the club's
limit) and an ACC event's rules page (Rule 12.2 clause by clause, the ACC tie-break chain) fit
a 390 px phone and a 1920 px screen in English and French."""

from __future__ import annotations

import pytest

from contest.tiebreaks import TOURNAMENT_CHAINS
from league.models import Player
from tests.browser.conftest import context_in
from tests.browser.layout import fits_at_widths, overflows
from tests.tournaments.conftest import director  # noqa: F401
from tournaments import services
from tournaments.models import MemberStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOWS = overflows(scrolls=".table-scroll")


def test_the_roster_and_the_acc_rules_fit_a_phone_and_a_screen(
    live_server,
    browser,
    shot,
    director,  # noqa: F811
):
    director.set_password("pass-word-123")
    director.save()
    club = services.club_create(user=director, name="Crooked Peg ACC Club")
    club.directors.add(director)
    club.guest_nights = 1
    club.save(update_fields=["guest_nights"])
    names = ["Annabelle Longname-Cribbage", "Bob", "Cy", "Dee"]
    services.club_members_add(user=director, club=club, names=names)
    bob = Player.objects.get(name="Bob")
    services.club_members_set(user=director, club=club, rows=[(bob, "20417", MemberStatus.GUEST)])
    for _night in range(2):
        night = services.night_tonight(user=director, club=club)
        services.entrants_add(user=director, tournament=night, names=names)
    services.tournament_update(
        user=director,
        tournament=night,
        changes={"tiebreaks": list(TOURNAMENT_CHAINS["acc"]), "acc_rules": True},
    )
    urls = {
        "roster": f"{live_server.url}/direct/clubs/{club.pk}/",
        "acc-rules": f"{live_server.url}/tournaments/{night.pk}/rules/",
    }
    problems = {}
    for language in ("en", "fr"):
        context = context_in(browser, live_server, language)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", director.username)
        page.fill("#id_password", "pass-word-123")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        for name, url in urls.items():
            problems |= fits_at_widths(
                page,
                url,
                widths=(390, 1920),
                shot=shot,
                name=f"layout/{name}-{{width}}-{language}",
                measure=OVERFLOWS,
            )
        page.goto(urls["roster"])
        assert page.locator("[data-roster-row]").count() == 4
        assert page.locator("[data-guest-over]").count() == 1
        page.goto(urls["acc-rules"])
        assert page.locator("[data-rule^='T-8']").count() == 10  # T-8 and (a) to (i)
        context.close()
    assert problems == {}
