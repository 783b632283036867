"""The season archive: exported, imported under another name through the services, and
exported again the same; a file that is not one is refused and stores nothing."""

from __future__ import annotations

import json

import pytest

from league.kernel.errors import ValidationFailed
from teamleagues import archive, selectors, services
from teamleagues.models import Leg, TeamLeague
from tests.teamleagues.conftest import TRUSTED, small_lineup, small_season

pytestmark = pytest.mark.django_db


def test_a_season_round_trips_with_its_disagreement_settlement_and_forfeit(organiser):
    s = small_season(organiser)
    u1, u2 = s.teams["U1"], s.teams["U2"]
    services.board_forfeit(user=u2.captain, fixture=s.left, board=2)
    for t in (u1, u2):
        names = small_lineup(t)
        del names[2]
        services.boards_name(user=t.captain, fixture=s.left, names=names)
    services.leg_enter(
        user=u1.captain, fixture=s.left, board=1, leg=1, winner="home", loser_score=90
    )
    services.leg_enter(
        user=u2.captain, fixture=s.left, board=1, leg=1, winner="away", loser_score=90
    )
    services.leg_settle(
        user=organiser, leg=Leg.objects.get(state="disagree"), winner="home", loser_score=90
    )
    services.leg_enter(
        user=u1.captain, fixture=s.left, board=1, leg=2, winner="away", loser_score=100
    )
    services.leg_enter(
        user=u2.captain, fixture=s.left, board=1, leg=2, winner="away", loser_score=101
    )
    exported = archive.season_export(s.season)
    raw = json.dumps(exported)
    season = archive.season_import(user=TRUSTED, raw=raw, league_name="Rye copy")
    again = archive.season_export(season)
    assert again["league"]["name"] == "Rye copy"
    again["league"]["name"] = exported["league"]["name"]
    assert again == exported
    tables = [
        [(r.name, r.points, r.legs_for) for r in t.rows] for t in selectors.division_tables(season)
    ]
    original = [
        [(r.name, r.points, r.legs_for) for r in t.rows]
        for t in selectors.division_tables(s.season)
    ]
    assert tables == original


def test_a_file_that_is_not_an_archive_stores_nothing(organiser):
    s = small_season(organiser)
    exported = archive.season_export(s.season)
    exported["fixtures"][0]["boards"][0]["legs"] = [
        {"number": 1, "home": ["home", 999], "away": ["", None], "settled": None}
    ]
    leagues = TeamLeague.objects.count()
    with pytest.raises(ValidationFailed, match="from 0 to 120"):
        archive.season_import(user=TRUSTED, raw=json.dumps(exported), league_name="Broken")
    with pytest.raises(ValidationFailed, match="not a team league season's archive"):
        archive.season_import(user=TRUSTED, raw="{}", league_name="Broken")
    del exported["teams"]
    with pytest.raises(ValidationFailed, match="'teams' is missing"):
        archive.season_import(user=TRUSTED, raw=json.dumps(exported), league_name="Broken")
    assert TeamLeague.objects.count() == leagues


def test_the_commands_export_and_import_a_season(organiser, tmp_path):
    from io import StringIO

    from django.core.management import call_command

    s = small_season(organiser)
    out = StringIO()
    call_command("export_team_season", str(s.season.pk), stdout=out)
    path = tmp_path / "season.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    said = StringIO()
    call_command("import_team_season", str(path), "--league-name", "Rye again", stdout=said)
    assert "Imported Rye again 2026" in said.getvalue()
    copy = TeamLeague.objects.get(name="Rye again").seasons.get()
    assert archive.season_export(copy)["fixtures"] == json.loads(out.getvalue())["fixtures"]
