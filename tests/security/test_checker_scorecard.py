"""Security review, L3: a judge or league admin opening a table's phone scorecard got a form whose
every answer was a 500. A checker who does not play at the table is told, in words, where a
paper card is keyed in; the page never answers 500, whatever is posted."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.conftest import director, field, night  # noqa: F401 - fixtures
from tournaments import services
from tournaments.models import TableGame


@pytest.fixture
def table(night, director, field):  # noqa: F811
    services.round_seat_next(user=director, tournament=night)
    return TableGame.objects.order_by("pk").first()


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["judge", "league_admin", "director"])
@pytest.mark.parametrize("page", ["scorecard/", "scorecard/deals/"])
def test_a_checker_who_does_not_play_at_the_table_is_told_where_to_go(request, who, page, table):
    client = Client(raise_request_exception=False)
    client.force_login(request.getfixturevalue(who))
    url = f"/tournaments/tables/{table.pk}/{page}"
    shown = client.get(url)
    assert shown.status_code == 403
    if who != "director":  # a director who is no checker is simply not at the table
        assert "As a checker, you key in a paper card" in shown.content.decode()
    posted = client.post(url, {"winner": str(table.first_id), "loser_score": "100"})
    assert posted.status_code == 403
    table.refresh_from_db()
    assert table.status != "verified" and not table.scorecards.exists()
