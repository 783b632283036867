"""A player at a tournament table with no signal: the scorecard page, once opened, opens again
from the service worker, the card written offline waits on the phone (the league's outbox), and
it is stored exactly once when the signal returns."""

from __future__ import annotations

import pytest

from league.models import Player
from tests import factories
from tests.browser.conftest import log_in
from tournaments import services
from tournaments.models import Scorecard

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NETWORK = "() => fetch('/ping', {cache: 'no-store'}).then(() => 'online', () => 'offline')"


def test_a_card_written_in_airplane_mode_is_sent_once_when_the_signal_returns(
    live_server, phone_with_worker, shot
):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

    director = factories.UserFactory(username="dora")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    night = services.tournament_create(user=director, name="Basement Night", draw_seed=5)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        services.entrant_register(user=director, tournament=night, name=name, check_in=True)
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
    table = services.round_seat_next(user=director, tournament=night).games.get(table=1)
    me = table.first
    url = f"{live_server.url}/tournaments/tables/{table.pk}/scorecard/"
    done = f"{live_server.url}/tournaments/{night.pk}/"

    phone = phone_with_worker
    page = phone.new_page()
    log_in(page, live_server, me.name.lower())
    page.goto(done)  # the tournament page asks the worker to keep the scorecard page
    page.wait_for_selector("body[data-offline-ready]")
    page.wait_for_function(f"() => caches.match({url!r}).then(Boolean)")
    page.close()

    # Airplane mode, the tab closed: the scorecard opens again, from the phone.
    phone.set_offline(True)
    page = phone.new_page()
    page.goto(url)
    assert page.evaluate(NETWORK) == "offline"
    page.check(f"input[name=winner][value='{me.pk}']")
    page.fill("#id_loser_score", "97")
    page.click("[data-scorecard] button[type=submit]")
    page.wait_for_selector('[data-card-status][data-pending="1"]:not([hidden])')
    assert "kept on this phone" in page.inner_text("[data-card-status]")
    shot(page, "scorecard-airplane-mode")
    page.wait_for_timeout(1500)  # the outbox keeps trying; nothing can reach the server
    assert not Scorecard.objects.filter(game=table).exists()

    # The signal returns: the card is sent, once, and the tournament page is shown.
    phone.set_offline(False)
    page.wait_for_url(done, timeout=20_000)
    assert "your card is in" in page.inner_text("[data-card-waiting]")
    page.wait_for_timeout(6000)  # past the outbox's retry interval: nothing is sent again
    cards = list(Scorecard.objects.filter(game=table))
    assert [(c.side_id, c.winner_id, c.loser_score) for c in cards] == [(me.pk, me.pk, 97)]
    assert cards[0].key  # sent with the outbox's idempotency key
    assert page.evaluate("() => window.PegboardOutbox.all().length") == 0
