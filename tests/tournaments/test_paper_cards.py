"""A checker keys in a paper scorecard in the admin, for a player with no phone:
the card counts as that side's entry, through the same service as a phone's."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.tournaments.conftest import user_of
from tests.web.french import untranslated_runs
from tournaments import services
from tournaments.models import TableState

LIST = "admin:tournaments_paperscorecard_changelist"


@pytest.fixture
def table(night, director, field):
    return services.round_seat_next(user=director, tournament=night).games.order_by("table")[0]


@pytest.fixture
def checker(client, judge):
    judge.is_staff = True  # the admin's door; the page itself asks can()
    judge.save()
    client.force_login(judge)
    return judge


def _change(table) -> str:
    return reverse("admin:tournaments_paperscorecard_change", args=[table.pk])


def _key_in(client, table, *, side, winner, score):
    return client.post(
        _change(table),
        {"paper_side": side.pk, "paper_winner": winner.pk, "paper_loser_score": score},
        follow=True,
    )


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _unchanged(table) -> tuple:
    table.refresh_from_db()
    cards = sorted((c.side_id or 0, c.winner_id, c.loser_score) for c in table.scorecards.all())
    return (table.status, table.winner_id, table.loser_score, cards)


def test_a_paper_card_that_agrees_with_the_phone_card_verifies_the_table(client, checker, table):
    services.scorecard_enter(
        user=user_of(table.second), game=table, winner=table.first, loser_score=97
    )
    listing = client.get(reverse(LIST)).content.decode()
    assert f"Card for {table.second.name}: {table.first.name} won, loser 97" in listing
    form = client.get(_change(table)).content.decode()
    assert 'name="paper_side"' in form and 'name="paper_loser_score"' in form

    page = _key_in(client, table, side=table.first, winner=table.first, score=97)

    table.refresh_from_db()
    assert table.status == TableState.VERIFIED
    assert (table.winner_id, table.loser_score) == (table.first_id, 97)
    paper = table.scorecards.get(side=table.first)
    assert paper.entered_by == checker and not paper.by_checker  # one side's entry
    assert any("the table is verified" in m for m in _said(page))
    assert table.first.name not in client.get(reverse(LIST)).content.decode()  # off the list


def test_a_paper_card_alone_waits_for_the_other_side(client, checker, table):
    page = _key_in(client, table, side=table.second, winner=table.second, score=88)
    table.refresh_from_db()
    assert table.status == TableState.OPEN and table.scorecards.count() == 1
    assert any("still to come" in m for m in _said(page))
    # the other side's player may still enter theirs on the phone, and it verifies
    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.second, loser_score=88
    )
    table.refresh_from_db()
    assert table.status == TableState.VERIFIED


def test_a_paper_card_that_differs_lands_in_the_checkers_queue(client, checker, table):
    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=90
    )
    page = _key_in(client, table, side=table.second, winner=table.second, score=90)
    table.refresh_from_db()
    assert table.status == TableState.MISMATCH and table.winner_id is None
    assert any("checkers' queue" in m for m in _said(page))
    queue = client.get(reverse("admin:tournaments_checkersqueue_changelist")).content.decode()
    assert f"Card for {table.second.name}: {table.second.name} won, loser 90" in queue


def test_a_second_card_from_a_side_is_refused_says_why_and_changes_nothing(client, checker, table):
    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=90
    )
    before = _unchanged(table)
    page = _key_in(client, table, side=table.first, winner=table.second, score=80)
    assert page.redirect_chain[-1][0] == _change(table)  # back to the card, not "changed"
    assert _said(page) == [
        f"The scorecard for {table.first.name} is already in. If it is wrong, settle the table in "
        "the checkers' queue."
    ]
    assert _unchanged(table) == before
    assert not checker.logentry_set.exists()  # the admin's history records nothing either


def test_a_verified_table_is_refused_and_says_so(client, checker, table):
    for side in (table.first, table.second):
        services.scorecard_enter(user=user_of(side), game=table, winner=side, loser_score=100)
    services.scorecard_settle(user=checker, game=table, winner=table.first, loser_score=100)
    before = _unchanged(table)
    page = _key_in(client, table, side=table.second, winner=table.second, score=50)
    assert _said(page) == ["This table's result is verified: it can no longer change."]
    assert _unchanged(table) == before


def test_a_checker_who_plays_at_the_table_is_refused(client, judge, table):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import JUDGES

    playing = user_of(table.first)
    playing.groups.add(Group.objects.get(name=JUDGES))
    playing.is_staff = True
    playing.save()
    client.force_login(playing)
    before = _unchanged(table)
    page = _key_in(client, table, side=table.second, winner=table.first, score=70)
    assert _said(page) == ["You play at this table: another checker takes its cards."]
    assert _unchanged(table) == before


def test_a_player_cannot_reach_the_page(client, table):
    player = user_of(table.first)
    client.force_login(player)
    assert client.get(reverse(LIST)).status_code == 302  # the admin's login
    player.is_staff = True  # even let through the admin's door, can() says no
    player.save()
    assert client.get(reverse(LIST)).status_code == 403
    assert client.get(_change(table)).status_code == 403
    before = _unchanged(table)
    posted = client.post(
        _change(table),
        {"paper_side": table.first_id, "paper_winner": table.first_id, "paper_loser_score": 5},
    )
    assert posted.status_code == 403
    assert _unchanged(table) == before


def test_the_list_shows_open_tables_of_running_rounds_in_a_fixed_number_of_queries(
    client, checker, night, director, field, django_assert_num_queries
):
    rnd = services.round_seat_next(user=director, tournament=night)
    games = list(rnd.games.order_by("table"))
    for side in (games[0].first, games[0].second):  # table 1 verified: off the list
        services.scorecard_enter(
            user=user_of(side), game=games[0], winner=games[0].first, loser_score=80
        )
    services.scorecard_enter(  # table 2 half entered: listed with its card
        user=user_of(games[1].first), game=games[1], winner=games[1].first, loser_score=80
    )
    # 10: the admin's sidebar asks once whether the checker organises a team league.
    with django_assert_num_queries(10):
        page = client.get(reverse(LIST)).content.decode()
    assert games[0].first.name not in page
    assert games[1].first.name in page and games[2].first.name in page
    assert "no card yet" in page


def test_the_card_page_and_its_refusal_read_in_french(client, checker, table, field):
    """The French walk sees the demo's empty list; a table waiting for a card, its form and a
    refusal are read here, with the walk's own checks."""
    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=90
    )
    names = [e.name for e in field] + [table.round.tournament.name, "judy"]
    for url in (reverse(LIST), _change(table)):
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert untranslated_runs(french, english, names) == [], url
    assert "À qui est cette feuille ?" in french and "Une feuille papier" in french
    page = client.post(
        _change(table),
        {"paper_side": table.first_id, "paper_winner": table.first_id, "paper_loser_score": 9},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert _said(page) == [
        f"La feuille de {table.first.name} est déjà arrivée. Si elle est fausse, tranchez la "
        "table dans la file des vérificateurs."
    ]
