"""A 12-entrant club night in the browser: the director checks the field in and seats three
rounds from the admin, each round's first table is entered from two phones (round 1's cards
disagree and a checker settles it from the queue), the cut, and a best-of-3 playoff to a
champion on the public bracket and the TV."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from league.kernel.permissions import JUDGES, TOURNAMENT_DIRECTORS
from league.models import Player
from tests import factories
from tests.browser.conftest import PHONE, log_in
from tournaments import services
from tournaments.models import EntrantStatus, TableState, TournamentStage

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]


def _staff(username: str, group: str):
    user = factories.UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def _admin_action(page, url: str, changelist: str, pks, action: str) -> None:
    page.goto(f"{url}/admin/tournaments/{changelist}/")
    for pk in pks:
        page.check(f"input[name=_selected_action][value='{pk}']")
    page.select_option("select[name=action]", action)
    page.click("button[name=index]")
    page.wait_for_load_state()


def _phone_card(browser, live_server, username: str, game, winner, score: int) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server, username)
    page.goto(f"{live_server.url}/tournaments/{game.round.tournament_id}/")
    page.click("[data-scorecard-link]")
    page.check(f"input[name=winner][value='{winner.pk}']")
    page.fill("#id_loser_score", str(score))
    page.click("[data-scorecard] button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tournaments/{game.round.tournament_id}/")
    context.close()


def test_a_twelve_entrant_club_night_from_check_in_to_a_champion(live_server, browser):
    director = _staff("dora", TOURNAMENT_DIRECTORS)
    _staff("judy", JUDGES)
    # The checkers' queue through the admin: without ACC Rule 12.2, which would settle round
    # 1's disagreement itself (tests/browser/test_director_workspace.py walks that).
    night = services.tournament_create(
        user=director, name="Browser Night", draw_seed=7, acc_rules=False
    )
    entrants = []
    for name in NAMES:
        entrant = services.entrant_register(user=director, tournament=night, name=name)
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
        entrants.append(entrant)

    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    desk.set_default_timeout(15_000)
    page = desk.new_page()
    log_in(page, live_server, "dora")
    url = live_server.url
    _admin_action(page, url, "entrant", [e.pk for e in entrants], "check_in")
    assert night.entrants.filter(status=EntrantStatus.CHECKED_IN).count() == 12

    for number in (1, 2, 3):
        _admin_action(page, url, "tournament", [night.pk], "seat_next_round")
        rnd = night.rounds.get(number=number)
        seating = page.goto(f"{url}/tournaments/{night.pk}/rounds/{number}/")
        assert seating.ok and page.locator("[data-table]").count() == 6
        first, *others = rnd.games.select_related("first", "second", "round").order_by("table")
        a, b = first.first, first.second
        _phone_card(browser, live_server, a.name.lower(), first, a, 90)
        # round 1: the second phone writes another score; later rounds agree
        _phone_card(browser, live_server, b.name.lower(), first, a, 95 if number == 1 else 90)
        first.refresh_from_db()
        if number == 1:
            assert first.status == TableState.MISMATCH
            checker = browser.new_context(locale="en-GB")
            checker.set_default_timeout(15_000)
            cpage = checker.new_page()
            log_in(cpage, live_server, "judy")
            cpage.goto(f"{url}/admin/tournaments/checkersqueue/")
            assert "95" in cpage.content() and "90" in cpage.content()  # both cards
            cpage.goto(f"{url}/admin/tournaments/checkersqueue/{first.pk}/change/")
            cpage.select_option("#id_settle_winner", str(a.pk))
            cpage.fill("#id_settle_loser_score", "95")
            cpage.click("input[name=_save]")
            cpage.wait_for_load_state()
            checker.close()
            first.refresh_from_db()
        assert first.status == TableState.VERIFIED
        for game in others:  # the other tables' cards, as their phones would send them
            for side in (game.first, game.second):
                services.scorecard_enter(
                    user=side.players.get().user, game=game, winner=game.second, loser_score=80
                )

    standings = page.goto(f"{url}/tournaments/{night.pk}/")
    assert standings.ok
    assert page.locator("[data-qualifier]").count() == 3  # 12 entrants: 3 qualify
    assert page.locator("[data-first-out]").count() == 1
    _admin_action(page, url, "tournament", [night.pk], "draw_bracket")
    night.refresh_from_db()
    assert night.stage == TournamentStage.PLAYOFFS

    def play_match(match, winner_first: bool) -> None:
        match.refresh_from_db()
        winner = match.top if winner_first else match.bottom
        for _ in range(2):  # best of 3: two straight games
            page.goto(f"{url}/admin/tournaments/playoffmatch/{match.pk}/change/")
            page.select_option("#id_game_winner", str(winner.pk))
            page.fill("#id_game_loser_score", "100")
            page.click("input[name=_save]")
            page.wait_for_load_state()
        match.refresh_from_db()
        assert match.winner_id == winner.pk

    semi = night.playoff_matches.get(round=1, is_bye=False)
    play_match(semi, winner_first=True)
    final = night.playoff_matches.get(round=2)
    play_match(final, winner_first=True)
    night.refresh_from_db()
    assert night.stage == TournamentStage.FINISHED
    page.goto(f"{url}/tournaments/{night.pk}/bracket/")
    champion = page.locator("[data-champion]").inner_text()
    assert final.top.name in champion
    tv = page.goto(f"{url}/tournaments/{night.pk}/tv/")
    assert tv.ok and final.top.name in page.locator("[data-champion]").inner_text()
    desk.close()
