"""A captain enters a whole game on a phone while the bar's wifi comes and goes: entries are
kept on the phone, sent when the connection returns, each stored once; a refused entry stays on
screen with the server's reason until it is dealt with; the other team confirms from its phone."""

from __future__ import annotations

import pytest

from league.models import Deal, GameStatus
from tests.browser.conftest import log_in, pending, stored, wait_for_next, wait_until_sent
from tests.browser.conftest import type_deal as enter_deal
from tests.factories import game_deals, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALS_URL = "**/api/games/*/deals/"


def block_posts(route) -> None:
    """The server can't be reached for sending (pages still load)."""
    if route.request.method == "POST":
        route.abort()
    else:
        route.continue_()


def test_a_captain_enters_a_whole_game_through_a_dropped_connection(
    live_server, phone, shot, game, ann
):
    deals = game_deals(game, seed=1)  # a legal game of seven deals
    total = len(deals)
    assert total == 7
    url = f"{live_server.url}/games/{game.pk}/enter/"
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(url)
    shot(page, "entry-empty")

    # Deals 1-2 with a good connection: each is on the server as soon as it is saved.
    for number in (1, 2):
        enter_deal(page, deals[number - 1])
        wait_for_next(page, number, total)
        wait_until_sent(page)
    assert stored(game) == [1, 2]

    # The wifi drops: deals 3-5 are kept on the phone, and the page says how many.
    phone.set_offline(True)
    for number in (3, 4, 5):
        enter_deal(page, deals[number - 1])
        wait_for_next(page, number, total)
        assert pending(page) == number - 2
    status = page.inner_text("[data-sync-status]")
    assert "3 deals are not sent yet: no connection" in status
    assert page.inner_text("[data-outbox-count]") == "3"
    shot(page, "entry-offline")
    assert stored(game) == [1, 2]

    # The tab is closed; it opens again while the server still can't be reached.
    page.close()
    phone.route(DEALS_URL, block_posts)
    phone.set_offline(False)
    page = phone.new_page()
    page.goto(url)
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 6'"
    )
    assert pending(page) == 3
    assert stored(game) == [1, 2]

    # The server comes back: the outbox sends the three, once each, in order.
    phone.unroute(DEALS_URL)
    wait_until_sent(page, timeout=15_000)
    assert stored(game) == [1, 2, 3, 4, 5]

    # Deal 6's answer is lost on the way back: the server stored it, the phone retries with the
    # same key, and the server answers with the stored deal instead of storing a second one.
    lost = {"answers": 0}

    def lose_first_answer(route):
        if route.request.method == "POST" and lost["answers"] == 0:
            lost["answers"] += 1
            route.fetch()
            route.abort()
        else:
            route.continue_()

    phone.route(DEALS_URL, lose_first_answer)
    enter_deal(page, deals[5])
    # The lost answer's request goes to the server and back through the test's route handler
    # before the phone sees the failure: as long as the outbox's sending below, not the default.
    wait_for_next(page, 6, total, timeout=15_000)
    wait_until_sent(page, timeout=15_000)
    phone.unroute(DEALS_URL)
    assert lost["answers"] == 1
    assert stored(game) == [1, 2, 3, 4, 5, 6]

    # The last deal ends the game.
    enter_deal(page, deals[6])
    wait_for_next(page, 7, total)
    wait_until_sent(page)
    shot(page, "entry-game-over")

    game.refresh_from_db()
    assert stored(game) == list(range(1, total + 1))  # every deal, each once
    assert Deal.objects.filter(game=game).values("key").distinct().count() == total
    assert game.status == GameStatus.FINISHED
    assert "Game over" in page.inner_text("[data-game-over-title]")


def test_an_entry_the_server_refuses_stays_with_its_reason_until_discarded(
    live_server, phone, shot, game, ann
):
    deals = game_deals(game)
    play(game, ann, deals=2)
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 3'"
    )

    # Offline, Ann saves deal 3 with the cards, and claims 12 for Bob's hand: the phone cannot
    # ask the scorer to count it, so only the server can tell that his cards make less.
    phone.set_offline(True)
    deal = deals[2]
    page.check("[data-with-cards]")
    page.fill("#starter", deal["starter"])
    for who, cards in deal["cards"].items():
        page.fill(f"#f-cards-{who}", " ".join(cards))
    claimed = {**deal, "shows": {**deal["shows"], "2": 12}}
    assert deal["shows"]["2"] < 12
    enter_deal(page, claimed)
    wait_for_next(page, 3, len(deals))
    phone.set_offline(False)

    refusal = page.wait_for_selector(".outbox-item--refused .refusal")
    reason = "so 12 can't be claimed (an under-count stands: we play no muggins)."
    assert reason in refusal.inner_text()
    assert page.get_attribute("[data-sync-status]", "data-state") == "refused"
    assert page.inner_text("[data-outbox-count]") == "1"
    shot(page, "entry-refused")
    page.reload()  # it stays, with its reason, across a reload
    assert reason in page.inner_text(".outbox-item--refused")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-discard]")
    wait_until_sent(page)
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 3'"
    )
    assert stored(game) == [1, 2]


