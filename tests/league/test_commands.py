"""The standings command: the exact JSON shape, and a table for the terminal."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import CommandError, call_command

from league.selectors.standings import compute_standings
from tests import factories
from tests.factories import play_game as play

ROW_KEYS = ["rank", "team", "played", "won", "lost", "points", "weeks_won", "skunks", "spread"]


@pytest.fixture(autouse=True)
def fresh_cache():
    """Standings are cached by season id and results version; both repeat after a test's
    rollback, so each test starts with an empty cache."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def played(season, match, ann, cat):
    rng = random.Random(3)
    for number in (1, 2, 3):
        play(match, number, rng, entering=ann, confirming=cat)
    return season


@pytest.mark.django_db
def test_standings_json_has_exactly_the_documented_shape(played, other_team, capsys):
    call_command("standings", "Fall 2026", "--format", "json")
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["season", "standings", "seeding"]
    assert doc["season"] == "Fall 2026"
    assert [list(row) for row in doc["standings"]] == [ROW_KEYS] * 3
    assert sorted(doc["seeding"]) == ["Fifteen Two", "His Heels", "Nobs"]
    computed = compute_standings(played)
    assert doc["seeding"] == computed["seeding"]
    for row, ours in zip(doc["standings"], computed["standings"], strict=True):
        assert row == {key: ours[key] for key in ROW_KEYS}
    top = doc["standings"][0]
    assert top["played"] == 3 and top["won"] >= 2 and top["points"] >= 2
    assert doc["standings"][-1]["team"] == "His Heels" and doc["standings"][-1]["played"] == 0


@pytest.mark.django_db
def test_standings_table_prints_the_same_for_a_terminal(played, capsys):
    call_command("standings", "Fall 2026", "--format", "table")
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Fall 2026"
    assert lines[2].split() == ["#", "Team", "P", "W", "L", "Pts", "WW", "Sk", "Spread"]
    data = compute_standings(played)
    for row in data["standings"]:
        assert any(row["team"] in line and f" {row['points']} " in line for line in lines)
    assert lines[-1] == "Seeding: " + ", ".join(
        f"{i}. {team}" for i, team in enumerate(data["seeding"], start=1)
    )


@pytest.mark.django_db
def test_standings_table_marks_shared_ranks(season, home_team, away_team, capsys):
    call_command("standings", "Fall 2026")  # table is the default; nobody has played
    lines = capsys.readouterr().out.splitlines()
    assert lines[4].startswith("1=") and lines[5].startswith("1=")


@pytest.mark.django_db
def test_standings_refuses_an_unknown_or_ambiguous_season(season):
    with pytest.raises(CommandError, match="No season called 'Winter'"):
        call_command("standings", "Winter")
    other = factories.SeasonFactory(name="Fall 2026")  # another league's Fall 2026
    with pytest.raises(CommandError, match="say which with --league"):
        call_command("standings", "Fall 2026")
    call_command("standings", "Fall 2026", "--league", other.league.name, "--format", "json")
