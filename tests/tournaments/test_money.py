"""The money of a night: the purse, fees, payouts by the table, side pots and the ledger,
which must balance to the cent before the director closes the night; and who sees it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, can
from tests import factories
from tests.tournaments.conftest import finished_night
from tournaments import logic, selectors, services
from tournaments.models import LedgerKind, PayoutMode, SidePotKind

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def played(db):
    """Eight entrants, a round robin, two qualifiers, the final decided."""
    return finished_night("Crooked Peg, 21 Nov", NAMES, rounds=7)


@pytest.fixture
def purse(played, director):
    return services.purse_set(user=director, tournament=played, entry_fee=1000, house_percent=10)


def test_fees_then_payouts_by_the_default_table_balance_and_the_night_closes(
    played, purse, director
):
    fees = services.fees_collect(user=director, tournament=played)
    assert len(fees) == 8 and services.fees_collect(user=director, tournament=played) == []
    services.payouts_record(user=director, tournament=played)
    books = selectors.books_for(played)
    assert books.by_kind[LedgerKind.FEE] == 8000
    assert books.by_kind[LedgerKind.HOUSE] == 800  # 10% of the fees
    # 8 entrants: the top quarter, 2 places, shares 2:1 of the $72.00 fund.
    payouts = {e.entrant.name: e.amount for e in books.entries if e.kind == LedgerKind.PAYOUT}
    champion = selectors.champion(played)
    assert payouts[champion] == 4800 and sorted(payouts.values()) == [2400, 4800]
    assert books.balance == 0
    services.night_close(user=director, tournament=played)
    purse.refresh_from_db()
    assert purse.is_closed
    with pytest.raises(Locked, match="closed"):
        services.ledger_entry_add(
            user=director, tournament=played, kind=LedgerKind.REFUND, amount=100
        )


def test_the_night_does_not_close_when_the_books_are_off_by_one_cent(played, purse, director):
    services.purse_set(
        user=director,
        tournament=played,
        entry_fee=1000,
        house_percent=0,
        payout_mode=PayoutMode.AMOUNT,
        payout_table=[5000, 2999],
    )
    services.fees_collect(user=director, tournament=played)
    services.payouts_record(user=director, tournament=played)
    with pytest.raises(ValidationFailed) as refused:
        services.night_close(user=director, tournament=played)
    message = refused.value.message
    assert "$0.01 more came in" in message and "$80.00" in message and "$79.99" in message
    purse.refresh_from_db()
    assert not purse.is_closed
    # One cent more out than in is refused too, naming the other direction.
    services.ledger_entry_add(
        user=director, tournament=played, kind=LedgerKind.HOUSE, amount=2, note="club"
    )
    with pytest.raises(ValidationFailed, match=r"\$0\.01 more went out"):
        services.night_close(user=director, tournament=played)
    (extra,) = [e for e in selectors.books_for(played).entries if e.note == "club"]
    services.ledger_entry_remove(user=director, entry=extra)
    services.ledger_entry_add(user=director, tournament=played, kind=LedgerKind.HOUSE, amount=1)
    services.night_close(user=director, tournament=played)


def test_a_percent_payout_table_must_make_100(played, director):
    with pytest.raises(ValidationFailed, match="95%"):
        services.purse_set(
            user=director, tournament=played, entry_fee=500, payout_table=[50, 30, 15]
        )
    assert not hasattr(played, "purse") or played.purse is None


def test_a_fixed_table_larger_than_the_fund_is_refused(played, director):
    services.purse_set(
        user=director,
        tournament=played,
        entry_fee=500,
        payout_mode=PayoutMode.AMOUNT,
        payout_table=[5000],
    )
    services.fees_collect(user=director, tournament=played)
    with pytest.raises(ValidationFailed, match=r"\$36\.00"):  # 8 x $5 less 10%
        services.payouts_record(user=director, tournament=played)
    assert not selectors.books_for(played).by_kind.get(LedgerKind.PAYOUT)


def test_payouts_wait_for_the_final(director, night, field):
    services.purse_set(user=director, tournament=night, entry_fee=500)
    services.fees_collect(user=director, tournament=night)
    with pytest.raises(Locked, match="final"):
        services.payouts_record(user=director, tournament=night)
    with pytest.raises(Locked, match="final"):
        services.night_close(user=director, tournament=night)


def test_a_side_pot_is_shared_by_its_winners_who_must_have_bought_in(played, purse, director):
    pot = services.side_pot_set(
        user=director, tournament=played, kind=SidePotKind.BIG_HAND, fee=100
    )
    ann, bob, cy, dee = (played.entrants.get(name=n) for n in ("Ann", "Bob", "Cy", "Dee"))
    services.side_pot_enter(user=director, pot=pot, entrants=[ann, bob, cy])
    services.side_pot_enter(user=director, pot=pot, entrants=[ann])  # already in: no change
    with pytest.raises(ValidationFailed, match="Dee did not buy into the special-hand pot"):
        services.side_pot_award(user=director, pot=pot, winners=[dee])
    services.side_pot_award(user=director, pot=pot, winners=[bob, cy])
    (row,) = selectors.books_for(played).pots
    assert row["in"] == 300 and row["winners"] == [(bob, 150), (cy, 150)]
    with pytest.raises(Locked, match="already been paid"):
        services.side_pot_award(user=director, pot=pot, winners=[ann])


def test_shared_places_share_their_amounts_to_the_cent():
    places = logic.final_places(
        [("A", 1), ("B", 2), ("C", 3), ("D", 4), ("E", 5)],
        in_bracket=["A", "B", "C", "D"],
        lost_in={"C": 1, "D": 1, "B": 2},
        rounds=2,
    )
    assert places == {"A": 1, "B": 2, "C": 3, "D": 3, "E": 5}
    paid = logic.payouts_by_entrant(places, [5000, 3000, 1001, 999])
    assert paid == {"A": 5000, "B": 3000, "C": 1000, "D": 1000}
    assert sum(logic.payout_amounts(9999, mode="percent", table=[], entrants=30)) == 9999


def test_only_directors_and_league_admins_see_money(client, played, purse, director):
    player = factories.UserFactory(username="pat")
    assert can(director, Action.KEEP_MONEY, played) and not can(player, Action.KEEP_MONEY, played)
    with pytest.raises(NotAllowed):
        services.fees_collect(user=player, tournament=played)
    url = reverse("tournaments:money", args=[played.pk])
    client.force_login(player)
    page = client.get(url)
    assert page.status_code == 403 and "data-ledger" not in page.content.decode()
    assert client.post(url, {"op": "fees"}).status_code == 403
    assert (
        "data-money-link"
        not in client.get(reverse("tournaments:tournament", args=[played.pk])).content.decode()
    )


def test_the_director_runs_the_books_from_the_money_page(
    client, played, purse, director, django_assert_num_queries
):
    client.force_login(director)
    url = reverse("tournaments:money", args=[played.pk])
    assert client.post(url, {"op": "fees"}).status_code == 302
    client.post(url, {"op": "pot", "kind": SidePotKind.SKUNK, "fee": "2.50"})
    pot = played.side_pots.get()
    assert pot.fee == 250
    ann = played.entrants.get(name="Ann")
    client.post(url, {"op": "pot_enter", "pot": pot.pk, "entrants": [ann.pk]})
    client.post(url, {"op": "pot_award", "pot": pot.pk, "entrants": [ann.pk]})
    client.post(url, {"op": "payouts"})
    # session, user, groups, tournament, purse, ledger, pots, field, entrants, nav rounds,
    # the special hands from the cards
    with django_assert_num_queries(12):
        page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-balance="0"' in html
    assert html.count('data-entry="fee"') == 8 and html.count('data-entry="payout"') == 2
    client.post(url, {"op": "entry", "kind": LedgerKind.REFUND, "amount": "0.01", "note": "x"})
    closing = client.post(url, {"op": "close"}, follow=True).content.decode()
    assert "$0.01 more went out" in closing and 'data-balance="-1"' in closing
    with django_assert_num_queries(12):
        client.get(url)  # one more ledger row: no more queries


def test_the_admin_closes_the_night_only_when_the_books_balance(client, played, purse, director):
    services.fees_collect(user=director, tournament=played)
    client.force_login(director)
    changelist = reverse("admin:tournaments_purse_changelist")
    assert client.get(changelist).status_code == 200
    page = client.post(
        changelist,
        {"action": "close_night", "_selected_action": [purse.pk]},
        follow=True,
    )
    assert "$80.00 more came in" in page.content.decode()
    purse.refresh_from_db()
    assert not purse.is_closed
    client.post(changelist, {"action": "record_payouts", "_selected_action": [purse.pk]})
    client.post(changelist, {"action": "close_night", "_selected_action": [purse.pk]})
    purse.refresh_from_db()
    assert purse.is_closed


def test_a_judge_does_not_see_the_money_in_the_admin(client, played, purse):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import JUDGES

    judge = factories.UserFactory(username="jude", is_staff=True)
    judge.groups.add(Group.objects.get_or_create(name=JUDGES)[0])
    client.force_login(judge)
    assert client.get(reverse("admin:tournaments_purse_changelist")).status_code == 403
    assert client.get(reverse("admin:tournaments_ledgerentry_changelist")).status_code == 403


def test_the_money_page_in_french_writes_amounts_the_french_way(client, played, purse, director):
    services.fees_collect(user=director, tournament=played)
    client.force_login(director)
    html = client.get(
        reverse("tournaments:money", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Livre de caisse" in html and "80,00 $" in html and "10,00 $" in html
