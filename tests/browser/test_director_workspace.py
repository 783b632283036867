"""A 12-entrant club night run from the director's workspace on a tablet (1024x768), from
"Tonight" to the champion and the closed books, with the players' cards from their phones
(390 px). Every tap, choice and typed field of the director is counted: the issue's bar is 40
or fewer (the Django admin took about 93). Each phone card is counted too: 4 taps or fewer.

Most of the 9 rounds' cards are sent through the scorecard service, as the phones' API would,
to keep the test fast; some go through the phone's page; one pair disagrees and ACC Rule
12.2(e) settles it by itself (the live view shows the clause), another pair disagrees where the
rule names no one and the director, who is also the night's checker, settles it on the live
view; a playoff semifinal is lost by a no-show (ACC timing), and the final is reported by the
two players' own cards."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from league.kernel.permissions import JUDGES, TOURNAMENT_DIRECTORS
from league.models import Player
from tests import factories
from tests.browser.conftest import PHONE, log_in
from tournaments import selectors, services
from tournaments.models import (
    Club,
    EntrantStatus,
    LedgerKind,
    TableState,
    TournamentStage,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TABLET = {"width": 1024, "height": 768}
MEMBERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo"]
WALK_INS = ["Kit", "Lou"]  # never seen before: they become members tonight
DIRECTOR_BUDGET = 40
CARD_BUDGET = 4


class Counted:
    """The director's page, counting every action a person makes (a tap, a choice, a field
    typed, an address opened); waiting for the live view to redraw is not an action."""

    def __init__(self, page) -> None:
        self.page = page
        self.actions: list[str] = []

    def goto(self, url: str) -> None:
        self.actions.append(f"open {url}")
        self.page.goto(url)

    def click(self, selector: str) -> None:
        self.actions.append(f"tap {selector}")
        self.page.click(selector)
        self.page.wait_for_load_state()

    def check(self, selector: str) -> None:
        self.actions.append(f"tap {selector}")
        self.page.check(selector)

    def fill(self, selector: str, text: str) -> None:
        self.actions.append(f"type {selector}")
        self.page.fill(selector, text)

    def select(self, selector: str, value: str) -> None:
        self.actions.append(f"choose {selector}")
        self.page.select_option(selector, value)


def _phone_card(
    browser, live_server, username: str, night_id: int, link: str, winner_id: int, score: int
) -> int:
    """A player sends their card from the phone; returns the taps it took (opening the
    night's page, where the player lands, is not a tap)."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server, username)
    page.goto(f"{live_server.url}/tournaments/{night_id}/")
    taps = 0
    page.click(link)
    taps += 1
    page.check(f"input[name=winner][value='{winner_id}']")
    taps += 1
    page.fill("#id_loser_score", str(score))
    taps += 1
    page.click("main form button[type=submit]")
    taps += 1
    page.wait_for_url(f"{live_server.url}/tournaments/{night_id}/")
    assert page.locator(".message--error").count() == 0
    context.close()
    return taps


def _user_of(entrant):
    return entrant.players.get().user


def _table_outside_the_cut(night, tables):
    """A table of ``tables`` where neither player is an apparent qualifier (ranked above the
    cut's last place on the results so far)."""
    data = selectors.standings_for_tournament(night)
    ranks = {s.record.entrant: s.rank for s in data["ranked"]}
    line = ranks[data["qualifiers"][-1]]
    return next(t for t in tables if ranks[t.first.name] > line and ranks[t.second.name] > line)


def test_a_twelve_entrant_night_from_the_tablet_in_forty_actions_or_fewer(
    live_server, browser, shot
):
    director = factories.UserFactory(username="dora")
    for group in (TOURNAMENT_DIRECTORS, JUDGES):  # she checks the cards too, as at a club
        director.groups.add(Group.objects.get_or_create(name=group)[0])
    club = services.club_found(user=director, name="Crooked Peg")
    services.club_members_add(user=director, club=club, names=MEMBERS)
    services.club_defaults_set(
        user=director, club=club, changes={"entry_fee": 1000, "round_minutes": 20}
    )
    url = live_server.url

    desk = browser.new_context(viewport=TABLET, locale="en-GB", service_workers="block")
    desk.set_default_timeout(15_000)
    raw = desk.new_page()
    log_in(raw, live_server, "dora")
    d = Counted(raw)

    # Tonight, from the club's defaults.
    d.goto(f"{url}/direct/")
    d.click(f"[data-club='{club.pk}'] [data-tonight]")
    night = Club.objects.get(pk=club.pk).club_nights.get()
    assert raw.url == f"{url}/direct/nights/{night.pk}/"
    assert night.games_per_entrant == 9 and night.round_minutes == 20

    # The field: two members tapped, the rest pasted (two of them walk-ins).
    d.check("input[data-member='Ann']")
    d.check("input[data-member='Bob']")
    d.fill("#entrant-names", "\n".join(MEMBERS[2:] + WALK_INS))
    d.click("[data-add-entrants]")
    assert night.entrants.count() == 12
    assert set(WALK_INS) <= set(club.members.values_list("name", flat=True))
    shot(raw, "direct/field-1024")
    d.click("[data-check-in-all]")
    assert night.entrants.filter(status=EntrantStatus.CHECKED_IN).count() == 12
    d.click("[data-fees]")
    for name in MEMBERS + WALK_INS:  # the players' logins, for their phones
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()

    phone_taps: list[int] = []
    for number in range(1, 10):
        d.click("[data-seat]")
        rnd = night.rounds.get(number=number)
        assert raw.locator("[data-table]").count() == 6
        d.click("[data-start]")
        assert raw.locator("[data-clock]").count() == 1  # the round clock runs
        tables = list(rnd.games.select_related("first", "second").order_by("table"))
        first = tables[0]
        if number in (1, 5):  # these cards come from the two players' phones
            for side in (first.first, first.second):
                phone_taps.append(
                    _phone_card(
                        browser,
                        live_server,
                        side.name.lower(),
                        night.pk,
                        "[data-scorecard-link]",
                        first.first_id,
                        88,
                    )
                )
            first.refresh_from_db()
            assert first.status == TableState.VERIFIED
            tables = tables[1:]
        if number == 3:
            # Two cards that each claim their own player's win: ACC Rule 12.2(e) makes it a
            # loss for both, each with its own spread, as the second card comes in; the live
            # view shows the director (the night's checker) the clause, and she does nothing.
            services.scorecard_enter(
                user=_user_of(first.first), game=first, winner=first.first, loser_score=90
            )
            services.scorecard_enter(
                user=_user_of(first.second), game=first, winner=first.second, loser_score=95
            )
            ruled = f"[data-table='{first.table}'] [data-acc-rule='12.2(e)']"
            raw.wait_for_selector(ruled)
            assert "ACC Rule 12.2(e)" in raw.locator(ruled).inner_text()
            assert raw.locator(f"[data-table='{first.table}']").get_attribute("data-state") == (
                "done"
            )
            first.refresh_from_db()
            assert (first.status, first.winner_id) == (TableState.VERIFIED, None)
            assert (first.first_spread, first.second_spread) == (-31, -26)
            shot(raw, "direct/acc-ruling-1024")
            tables = tables[1:]
        if number == 4:
            # Two players outside the cut whose cards differ on the spread: the rule names no
            # one to disadvantage, so the director, as checker, decides on the live view.
            game = _table_outside_the_cut(night, tables)
            winner = game.first
            services.scorecard_enter(
                user=_user_of(game.first), game=game, winner=winner, loser_score=90
            )
            services.scorecard_enter(
                user=_user_of(game.second), game=game, winner=winner, loser_score=95
            )
            raw.wait_for_selector(f"[data-table='{game.table}'][data-state='disagree']")
            shot(raw, "direct/disagree-1024")
            d.check(f"[data-table='{game.table}'] input[name=winner][value='{winner.pk}']")
            d.fill(f"[data-table='{game.table}'] input[name=loser_score]", "95")
            d.click(f"[data-table='{game.table}'] .direct-settle button")
            game.refresh_from_db()
            assert (game.status, game.loser_score) == (TableState.VERIFIED, 95)
            assert raw.locator(f"[data-table='{game.table}'] [data-acc-rule]").count() == 0
            tables = [t for t in tables if t.pk != game.pk]
        for game in tables:  # the other tables' cards, as their phones' API sends them
            winner = game.first if (game.table + number) % 2 else game.second
            for side in (game.first, game.second):
                services.scorecard_enter(
                    user=_user_of(side), game=game, winner=winner, loser_score=70 + game.table
                )
        # The live view redraws by itself: every table done, the next step offered.
        try:
            raw.wait_for_selector("[data-seat]" if number < 9 else "[data-draw]")
        except Exception:
            shot(raw, f"direct/stuck-{number}")
            raise
        assert raw.locator("[data-table][data-state='done']").count() == 6

    shot(raw, "direct/cut-1024")
    assert raw.locator("[data-cut] [data-qualifier]").count() == 3  # 12 entrants: 1 in 4
    d.click("[data-draw]")
    night.refresh_from_db()
    assert night.stage == TournamentStage.PLAYOFFS

    # The semifinal: the bottom seed is not at the table after 20 minutes: two games forfeited.
    semi = night.playoff_matches.get(round=1, is_bye=False)
    box = f"[data-match='{semi.pk}']"
    d.select(f"{box} select[name=absent]", str(semi.bottom_id))
    d.fill(f"{box} input[name=minutes]", "20")
    d.click(f"{box} [data-forfeit]")
    semi.refresh_from_db()
    assert semi.winner_id == semi.top_id and semi.games.count() == 2

    # The final, from the two players' own cards: game 1 from their phones, game 2 through
    # the API's service; two cards that agree record each game, the director does nothing.
    final = night.playoff_matches.get(round=2)
    for side in (final.top, final.bottom):
        phone_taps.append(
            _phone_card(
                browser,
                live_server,
                side.name.lower(),
                night.pk,
                "[data-playoff-card-link]",
                final.top_id,
                100,
            )
        )
    assert final.games.count() == 1
    for side in (final.top, final.bottom):
        services.playoff_card_enter(
            user=_user_of(side), match=final, winner=final.top, loser_score=101
        )
    final.refresh_from_db()
    night.refresh_from_db()
    assert final.winner_id == final.top_id and night.stage == TournamentStage.FINISHED

    raw.wait_for_selector("[data-champion]")
    assert final.top.name in raw.locator("[data-champion]").inner_text()
    d.click("[data-payouts]")
    assert night.ledger.filter(kind=LedgerKind.PAYOUT).exists()
    assert raw.locator("[data-payouts-made] li").count() >= 1
    d.click("[data-close]")
    assert raw.locator("[data-closed]").count() == 1
    night.purse.refresh_from_db()
    assert night.purse.is_closed
    shot(raw, "direct/closed-1024")

    print(f"\nDirector actions: {len(d.actions)}; phone cards' taps: {phone_taps}")
    assert len(d.actions) <= DIRECTOR_BUDGET, d.actions
    assert phone_taps and max(phone_taps) <= CARD_BUDGET
    desk.close()
