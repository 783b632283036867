"""Results you can trust, in the browser: two phones that entered one deal differently see both
versions side by side and settle it with one tap; a judge fixes a typo that changed who reached
121 through the phone's own deal form in the admin, and the standings follow."""

from __future__ import annotations

import pytest

from league.models import Deal, Dispute, DisputeStatus, GameStatus
from league.selectors.standings import standings_for_season
from league.services.deals import deal_record
from league.services.disputes import dispute_raise
from league.services.games import game_confirm
from tests.browser.conftest import PHONE, TV, log_in, type_deal
from tests.factories import game_deals, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for_title(page, title: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-deal-title]').textContent === t", arg=title
    )


def other_numbers(deal: dict) -> dict:
    """The same deal with one hand counted differently (a legal count either way)."""
    changed = {**deal, "shows": dict(deal["shows"])}
    seat = next(iter(changed["shows"]))
    changed["shows"][seat] = 2 if changed["shows"][seat] != 2 else 4
    return changed


def test_two_phones_enter_one_deal_differently_and_one_tap_raises_a_dispute_with_both(
    live_server, browser, shot, game, ann, cat
):
    deals = [{k: v for k, v in d.items() if k != "cards"} for d in game_deals(game)]
    play(game, ann, deals=2)
    url = f"{live_server.url}/games/{game.pk}/enter/"
    phones = {}
    for who in ("ann", "cat"):
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        context.set_default_timeout(15_000)
        page = context.new_page()
        log_in(page, live_server, who)
        page.goto(url)
        wait_for_title(page, "Deal 3")
        phones[who] = page

    # Both type deal 3; Ann's phone sends it first, Cat's a moment later, with other numbers.
    cat_numbers = other_numbers(deals[2])
    type_deal(phones["cat"], cat_numbers, save=False)
    type_deal(phones["ann"], deals[2])
    wait_for_title(phones["ann"], "Deal 4")
    phones["ann"].wait_for_selector('[data-sync-status][data-pending="0"]')
    assert phones["cat"].inner_text("[data-deal-title]") == "Deal 3"  # what she typed stays
    phones["cat"].click("[data-save]")

    # Cat's entry is not refused: it is kept beside the counted one, and her phone shows both.
    cat_page = phones["cat"]
    panel = cat_page.wait_for_selector('[data-rival="3"]')
    cat_page.wait_for_selector('[data-sync-status][data-pending="0"]')
    assert cat_page.get_attribute("[data-sync-status]", "data-state") == "conflict"
    assert not cat_page.query_selector(".outbox-item--refused")
    assert "Deal 3 was entered twice, with different numbers" in panel.inner_text()
    assert "Counted now (entered by ann)" in panel.inner_text()
    assert "The other entry (by cat)" in panel.inner_text()
    seat = next(iter(cat_numbers["shows"]))
    name = ["Ann", "Cat", "Bob", "Dan"][int(seat)]
    counted, other = cat_page.query_selector_all('[data-rival="3"] .rival-version')
    assert f"{name} {deals[2]['shows'][seat]}" in counted.inner_text()
    assert f"{name} {cat_numbers['shows'][seat]}" in other.inner_text()
    rival = Deal.objects.get(game=game, number=3, is_rival=True)
    assert rival.entered_by == cat and rival.shows[seat] == cat_numbers["shows"][seat]
    shot(cat_page, "conflict-cat")

    # Ann's phone sees the same two versions without a reload (the page keeps up).
    ann_panel = phones["ann"].wait_for_selector('[data-rival="3"]', timeout=20_000)
    assert "The other entry (by cat)" in ann_panel.inner_text()
    assert phones["ann"].is_visible('[data-rival="3"] [data-rival-dispute]')
    shot(phones["ann"], "conflict-ann")

    # One tap on Cat's phone raises a dispute that holds both versions.
    cat_page.click('[data-rival="3"] [data-rival-dispute]')
    cat_page.wait_for_function(
        "() => /A judge has been asked/.test("
        "document.querySelector('[data-rival=\"3\"]').textContent)"
    )
    assert not cat_page.query_selector('[data-rival="3"] [data-rival-dispute]')
    dispute = Dispute.objects.get(game=game)
    assert dispute.rival == rival and dispute.deal_number == 3
    assert dispute.raised_by == cat and dispute.status == DisputeStatus.OPEN
    assert "ann entered" in dispute.claim and "cat entered" in dispute.claim
    assert f"{name} {deals[2]['shows'][seat]}" in dispute.claim
    assert f"{name} {cat_numbers['shows'][seat]}" in dispute.claim
    shot(cat_page, "conflict-disputed")
    for page in phones.values():
        page.context.close()


