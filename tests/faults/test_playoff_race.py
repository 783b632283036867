"""One playoff game sent twenty times at once with its key (a director's retrying phone) is
stored once: a best of 3 is never decided by one game played. Runs on whatever DATABASE_URL
names: CI runs the suite on SQLite and again on PostgreSQL."""

from __future__ import annotations

import re
import uuid

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import all_at_once
from tests.tournaments.conftest import director, field, night, play_round  # noqa: F401
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = 20


def test_one_playoff_game_sent_twenty_times_at_once_is_stored_once(
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    final = night.playoff_matches.get()
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}"
    )
    body = {"winner": final.top_id, "loser_score": 100, "key": str(uuid.uuid4())}

    def send():
        response = client.post(f"/api/playoff-matches/{final.pk}/games/", body, format="json")
        return response.status_code

    statuses = sorted(all_at_once([send for _ in range(PHONES)]))
    assert statuses == [200] * (PHONES - 1) + [201], statuses
    assert final.games.count() == 1
    final.refresh_from_db()
    assert final.winner_id is None


def test_two_playoff_games_posted_at_once_without_a_key_store_nothing(
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    """Without a key the two posts cannot be told from two games played: both are refused
    in words, and the best of 3 is not decided by one game played."""
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    final = night.playoff_matches.get()
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=director)[0].key}"
    )
    body = {"winner": final.top_id, "loser_score": 100}

    def send():
        response = client.post(f"/api/playoff-matches/{final.pk}/games/", body, format="json")
        return response.status_code, response.json().get("detail", "")

    answers = all_at_once([send, send])
    assert [status for status, _ in answers] == [400, 400], answers
    assert all("Send a key" in detail for _, detail in answers)
    assert final.games.count() == 0


def test_the_directors_game_form_sent_twice_at_once_stores_one_game(
    night,  # noqa: F811
    director,  # noqa: F811
    field,  # noqa: F811
):
    """The workspace's game form carries its own key: a double tap, two posts at once, is one
    game."""
    from django.test import Client

    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    final = night.playoff_matches.get()
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/direct/nights/{night.pk}/").content.decode()
    found = re.search(
        rf'name="match" value="{final.pk}"><input type="hidden" name="key" value="(\w+)"', page
    )
    assert found, "the game form carries no key"
    form = {"op": "game", "match": final.pk, "winner": final.top_id, "loser_score": "100"}
    form["key"] = found.group(1)

    def tap():
        return browser.post(f"/direct/nights/{night.pk}/", form).status_code

    assert all_at_once([tap, tap]) == [302, 302]
    assert final.games.count() == 1
