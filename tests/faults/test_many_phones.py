"""The same entry arriving many times at once (a retrying phone, two captains, a bad signal).

Runs on whatever DATABASE_URL names: CI runs the suite on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import AuditEntry, Deal, Game, GameStatus, Season
from league.services.games import game_start
from tests.factories import all_at_once, play_until_over
from tests.factories import first_deal as body

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 20


def phone(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def started(match, ann):
    return game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])


def post(client: APIClient, url: str, data=None):
    def call():
        response = client.post(url, data, format="json")
        return response.status_code, response.json()

    return call


def test_database_in_use():
    """Which database these ran on, in the test report (-v)."""
    assert connection.vendor in ("sqlite", "postgresql")


def test_one_deal_sent_twenty_times_at_once_is_stored_once(started, ann):
    entry = body()
    season = Season.objects.get(pk=started.match.week.season_id)
    url = f"/api/games/{started.pk}/deals/"
    client = phone(ann)

    results = all_at_once([post(client, url, entry) for _ in range(PHONES)])

    statuses = sorted(status for status, _ in results)
    assert statuses == [200] * (PHONES - 1) + [201], results
    assert len({answer["id"] for _, answer in results}) == 1
    assert all(answer == results[0][1] for _, answer in results)
    assert Deal.objects.filter(game=started).count() == 1
    assert AuditEntry.objects.filter(action="deal_record").count() == 1
    game = Game.objects.get(pk=started.pk)
    assert (game.deal_count, game.version) == (1, started.version + 1)
    deal = Deal.objects.get()
    assert (game.home_score, game.away_score) == (deal.home_after, deal.away_after)
    # The game goes on: no standings changed, so the season's row was not written at all.
    assert Season.objects.get(pk=season.pk).results_version == season.results_version


def test_one_key_with_two_different_deals_at_once_stores_one_and_refuses_the_other(
    started, ann, cat
):
    key = str(uuid.uuid4())
    five, four = body(key=key, crib=5), body(key=key, crib=4)
    url = f"/api/games/{started.pk}/deals/"
    calls = [post(phone(ann), url, five) for _ in range(PHONES // 2)]
    calls += [post(phone(cat), url, four) for _ in range(PHONES // 2)]

    results = all_at_once(calls)

    stored = Deal.objects.get(game=started)
    winner = 5 if stored.crib == 5 else 4
    for index, (status, answer) in enumerate(results):
        sent = 5 if index < PHONES // 2 else 4
        if sent == winner:
            assert status in (200, 201), answer
            assert answer["id"] == stored.pk
        else:
            assert status == 409, answer
            assert answer["field"] == "key"
            assert answer["current"]["deals"] == 1
    assert sorted(status for status, _ in results).count(201) == 1
    assert Deal.objects.count() == 1
    assert AuditEntry.objects.filter(action="deal_record").count() == 1


def test_different_deals_for_the_same_number_at_once_one_counts_and_none_is_lost(started, ann, cat):
    url = f"/api/games/{started.pk}/deals/"
    sent = [(ann if i % 2 else cat, i % 6) for i in range(PHONES)]
    calls = [post(phone(user), url, body(crib=crib)) for user, crib in sent]

    results = all_at_once(calls)

    assert {status for status, _ in results} <= {200, 201}, results
    assert Deal.objects.filter(game=started, is_current=True).count() == 1
    assert Game.objects.get(pk=started.pk).deal_count == 1
    # Each phone's numbers were stored (the counted deal, a version its team corrected, or the
    # other team's rival entry) or agreed with a stored entry: nothing typed is dropped.
    rows = list(Deal.objects.filter(game=started).order_by("version"))
    assert {crib for _, crib in sent} <= {r.crib for r in rows}
    # The team that entered the deal first corrects it; only the other team has rivals.
    first = rows[0].entered_by_id
    assert all(r.entered_by_id == first for r in rows if not r.is_rival)
    assert all(r.entered_by_id != first for r in rows if r.is_rival)


def test_the_other_team_confirming_from_every_phone_at_once_confirms_once(
    started, ann, cat, away_team
):
    play_until_over(started, ann)
    dan = away_team.players.get(name="Dan").user
    url = f"/api/games/{started.pk}/confirm/"
    calls = [post(phone(cat if i % 2 else dan), url) for i in range(10)]

    results = all_at_once(calls)

    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 9, results
    game = Game.objects.get(pk=started.pk)
    assert game.status == GameStatus.CONFIRMED
    assert game.confirmed_by in (cat, dan)
    assert AuditEntry.objects.filter(action="game_confirm").count() == 1
