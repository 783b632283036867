"""The season's page reads a fixed number of queries whatever the number of matches, boards
and legs: the tables, fixtures, averages and cups are read in a few statements."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teamleagues import services
from tests.teamleagues.conftest import sheet, small_lineup, small_season

pytestmark = pytest.mark.django_db

SEASON_PAGE = 15


def test_the_season_page_reads_a_fixed_number_of_queries(
    client, organiser, django_assert_num_queries
):
    s = small_season(organiser)
    url = reverse("teamleagues:season", args=[s.season.pk])
    # the session, its user and groups, the season, the organisers (5); the tables: divisions,
    # entries, fixtures with their boards, legs and players (6); the fixture list (1); the
    # averages: legs, players (2); the cups (1)
    client.force_login(organiser)
    with django_assert_num_queries(SEASON_PAGE):
        assert client.get(url).status_code == 200
    for t in (s.teams["U1"], s.teams["U2"]):
        services.boards_name(user=t.captain, fixture=s.left, names=small_lineup(t))
    legs = sheet({1: ("home", "2-1"), 2: ("away", "2-0")})
    for t in (s.teams["U1"], s.teams["U2"]):
        services.sheet_enter(user=t.captain, fixture=s.left, legs=legs)
    with django_assert_num_queries(SEASON_PAGE):
        html = client.get(url).content.decode()
    assert 'data-team="U1"' in html
