"""The floor on a director's tablet (1024x768): the counts on top, the tables as tiles with no
sideways scrolling, a count tapped to show those tables alone; and a runner keying paper cards
from the keyboard alone (table, Tab, score, Tab, score, Enter), ready for the next at once."""

from __future__ import annotations

import pytest

from tests import factories
from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import TableGame, TableState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 1024, "height": 768}


def test_a_runner_keys_paper_cards_on_a_tablet_from_the_keyboard(live_server, browser, shot):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import JUDGES, TOURNAMENT_DIRECTORS

    director = factories.UserFactory(username="dora")
    for group in (TOURNAMENT_DIRECTORS, JUDGES):  # directs the event and checks its cards
        director.groups.add(Group.objects.get_or_create(name=group)[0])
    night = services.tournament_create(
        user=director, name="Grand National", games_per_entrant=1, draw_seed=3, acc_rules=False
    )
    services.entrants_add(
        user=director,
        tournament=night,
        names=[f"Player {i:03d}" for i in range(120)],
        check_in=True,
    )
    rnd = services.round_seat_next(user=director, tournament=night)
    services.round_start(user=director, round=rnd)
    tables = {g.table: g for g in rnd.games.select_related("first", "second")}

    context = browser.new_context(viewport=TABLET, locale="en-GB", service_workers="block")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        log_in(page, live_server, "dora")
        page.goto(f"{live_server.url}/direct/nights/{night.pk}/floor/")
        assert page.locator("[data-table]").count() == 60
        assert page.inner_text("[data-show=waiting] strong") == "60"
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= TABLET["width"], width
        assert page.locator("[data-show=waiting]").bounding_box()["y"] < TABLET["height"]

        # Keyboard only: the table field has the focus.
        for number, first, second in ((7, "121", "88"), (12, "64", "121")):
            assert page.evaluate("() => document.activeElement.id") == "paper-table"
            page.keyboard.type(str(number))
            page.keyboard.press("Tab")
            page.keyboard.type(first)
            page.keyboard.press("Tab")
            page.keyboard.type(second)
            page.keyboard.press("Enter")
            page.wait_for_selector(f"text=Table {number}: in,")
        assert page.inner_text("[data-show=done] strong") == "2"
        for number, winner, loser in ((7, "first", 88), (12, "second", 64)):
            game = TableGame.objects.get(pk=tables[number].pk)
            assert game.status == TableState.VERIFIED
            assert (game.winner_id, game.loser_score) == (
                getattr(tables[number], f"{winner}_id"),
                loser,
            )
        shot(page, "floor-tablet-1024")

        # A count tapped: those tables alone.
        page.click("[data-show=done]")
        page.wait_for_url("**show=done")
        assert sorted(
            int(n)
            for n in page.locator("[data-table]").evaluate_all(
                "(tiles) => tiles.map((t) => t.dataset.table)"
            )
        ) == [7, 12]
    finally:
        context.close()