# A game with a typo in deal 5: Dan's hand was 24, entered as 4. As entered, Fifteen Two reach
# 121 in deal 6; with Dan's 24, Nobs reach it in deal 5, mid-show, and deal 6 was never played.
# Seats: Ann, Cat, Bob, Dan clockwise; Ann (Fifteen Two) deals first.
def _deal(dealer: int, shows: dict, crib) -> dict:
    return {"dealer": dealer, "pegging": [3, 3], "shows": shows, "crib": crib}


EVEN = {"0": 8, "1": 8, "2": 8, "3": 8}
TYPO_GAME = [
    _deal(0, EVEN, 6),
    _deal(1, EVEN, 6),
    _deal(2, EVEN, 6),
    _deal(3, EVEN, 6),
    _deal(0, {"1": 8, "2": 8, "3": 4, "0": 8}, 6),  # Dan's 24 entered as 4
    _deal(1, {"2": 8}, None),  # Bob's 8 takes Fifteen Two to 124: game
]


def test_a_judge_fixes_a_typo_that_changed_who_reached_121_through_the_deal_form(
    live_server, browser, shot, season, game, ann, cat, judge
):
    for number, data in enumerate(TYPO_GAME, start=1):
        deal_record(game=game, user=ann, number=number, data=data)
    game = game_confirm(game=game, user=cat)
    assert game.status == GameStatus.CONFIRMED and game.winner.name == "Fifteen Two"
    before = {r["team"]: r for r in standings_for_season(season)["standings"]}
    assert (before["Fifteen Two"]["won"], before["Nobs"]["won"]) == (1, 0)
    judge.is_staff = True
    judge.save()
    dispute = dispute_raise(
        game=game,
        user=judge,
        claim="Cat: Dan's hand in deal 5 was 24, not 4.",
        deal_number=5,
    )

    context = browser.new_context(viewport=TV, locale="en-GB")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "judy")
    page.fill("#id_password", "pass-word-123")
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/league/dispute/{dispute.pk}/change/")
    page.wait_for_selector("[data-judge-deal='6']")
    assert not page.query_selector("textarea[name=corrections]")  # no JSON to type
    assert "Game over: Fifteen Two wins 121–106." in page.inner_text("[data-judge-outcome]")
    shot(page, "judge-form", full_page=False)

    # Deal 5 opens in the phone's form, as entered, seats named.
    page.click("[data-judge-edit='5']")
    assert page.inner_text("[data-deal-title]") == "Correct deal 5"
    assert page.input_value("#f-shows-3") == "4"
    assert "Dan's hand" in page.inner_text("label[for=f-shows-3]")
    assert "As entered (by ann)" in page.inner_text("[data-judge-versions]")

    # The scorer's live checks: 19 is no count; then the true 24 ends the game mid-show.
    page.fill("#f-shows-3", "19")
    assert page.inner_text("[data-msg-for='shows.3']") == "A hand can never score 19."
    page.fill("#f-shows-3", "24")
    assert "Nobs reach 121: the game is over" in page.inner_text("[data-deal-total]")
    assert page.is_disabled("#f-shows-0") and page.is_disabled("#f-crib")
    shot(page, "judge-form-deal", full_page=False)
    page.click("[data-save]")

    # The game now ends in deal 5: deal 6 must go too, in the same ruling.
    warning = page.wait_for_selector(".judge-warning")
    assert "the game ends in deal 5: strike out the deals after it" in warning.inner_text()
    page.click("[data-judge-strike-after]")
    assert "Game over: Nobs wins 121–99." in page.inner_text("[data-judge-outcome]")
    assert "deal 5 corrected, deal 6 struck out" in page.inner_text("[data-judge-changes]")
    page.select_option("#id_decision", "resolve")
    page.fill("#id_ruling_text", "Dan's hand was 24: Nobs reached 121 in deal 5.")
    page.select_option("#id_rule", "S-4")
    shot(page, "judge-form-ready")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist .success")

    dispute.refresh_from_db()
    game.refresh_from_db()
    assert dispute.status == DisputeStatus.RESOLVED
    assert game.status == GameStatus.CONFIRMED  # the ruling settles it for both teams
    assert game.winner.name == "Nobs" and game.deal_count == 5
    assert (game.home_score, game.away_score) == (99, 123)
    last = Deal.objects.get(game=game, number=5, is_current=True)
    assert last.shows == {"1": 8, "2": 8, "3": 24} and last.crib is None
    assert not Deal.objects.filter(game=game, number=6, is_current=True).exists()
    season.refresh_from_db()  # the ruling moved the season's results on
    after = {r["team"]: r for r in standings_for_season(season)["standings"]}
    assert (after["Fifteen Two"]["won"], after["Nobs"]["won"]) == (0, 1)

    page.goto(f"{live_server.url}/seasons/{season.pk}/standings/")
    first = page.inner_text("table.standings tbody tr:first-child")
    assert "Nobs" in first
    shot(page, "judge-standings-after", full_page=False)
    context.close()
