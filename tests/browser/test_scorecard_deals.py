"""A player enters a tournament game deal by deal on the phone, with the league's deal form:
every deal checked as it is typed, the card sent with its deals once a side reaches 121, and
the server's scorer gives the card's winner and loser's score."""

from __future__ import annotations

import pytest

from league.models import Player
from tests import factories
from tests.browser.conftest import log_in, type_deal
from tests.factories import singles_game
from tournaments import services
from tournaments.models import Scorecard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_game_entered_deal_by_deal_sends_one_card_with_its_result(live_server, phone, shot):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

    director = factories.UserFactory(username="dora")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    night = services.tournament_create(user=director, name="Deal Night", draw_seed=5)
    for name in ("Ann", "Bob"):
        services.entrant_register(user=director, tournament=night, name=name, check_in=True)
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
    table = services.round_seat_next(user=director, tournament=night).games.get()
    me = table.first
    deals = singles_game(strong_seat=1)  # the second entrant wins

    page = phone.new_page()
    log_in(page, live_server, me.name.lower())
    page.goto(f"{live_server.url}/tournaments/tables/{table.pk}/scorecard/")
    page.click("[data-card-deals-link]")
    page.wait_for_selector("[data-deal-title]:has-text('Deal 1')")
    for number, deal in enumerate(deals, start=1):
        type_deal(page, deal)
        if number < len(deals):
            page.wait_for_selector(f"[data-deal-title]:has-text('Deal {number + 1}')")
    page.wait_for_selector("[data-game-over]:not([hidden])")
    assert table.second.name in page.inner_text("[data-game-over-title]")
    shot(page, "scorecard-deal-by-deal-over")
    assert not Scorecard.objects.exists()  # kept on the phone until the player sends it
    page.click("[data-send-card]")
    page.wait_for_url(f"{live_server.url}/tournaments/{night.pk}/")
    card = Scorecard.objects.get(game=table)
    assert card.winner_id == table.second_id and len(card.deals["deals"]) == len(deals)
    assert "your card is in" in page.inner_text("[data-card-waiting]")