def test_numbers_are_checked_as_they_are_typed(live_server, phone, shot, game, ann):
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.fill("#f-shows-1", "19")
    assert page.inner_text("[data-msg-for='shows.1']") == "A hand can never score 19."
    assert page.get_attribute("#f-shows-1", "aria-invalid") == "true"
    page.fill("#f-crib", "30")
    assert "the most it can make is 29" in page.inner_text("[data-msg-for='crib']")
    page.fill("#starter", "JH")
    assert "His heels: 2 to Fifteen Two." in page.inner_text("[data-msg-for='starter']")
    page.click("[data-save]")
    assert page.is_visible("[data-form-error]")
    shot(page, "entry-checks")
    assert not Deal.objects.exists()

    # The cards, counted by the scorer as they are typed.
    page.fill("#f-shows-1", "")
    page.fill("#starter", "5C")
    page.check("[data-with-cards]")
    page.fill("#f-cards-1", "5H 5D 5S JC")
    page.wait_for_selector("[data-breakdown='1'] .total")
    assert page.input_value("#f-shows-1") == "29"
    assert "one for his nobs" in page.inner_text("[data-breakdown='1']")
    shot(page, "entry-cards")


def test_the_scorers_count_reads_in_french_as_cards_are_typed(
    live_server, browser, shot, game, ann
):
    """A French phone: the breakdown under the cards is the scorer's count said in French."""
    from tests.browser.conftest import PHONE

    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, locale="fr-FR", service_workers="block"
    )
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    try:
        page = context.new_page()
        log_in(page, live_server, "ann")
        page.goto(f"{live_server.url}/games/{game.pk}/enter/")
        page.fill("#starter", "5C")
        page.check("[data-with-cards]")
        page.fill("#f-cards-1", "5H 5D 5S JC")
        page.wait_for_selector("[data-breakdown='1'] .total")
        lines = page.inner_text("[data-breakdown='1']").splitlines()
        assert lines[0] == "quinze deux : 5S JC (2)"
        assert "un pour le valet (nobs) : JC (1)" in lines
        assert lines[-1] == "Total : 29"
        assert not [line for line in lines if "fifteen" in line or "nobs:" in line]
        shot(page, "entry-cards-fr")
    finally:
        context.close()


def test_the_other_team_confirms_from_their_own_phone(live_server, phone, shot, game, ann, cat):
    play(game, ann)
    page = phone.new_page()
    log_in(page, live_server, "cat")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shot(page, "game-to-confirm")
    page.click("form[action$='/confirm/'] button")
    page.wait_for_selector(".message--success")
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED


def test_a_captain_corrects_a_deal_her_team_entered_from_the_deal_list(
    live_server, phone, shot, game, ann
):
    deals = game_deals(game)
    play(game, ann, deals=3)
    page = phone.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 4'"
    )

    # Offline, a correction cannot be sent, and the page says so.
    phone.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.wait_for_selector("[data-offline-note]:not([hidden])")
    assert page.is_disabled("[data-correct='2']")
    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("[data-correct='2']:not([disabled])")

    # Deal 2 opens in the same form, filled with its stored numbers, seats named.
    page.click("[data-correct='2']")
    assert page.inner_text("[data-deal-title]") == "Correct deal 2"
    stored = deals[1]
    seat, points = next(iter(stored["shows"].items()))
    assert page.input_value(f"#f-shows-{seat}") == str(points)
    assert page.input_value("#f-pegging-0") == str(stored["pegging"][0])
    new_points = 2 if points != 2 else 4
    page.fill(f"#f-shows-{seat}", str(new_points))
    page.click("[data-save]")
    assert page.inner_text("[data-msg-for='reason']") == "Say why the deal is corrected."
    page.fill("#reason", "A hand was added up wrong.")
    shot(page, "entry-correcting")
    page.click("[data-save]")

    page.wait_for_function(
        "() => document.querySelector('[data-deal-title]').textContent === 'Deal 4'"
    )
    assert "Deal 2 is corrected." in page.inner_text("[data-sync-status]")
    corrected = Deal.objects.get(game=game, number=2, is_current=True)
    assert corrected.version == 2 and corrected.shows[seat] == new_points
    assert corrected.reason == "A hand was added up wrong."
    game.refresh_from_db()
    item = page.inner_text("[data-deal-list] [data-deal='3']")
    assert f"Fifteen Two {game.home_score} · Nobs {game.away_score}" in item
    assert "corrected" in page.inner_text("[data-deal-list] [data-deal='2']")
    shot(page, "entry-corrected")
