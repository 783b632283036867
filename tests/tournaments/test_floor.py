"""The director's floor: which tables of the round are in, out (no card), with one card in or
disagreeing, counted on top and filterable, in blocks of fifty for a floor of 300; and a
runner typing a table's paper card (table, first score, second score) for a table without a
phone, entered as the missing sides' cards."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.conftest import user_of
from tournaments import services
from tournaments.models import Scorecard, TableState

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(client, director, night, field):
    """Round 1 under way, the director's tablet showing the floor."""
    rnd = services.round_seat_next(user=director, tournament=night)
    services.round_start(user=director, round=rnd)
    client.force_login(director)
    return list(rnd.games.select_related("first", "second").order_by("table"))


@pytest.fixture
def runner(client, floor, judge):
    """A checker running paper cards (a judge: whoever may key in a side's paper card)."""
    client.force_login(judge)
    return judge


def url(night, show: str = "") -> str:
    return reverse("direct:floor", args=[night.pk]) + (f"?show={show}" if show else "")


def tiles(html: str) -> dict[int, str]:
    found = re.findall(r'data-table="(\d+)" data-state="(\w+)"', html)
    return {int(n): state for n, state in found}


def count(html: str, show: str) -> int:
    match = re.search(rf'data-show="{show}"><strong>(\d+)</strong>', html)
    assert match, html
    return int(match.group(1))


def test_the_floor_counts_each_state_and_filters_by_it(client, night, floor):
    one, two, _ = floor
    services.scorecard_enter(user=user_of(one.first), game=one, winner=one.first, loser_score=90)
    services.scorecard_enter(user=user_of(one.second), game=one, winner=one.first, loser_score=90)
    services.scorecard_enter(user=user_of(two.first), game=two, winner=two.first, loser_score=80)
    html = client.get(url(night)).content.decode()
    assert tiles(html) == {1: "done", 2: "one_card", 3: "waiting"}
    assert (count(html, "all"), count(html, "done"), count(html, "one_card")) == (3, 1, 1)
    assert (count(html, "waiting"), count(html, "disagree")) == (1, 0)
    # Tapping a count shows those tables alone; the counts stay.
    waiting = client.get(url(night, "waiting")).content.decode()
    assert tiles(waiting) == {3: "waiting"}
    assert count(waiting, "done") == 1
    assert "No table is in this state." in client.get(url(night, "disagree")).content.decode()


def test_a_runner_types_a_paper_card_and_the_table_is_in(client, night, floor, runner):
    table = floor[2]
    answer = client.post(
        url(night), {"table": "3", "first_score": "121", "second_score": "95", "key": "p-1"}
    )
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert f"Table 3: in, {table.first.name} won (95)." in page
    table.refresh_from_db()
    assert (table.status, table.winner_id, table.loser_score) == (
        TableState.VERIFIED,
        table.first_id,
        95,
    )
    cards = Scorecard.objects.filter(game=table).order_by("side_id")
    assert sorted(c.side_id for c in cards) == sorted([table.first_id, table.second_id])
    # The same form sent twice (a double tap) stores nothing more.
    again = client.post(
        url(night), {"table": "3", "first_score": "121", "second_score": "95", "key": "p-1"}
    )
    assert again.status_code == 302
    assert "that card is in already" in client.get(again["Location"]).content.decode()
    assert Scorecard.objects.filter(game=table).count() == 2


def test_a_paper_card_meets_a_phone_card_and_enters_only_the_missing_side(
    client, night, floor, runner
):
    table = floor[0]
    services.scorecard_enter(
        user=user_of(table.first), game=table, winner=table.first, loser_score=90
    )
    answer = client.post(
        url(night), {"table": "1", "first_score": "88", "second_score": "121", "key": "p-2"}
    )
    assert answer.status_code == 302
    assert "disagrees with the phone" in client.get(answer["Location"]).content.decode()
    table.refresh_from_db()
    assert table.status == TableState.MISMATCH
    assert Scorecard.objects.filter(game=table).count() == 2


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ({"table": "9", "first_score": "121", "second_score": "90"}, "Round 1 has no table 9."),
        (
            {"table": "", "first_score": "121", "second_score": "90"},
            "Type the table&#x27;s number.",
        ),
        ({"table": "2", "first_score": "100", "second_score": "90"}, "One score must be 121"),
        ({"table": "2", "first_score": "121", "second_score": "121"}, "One score must be 121"),
        ({"table": "2", "first_score": "121", "second_score": "x"}, "second named&#x27;s score"),
    ],
)
def test_a_mistyped_paper_card_says_why_keeps_what_was_typed_and_stores_nothing(
    client, night, floor, runner, typed, words
):
    answer = client.post(url(night), {**typed, "key": "p-3"})
    html = answer.content.decode()
    assert answer.status_code == 400
    assert words in html
    assert f'value="{typed["first_score"]}"' in html  # what was typed stays, to be fixed
    assert not Scorecard.objects.exists()


def test_both_cards_in_already_is_refused_in_plain_words(client, night, floor, runner):
    table = floor[1]
    for entrant in (table.first, table.second):
        services.scorecard_enter(
            user=user_of(entrant), game=table, winner=table.first, loser_score=70
        )
    answer = client.post(
        url(night), {"table": "2", "first_score": "121", "second_score": "70", "key": "p-4"}
    )
    assert answer.status_code == 400
    assert "Both cards of table 2 are in already" in answer.content.decode()
    assert Scorecard.objects.filter(game=table).count() == 2


def test_a_director_who_is_no_checker_is_told_so_and_nothing_is_stored(client, night, floor):
    answer = client.post(
        url(night), {"table": "3", "first_score": "121", "second_score": "95", "key": "p-5"}
    )
    assert answer.status_code == 400
    assert "You are not allowed to settle scorecards as a checker." in answer.content.decode()
    assert not Scorecard.objects.exists()


def test_a_player_may_not_see_the_floor_or_type_cards(client, night, floor, field):
    client.force_login(user_of(field[0]))
    assert client.get(url(night)).status_code == 403
    answer = client.post(url(night), {"table": "3", "first_score": "121", "second_score": "9"})
    assert answer.status_code == 403
    assert not Scorecard.objects.exists()


def test_the_floor_at_three_hundred_tables_comes_in_blocks_of_fifty(
    client, director, django_assert_max_num_queries
):
    night = services.tournament_create(
        user=director, name="Grand National", games_per_entrant=1, draw_seed=7, acc_rules=False
    )
    services.entrants_add(
        user=director, tournament=night, names=[f"P{i:03d}" for i in range(600)], check_in=True
    )
    services.round_seat_next(user=director, tournament=night)
    client.force_login(director)
    with django_assert_max_num_queries(25):  # not one a table
        html = client.get(url(night)).content.decode()
    assert len(tiles(html)) == 300
    heads = re.findall(r'data-block="(\d+)"', html)
    assert heads == ["1", "51", "101", "151", "201", "251"]
    assert "Tables 251–300" in html
    assert count(html, "waiting") == 300


def test_the_floor_reads_in_french(client, night, floor):
    """The floor walked in French: nothing on it the English page says word for word."""
    from league.shared import Player
    from tests.web.french import english_runs, untranslated_runs

    names = [night.name, *Player.objects.values_list("name", flat=True)]
    english = client.get(url(night), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    client.cookies["django_language"] = "fr"
    french = client.get(url(night), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert untranslated_runs(french, english, names) == []
    assert english_runs(french, names) == []
