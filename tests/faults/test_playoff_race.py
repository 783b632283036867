"""One playoff game sent twenty times at once with its key (a director's retrying phone) is
stored once: a best of 3 is never decided by one game played. Runs on whatever DATABASE_URL
names: CI runs the suite on SQLite and again on PostgreSQL."""

from __future__ import annotations

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
