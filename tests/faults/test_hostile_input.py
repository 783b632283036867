"""Absurd numbers in a query string get a page or a 400, never a server error.

Both were found by the schemathesis run (tests/api/test_schemathesis.py); kept here as plain
regression tests so they run in every suite.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

HUGE = "251745983518154709465563136"  # beyond a 64-bit integer


@pytest.mark.parametrize("url", ["/api/games/", "/api/matches/"])
@pytest.mark.parametrize("value", [HUGE, f"-{HUGE}", "9223372036854775808"])
def test_a_season_filter_beyond_64_bits_is_a_400(played_season, url, value):
    response = APIClient().get(f"{url}?season={value}")
    assert response.status_code == 400
    assert "season" in response.json()


@pytest.mark.parametrize("url", ["/api/leagues/", "/api/seasons/", "/api/teams/", "/api/games/"])
@pytest.mark.parametrize("limit", [HUGE, "9223372036854775808", "1000000"])
def test_a_huge_page_size_is_served_as_the_largest_page(played_season, url, limit):
    response = APIClient().get(f"{url}?limit={limit}&offset=0")
    assert response.status_code == 200
    assert len(response.json()["results"]) == response.json()["count"]


def test_a_huge_offset_is_an_empty_page(played_season):
    response = APIClient().get(f"/api/seasons/?offset={HUGE}")
    assert response.status_code == 200
    assert response.json()["results"] == []
