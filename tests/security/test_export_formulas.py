"""Every export a person downloads writes each text cell spreadsheet-safe: a player, team or
club name beginning ``=``, ``+``, ``-`` or ``@`` opens as text, never as a formula (CSV
injection), in the league's standings and in the tournaments' ACC reports alike. A new CSV
door fails ``test_every_csv_door_is_walked`` until it is walked here."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from league.kernel.exports import FORMULA_STARTS
from league.kernel.permissions import TOURNAMENT_DIRECTORS
from league.models import Player
from tests import factories
from tests.security.routes import site_routes
from tests.tournaments.conftest import TRUSTED, finished_night
from tournaments import services

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://x.io","Nobs")', "+Ann", "-Bob", "@SUM(A1)", "Cy"]
CSV_DOORS = {"tournaments:night_report_csv", "tournaments:season_report_csv"}


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _formulas(content: bytes) -> list[str]:
    """The cells a spreadsheet would run: text (not a number) beginning a formula."""
    rows = list(csv.reader(io.StringIO(content.decode())))
    assert len(rows) > 1, "the export has no rows: nothing was checked"
    return [c for row in rows for c in row if c.startswith(FORMULA_STARTS) and not _number(c)]


@pytest.fixture
def exports(season, league_admin):
    """The standings CSV of a season whose team and players have hostile names, and a club's
    night and season reports with hostile entrants, with the director who may read them."""
    first = factories.PlayerFactory(name=HOSTILE[1])
    second = factories.PlayerFactory(name="Dee")
    factories.TeamFactory(season=season, name=HOSTILE[0], captain=first, players=[first, second])
    third, fourth = factories.PlayerFactory(name=HOSTILE[3]), factories.PlayerFactory(name="Eve")
    factories.TeamFactory(season=season, name="-Nobs", captain=third, players=[third, fourth])
    club = services.club_create(user=TRUSTED, name="=Crooked Peg", venue="@The Peg")
    director = factories.UserFactory(username="dora")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    club.directors.add(director)
    club_season = services.club_season_create(user=TRUSTED, club=club, name="=Winter", threshold=0)
    night = finished_night("=Night 1", HOSTILE, season=club_season)
    services.club_member_set(
        user=TRUSTED, club=club, player=Player.objects.get(name=HOSTILE[2]), acc_number="77"
    )
    return {
        "tournaments:night_report_csv": reverse("tournaments:night_report_csv", args=[night.pk]),
        "tournaments:season_report_csv": reverse(
            "tournaments:season_report_csv", args=[club_season.pk]
        ),
        "league:standings": reverse("league:standings", args=[season.pk]) + "?_export=csv",
        "director": director,
    }


def test_every_csv_door_is_walked():
    doors = {p.name for p in site_routes() if p.name.endswith("_csv")}
    assert doors == CSV_DOORS


def test_no_export_writes_a_cell_a_spreadsheet_would_run(client, exports):
    director = Client()
    director.force_login(exports["director"])
    for name in (*sorted(CSV_DOORS), "league:standings"):
        reader = client if name == "league:standings" else director
        answer = reader.get(exports[name])
        assert answer.status_code == 200, name
        assert answer["Content-Type"].startswith("text/csv"), name
        assert _formulas(answer.content) == [], name
        assert "'=" in answer.content.decode() or "'+" in answer.content.decode(), name
