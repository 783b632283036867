"""A table's scorecards follow the one state machine of a game (league/kernel/lifecycle.py): what it
refuses, every door refuses (the phone's form, the API, the checkers' admin), and nothing
changes. Deal-by-deal cards, and a card sent twice with its key stored once."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel import lifecycle
from league.kernel.entries import normalise, to_entry
from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, can
from scoring.game import Game as ScoredGame
from scoring.variants import VARIANTS
from tests.factories import singles_game
from tests.tournaments.conftest import user_of
from tournaments import services
from tournaments.models import Scorecard, TableState, table_state

Entry = lifecycle.ScorecardEntry
State = TableState


# --- The states, from the cards alone --------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "state"),
    [
        ([], State.OPEN),
        ([Entry(0, (7, 90))], State.ENTERED),
        ([Entry(1, (7, 90))], State.ENTERED),
        ([Entry(0, (7, 90)), Entry(1, (7, 90))], State.VERIFIED),
        ([Entry(0, (7, 90)), Entry(1, (8, 90))], State.MISMATCH),
        ([Entry(0, (7, 90)), Entry(1, (7, 95)), Entry(None, (7, 95))], State.SETTLED),
        ([Entry(None, (8, 60))], State.SETTLED),
    ],
)
def test_a_tables_state_follows_from_its_cards(cards, state):
    assert table_state(cards) == state


def test_lifecycle_refuses_a_second_card_from_one_side_and_any_card_once_the_result_stands():
    one = lifecycle.scorecard_facts([Entry(0, (7, 90))])
    assert lifecycle.allows_side(lifecycle.Event.ENTER_SCORECARD, one, 1)
    with pytest.raises(Locked, match="already in"):
        lifecycle.require_side(lifecycle.Event.ENTER_SCORECARD, one, 0)
    verified = lifecycle.scorecard_facts([Entry(0, (7, 90)), Entry(1, (7, 90))])
    for event in (lifecycle.Event.ENTER_SCORECARD, lifecycle.Event.SETTLE_SCORECARDS):
        with pytest.raises(Locked, match="verified"):
            lifecycle.require_side(event, verified, 1)
    mismatch = lifecycle.scorecard_facts([Entry(0, (7, 90)), Entry(1, (7, 91))])
    with pytest.raises(Locked, match="checker"):
        lifecycle.require_side(lifecycle.Event.ENTER_SCORECARD, mismatch, 0)
    lifecycle.require_side(lifecycle.Event.SETTLE_SCORECARDS, mismatch, 0)  # the checker may


# --- Services ------------------------------------------------------------------------------


@pytest.fixture
def table(night, director, field):
    return services.round_seat_next(user=director, tournament=night).games.order_by("table")[0]


def test_a_side_enters_once_and_its_second_card_changes_nothing(table):
    player = user_of(table.first)
    services.scorecard_enter(user=player, game=table, winner=table.first, loser_score=90)
    assert not can(player, Action.ENTER_SCORECARD, table)
    with pytest.raises(Locked, match="already in"):  # a state refusal: 409, as in the league
        services.scorecard_enter(user=player, game=table, winner=table.second, loser_score=80)
    assert [(c.winner_id, c.loser_score) for c in table.scorecards.all()] == [(table.first_id, 90)]
    table.refresh_from_db()
    assert table.state == State.ENTERED and table.status == TableState.OPEN


def test_a_checker_settles_any_table_but_one_they_play_at(table, judge):
    player = user_of(table.first)
    player.groups.add(*judge.groups.all())  # a player who is also a judge
    for side in (table.first, table.second):
        services.scorecard_enter(user=user_of(side), game=table, winner=side, loser_score=100)
    table.refresh_from_db()
    assert table.state == State.MISMATCH
    assert can(judge, Action.CHECK_SCORECARDS, table)
    assert not can(player, Action.CHECK_SCORECARDS, table)
    with pytest.raises(NotAllowed):
        services.scorecard_settle(user=player, game=table, winner=table.first, loser_score=100)
    services.scorecard_settle(user=judge, game=table, winner=table.second, loser_score=100)
    table.refresh_from_db()
    assert table.state == State.SETTLED and table.winner_id == table.second_id
    assert not can(judge, Action.CHECK_SCORECARDS, table)
    with pytest.raises(Locked, match="verified"):
        services.scorecard_settle(user=judge, game=table, winner=table.first, loser_score=1)


def test_the_same_key_stores_the_card_once_and_another_card_under_it_is_refused(table):
    player = user_of(table.first)
    _game, created = services.scorecard_enter(
        user=player, game=table, winner=table.first, loser_score=88, key="k-1"
    )
    assert created
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.first, loser_score=88
    )
    # The answer was lost; the phone sends the same card again after the table is verified.
    again, created = services.scorecard_enter(
        user=player, game=table, winner=table.first, loser_score=88, key="k-1"
    )
    assert not created and again.status == TableState.VERIFIED
    assert Scorecard.objects.filter(game=table).count() == 2
    with pytest.raises(Exception, match="another scorecard"):
        services.scorecard_enter(
            user=player, game=table, winner=table.first, loser_score=70, key="k-1"
        )


# --- Deal by deal --------------------------------------------------------------------------


def test_a_card_entered_deal_by_deal_takes_its_result_from_the_deals_and_matches_a_plain_card(
    table,
):
    deals = singles_game(strong_seat=0)
    expected = ScoredGame(VARIANTS["singles-121"], first_dealer=0, target=121)
    for d in deals:
        expected.record(to_entry(normalise(d, variant=VARIANTS["singles-121"])))
    loser = expected.scores[1]
    services.scorecard_enter(user=user_of(table.first), game=table, deals=deals)
    card = table.scorecards.get()
    assert (card.winner_id, card.loser_score) == (table.first_id, loser)
    assert len(card.deals["deals"]) == len(deals)
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.first, loser_score=loser
    )
    table.refresh_from_db()
    assert table.state == State.VERIFIED and table.loser_score == loser


def test_a_deal_by_deal_card_that_disagrees_goes_to_the_checkers(table):
    services.scorecard_enter(user=user_of(table.first), game=table, deals=singles_game())
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.second, loser_score=100
    )
    table.refresh_from_db()
    assert table.state == State.MISMATCH


def test_an_unfinished_or_impossible_game_deal_by_deal_is_refused_naming_the_deal(table):
    player = user_of(table.first)
    deals = singles_game()
    with pytest.raises(ValidationFailed, match="nobody has reached 121"):
        services.scorecard_enter(user=player, game=table, deals=deals[:-2])
    bad = [dict(d) for d in deals]
    bad[2] = {**bad[2], "shows": {"0": 19, "1": 4}}
    with pytest.raises(ValidationFailed, match="Deal 3") as refused:
        services.scorecard_enter(user=player, game=table, deals=bad)
    assert refused.value.field.startswith("deals.3")
    with pytest.raises(ValidationFailed, match="give the game to"):
        services.scorecard_enter(user=player, game=table, deals=deals, winner=table.second)
    assert not Scorecard.objects.filter(game=table).exists()


# --- Every door refuses what lifecycle refuses -------------------------------------------------


@pytest.fixture
def verified(table):
    for side in (table.first, table.second):
        services.scorecard_enter(user=user_of(side), game=table, winner=table.first, loser_score=77)
    table.refresh_from_db()
    assert table.status == TableState.VERIFIED
    return table


def _unchanged(table) -> tuple:
    table.refresh_from_db()
    return (table.status, table.winner_id, table.loser_score, table.scorecards.count())


def test_a_verified_table_is_refused_at_the_form_the_api_and_the_admin(client, verified, judge):
    before = _unchanged(verified)
    player = user_of(verified.first)

    client.force_login(player)
    url = reverse("tournaments:scorecard", args=[verified.pk])
    page = client.post(url, {"winner": verified.second_id, "loser_score": 10})
    assert page.status_code == 403
    assert "verified: it can no longer change" in page.content.decode()

    api = APIClient()
    api.force_login(player)
    answer = api.post(
        f"/api/tournament-tables/{verified.pk}/scorecards/",
        {"winner": verified.second_id, "loser_score": 10},
        format="json",
    )
    assert answer.status_code == 409 and "verified" in answer.json()["detail"]
    api.force_login(judge)
    answer = api.post(
        f"/api/tournament-tables/{verified.pk}/settle/",
        {"winner": verified.second_id, "loser_score": 10},
        format="json",
    )
    assert answer.status_code == 409 and "verified" in answer.json()["detail"]

    judge.is_staff = True
    judge.save()
    client.force_login(judge)
    admin_url = reverse("admin:tournaments_checkersqueue_change", args=[verified.pk])
    posted = client.post(admin_url, {"settle_winner": verified.second_id, "settle_loser_score": 10})
    assert posted.status_code == 302 and posted.url == reverse("admin:index")  # not in the queue
    assert _unchanged(verified) == before


def test_a_second_card_from_one_side_is_refused_at_the_form_and_the_api(client, table):
    player = user_of(table.first)
    services.scorecard_enter(user=player, game=table, winner=table.first, loser_score=90)
    before = _unchanged(table)
    client.force_login(player)
    page = client.post(
        reverse("tournaments:scorecard", args=[table.pk]),
        {"winner": table.second_id, "loser_score": 10},
    )
    assert page.status_code == 403 and "already in" in page.content.decode()
    api = APIClient()
    api.force_login(player)
    answer = api.post(
        f"/api/tournament-tables/{table.pk}/scorecards/",
        {"winner": table.second_id, "loser_score": 10},
        format="json",
    )
    assert answer.status_code == 409 and "already in" in answer.json()["detail"]
    assert _unchanged(table) == before


def test_the_checkers_queue_offers_only_what_a_checker_may_settle(client, table, judge):
    for side in (table.first, table.second):
        services.scorecard_enter(user=user_of(side), game=table, winner=side, loser_score=60)
    judge.is_staff = True
    judge.save()
    client.force_login(judge)
    url = reverse("admin:tournaments_checkersqueue_change", args=[table.pk])
    assert 'name="settle_winner"' in client.get(url).content.decode()
    client.post(url, {"settle_winner": table.first_id, "settle_loser_score": 60})
    table.refresh_from_db()
    assert table.state == State.SETTLED
    assert 'name="settle_winner"' not in client.get(url).content.decode()  # read-only now


def test_the_deal_by_deal_page_is_for_the_tables_players_with_the_events_game(client, table):
    url = reverse("tournaments:scorecard_deals", args=[table.pk])
    client.force_login(user_of(table.first))
    page = client.get(url)
    assert page.status_code == 200
    data = page.context["data"]
    assert [s["name"] for s in data["seats"]] == [table.first.name, table.second.name]
    assert data["rules"]["players"] == 2 and data["target"] == 121
    assert data["urls"]["scorecards"] == f"/api/tournament-tables/{table.pk}/scorecards/"
    other = table.round.games.exclude(pk=table.pk).first()
    client.force_login(user_of(other.first))
    assert client.get(url).status_code == 403


# --- Every door asks the same refusal and says its sentence ------------------------------------


class _Undo(Exception):
    pass


def _tried(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``'s answer, with everything it wrote rolled back."""
    from django.db import transaction

    answer = None
    try:
        with transaction.atomic():
            answer = fn(*args, **kwargs)
            raise _Undo
    except _Undo:
        pass
    return answer


