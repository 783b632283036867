"""Play-offs between the divisions: the team just above the drop (second of three in Top, T2)
meets the team just below promotion (second in Bottom); its winner plays in Top next season.
Worked by hand on the small season (the lower number wins every board 2-0)."""

from __future__ import annotations

import datetime as dt

import pytest

from league.kernel.errors import Conflict, Locked
from teamleagues import selectors, services
from teamleagues.models import Entry, Fixture
from tests.teamleagues.conftest import sheet, small_lineup, small_season

pytestmark = pytest.mark.django_db


def play(fixture, teams, winner):
    for t in (teams[fixture.home.name], teams[fixture.away.name]):
        services.boards_name(user=t.captain, fixture=fixture, names=small_lineup(t))
    legs = sheet({1: (winner, "2-0"), 2: (winner, "2-0")})
    for t in (teams[fixture.home.name], teams[fixture.away.name]):
        services.sheet_enter(user=t.captain, fixture=fixture, legs=legs)


def test_a_play_off_won_by_the_lower_division_swaps_the_two(organiser):
    s = small_season(organiser, playoffs=True)
    with pytest.raises(Locked, match="1 matches are still to finish"):
        services.playoffs_make(user=organiser, season=s.season)
    play(s.left, s.teams, "home")  # U1 beats U2: Bottom is U1, U2, U3
    with pytest.raises(Locked, match="Make the play-offs"):
        services.season_close(user=organiser, season=s.season, next_name="2027")
    (playoff,) = services.playoffs_make(user=organiser, season=s.season, on=dt.date(2027, 5, 1))
    assert (playoff.home.name, playoff.away.name, playoff.date) == ("T2", "U2", dt.date(2027, 5, 1))
    with pytest.raises(Conflict):
        services.playoffs_make(user=organiser, season=s.season)
    with pytest.raises(Locked, match="no winner yet"):
        services.season_close(user=organiser, season=s.season, next_name="2027")
    play(playoff, s.teams, "away")  # U2 wins the play-off
    # A play-off is in no table.
    tables = selectors.division_tables(s.season)
    assert all(r.played == 4 for t in tables for r in t.rows)
    nxt = services.season_close(user=organiser, season=s.season, next_name="2027")
    divisions = [
        sorted(e.team.name for e in d.entries.all()) for d in nxt.divisions.order_by("level")
    ]
    assert divisions == [["T1", "U1", "U2"], ["T2", "T3", "U3"]]
    moved = {e.team.name: e.moved for e in Entry.objects.filter(season=s.season)}
    assert moved == {"T1": "", "T2": "down", "T3": "down", "U1": "up", "U2": "up", "U3": ""}
    assert Fixture.objects.filter(season=s.season, playoff=True).count() == 1
