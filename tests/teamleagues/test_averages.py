"""Averages and the player of the season, worked by hand on the small season: the lower number
wins each board 2-0, so T1's three players win all 8 legs of their 4 matches, T2's win 4 of 8,
T3's none; U1 v U2 is unplayed, so U1's and U2's players have 3 matches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teamleagues import selectors
from tests.teamleagues.conftest import small_season

pytestmark = pytest.mark.django_db


def test_averages_need_the_minimum_of_matches_for_the_honours(organiser, client):
    s = small_season(organiser)
    season = s.season
    rows = {a.name: a for a in selectors.averages(season)}
    assert (rows["T1 p1"].matches, rows["T1 p1"].legs, rows["T1 p1"].won) == (4, 8, 8)
    assert (rows["T2 p3"].matches, rows["T2 p3"].legs, rows["T2 p3"].won) == (4, 8, 4)
    assert rows["T2 p3"].average == 0.5 and rows["T3 p1"].average == 0
    assert (rows["U1 p1"].matches, rows["U1 p1"].won) == (3, 6)  # 2 matches won of 3
    assert "T1 p4" not in rows  # never named
    # The minimum is 5 matches: nobody has played 5, so no player of the season yet.
    assert not any(a.qualified for a in rows.values())
    assert selectors.player_of_the_season(season) is None
    season.averages_minimum = 4
    season.save()
    best = selectors.player_of_the_season(season)
    # T1's three share 1.000 and 8 legs: the name decides; U1's 6 of 6 has too few matches.
    assert best.name == "T1 p1" and rows["U1 p1"].average == 1.0
    ranked = [a.name for a in selectors.averages(season)]
    assert ranked[:3] == ["T1 p1", "T1 p2", "T1 p3"] and ranked.index("U1 p1") > ranked.index(
        "T3 p1"
    )
    html = client.get(reverse("teamleagues:season", args=[season.pk])).content.decode()
    assert 'data-player="T1 p1"' in html and "data-player-of-the-season" in html