def _table_in(table, state):
    if state in ("one card in", "verified", "mismatch"):
        services.scorecard_submit(
            user=user_of(table.first), game=table, winner=table.first, loser_score=77
        )
    if state in ("verified", "mismatch"):
        loser_score = 77 if state == "verified" else 78
        services.scorecard_submit(
            user=user_of(table.second), game=table, winner=table.first, loser_score=loser_score
        )
    table.refresh_from_db()
    return table


@pytest.mark.parametrize("state", ["open", "one card in", "verified", "mismatch"])
def test_every_door_of_a_scorecard_asks_the_same_refusal_and_says_its_sentence(
    client, table, state
):
    """The scorecard form is offered iff the service accepts, the API's ``can_enter`` agrees,
    and a refused card answers the refusal's status and sentence at the API and on the page."""
    from django.utils.html import escape

    from league.kernel.permissions import refusal

    other = table.round.games.exclude(pk=table.pk).first()
    table = _table_in(table, state)
    people = {
        "first side": user_of(table.first),
        "second side": user_of(table.second),
        "another table's player": user_of(other.first),
    }
    for name, user in people.items():
        where = (state, name)
        refused = refusal(user, Action.ENTER_SCORECARD, table)
        client.force_login(user)
        page = client.get(reverse("tournaments:scorecard", args=[table.pk]))
        assert (page.status_code == 200) == (refused is None), where
        api = APIClient()
        api.force_authenticate(user)
        row = api.get(f"/api/tournament-tables/{table.pk}/").json()
        assert row["can_enter"] == (refused is None), where
        body = {"winner": table.first_id, "loser_score": 77}
        answer = _tried(
            api.post, f"/api/tournament-tables/{table.pk}/scorecards/", body, format="json"
        )
        if refused is None:
            assert answer.status_code in (200, 201), (where, answer.json())
            continue
        assert answer.status_code == refused.status, (where, answer.json())
        assert answer.json()["detail"] == refused.sentence, where
        assert escape(refused.sentence) in page.content.decode(), where
