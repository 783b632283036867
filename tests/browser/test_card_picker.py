"""The card picker on a 390 px phone, in English and French: a captain picks a show's cards and
the starter by tapping (a hand in five taps), sees the scorer's breakdown as on typing, cards
already chosen greyed out; then picks the cards dealt on the discard analyser and reads each
discard's cost; where the league asks, records the cards dealt after a deal."""

from __future__ import annotations

import pytest

from tests.browser.conftest import context_in, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"pick": "Pick cards", "total": "Total: 29", "best": "best", "rank": "Rank the discards"},
    "fr": {
        "pick": "Choisir les cartes",
        "total": "Total : 29",
        "best": "meilleur",
        "rank": "Classer les écarts",
    },
}


def taps(page, grid: str, cards: str) -> None:
    for card in cards.split():
        page.click(f"#{grid} button[data-card='{card}']")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_captain_picks_a_show_and_a_dealt_hand_by_tapping(
    live_server, browser, shot, game, ann, language
):
    words = WORDS[language]
    context = context_in(browser, live_server, language, viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_selector("[data-cards]", state="attached")

    # The starter: open its grid and tap the five of clubs (two taps); the grid closes itself.
    starter_toggle = page.locator("#starter ~ .card-picker-bar .card-picker-toggle")
    assert starter_toggle.inner_text() == words["pick"]
    starter_toggle.click()
    taps(page, "starter-picker", "5C")
    assert page.input_value("#starter") == "5C"
    assert page.locator("#starter-picker").is_hidden()

    # The first show's cards: the grid's button and four cards, five taps in all.
    page.check("[data-with-cards]")
    first = page.locator("[data-cards]:not([data-cards=crib])").first
    box = first.get_attribute("id")
    who = first.get_attribute("data-cards")
    page.click(f"#{box} ~ .card-picker-bar .card-picker-toggle")
    grid = f"{box}-picker"
    assert page.locator(f"#{grid} button[data-card='5C']").is_disabled()  # the starter's
    taps(page, grid, "5H 5D 5S JC")
    assert page.input_value(f"#{box}") == "5H 5D 5S JC"
    page.wait_for_selector(f"[data-breakdown='{who}'] li.total")
    assert page.inner_text(f"[data-breakdown='{who}'] li.total") == words["total"]
    # Those four are greyed in the crib's grid, and a second tap takes a card back.
    crib_grid = "f-cards-crib-picker"
    page.click("#f-cards-crib ~ .card-picker-bar .card-picker-toggle")
    assert page.locator(f"#{crib_grid} button[data-card='JC']").is_disabled()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the entry page is {width}px wide with the picker open"
    shot(page, f"card-picker-entry-{language}-390")
    page.click(f"#{box} ~ .card-picker-bar .card-picker-toggle")
    taps(page, grid, "JC")
    assert page.input_value(f"#{box}") == "5H 5D 5S"
    assert page.locator(f"#{crib_grid} button[data-card='JC']").is_enabled()

    # The analyser: the grid is open from the start; six taps for the six cards dealt.
    page.goto(f"{live_server.url}/discard/")
    taps(page, "id_cards-picker", "5H 5D JS 4C KD 9S")
    assert page.input_value("#id_cards") == "5H 5D JS 4C KD 9S"
    assert page.locator("#id_cards-picker button[data-card='2C']").is_disabled()  # six is all
    page.click(f"button:text('{words['rank']}')")
    page.wait_for_selector(".discard-table")
    rows = page.locator(".discard-table tbody tr")
    assert rows.count() == 15
    assert rows.first.locator("td").nth(0).inner_text() == "4C 9S"
    assert rows.first.locator("td").nth(5).inner_text() == words["best"]
    assert rows.nth(1).locator("td").nth(5).inner_text().startswith("−")  # what it costs
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the analyser is {width}px wide on a 390px phone"
    shot(page, f"card-picker-discard-{language}-390")
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert page.locator("#id_cards-picker").is_visible()
    shot(page, f"card-picker-discard-{language}-1920")
    context.close()


PROMPT = {
    "en": {"title": "Deal 1: the cards each player was dealt", "you": "The cards you were dealt"},
    "fr": {
        "title": "Donne 1 : les cartes distribuées à chaque joueur",
        "you": "Les cartes qu'on vous a distribuées",
    },
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_where_the_league_asks_the_captain_records_the_cards_dealt_after_a_deal(
    live_server, browser, shot, game, ann, language
):
    from league.models import DealtCards, DealtHand
    from tests.browser.conftest import type_deal
    from tests.factories import game_deals

    league = game.match.week.season.league
    league.dealt_cards = DealtCards.ASKED
    league.save()
    deal = game_deals(game)[0]
    words = PROMPT[language]
    context = context_in(browser, live_server, language, viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_selector("[data-cards]", state="attached")
    page.check("[data-with-cards]")
    page.fill("#starter", deal["starter"])
    for who, cards in deal["cards"].items():
        page.fill(f"#f-cards-{who}", " ".join(cards))
    type_deal(page, deal)

    # Once the deal is stored, the prompt asks for Ann's and her partner Bob's cards dealt,
    # each show's cards filled in: one tap (the card Ann laid away) completes hers.
    page.wait_for_selector("[data-dealt-prompt]:not([hidden])")
    assert page.inner_text("[data-dealt-title]") == words["title"]
    assert page.inner_text("label[for='dealt-1-0']") == words["you"]
    assert page.input_value("#dealt-1-0") == " ".join(deal["cards"]["0"])
    assert page.locator("#dealt-1-2").count() == 1 and page.locator("#dealt-1-1").count() == 0
    page.click("#dealt-1-0 ~ .card-picker-bar .card-picker-toggle")
    laid = deal["cards"]["crib"][0]
    page.click(f"#dealt-1-0-picker button[data-card='{laid}']")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the entry page is {width}px wide with the prompt open"
    shot(page, f"dealt-prompt-{language}-390")
    page.click("[data-dealt-save]")  # Bob's, left as filled in, is not sent
    page.wait_for_selector("[data-dealt-prompt]", state="hidden")
    [hand] = DealtHand.objects.all()
    assert (hand.number, hand.seat) == (1, 0)
    assert sorted(hand.cards) == sorted([*deal["cards"]["0"], laid])
    context.close()
