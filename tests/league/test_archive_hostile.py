"""Crafted archives are refused with a sentence before the database sees them, the same sentence
on SQLite and PostgreSQL: bad UTF-8, deep nesting, numbers past 64 bits or past a column's range,
10,000-character names, and archives past the size cap."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command

from league.models import League, Season, Team
from league.services.archive import ArchiveRefused
from league.services.archive_import import archive_parse, import_season
from tests.factories import make_archive

pytestmark = pytest.mark.django_db


def refused_message(data) -> str:
    before = (League.objects.count(), Season.objects.count(), Team.objects.count())
    with pytest.raises(ArchiveRefused) as info:
        import_season(archive_parse(data) if isinstance(data, bytes) else data)
    assert (League.objects.count(), Season.objects.count(), Team.objects.count()) == before
    return info.value.message


def changed(path: str, value) -> dict:
    doc = copy.deepcopy(make_archive())
    where = doc
    keys = path.split(".")
    for key in keys[:-1]:
        where = where[int(key)] if key.isdigit() else where[key]
    last = keys[-1]
    where[int(last) if last.isdigit() else last] = value
    return doc


def test_bad_utf8_is_refused_with_where_it_is():
    raw = json.dumps(make_archive()).encode()
    raw = raw[:40] + b"\xff\xfe" + raw[40:]
    assert "not UTF-8 text (byte 41)" in refused_message(raw)


def test_not_json_is_refused_with_the_line_and_column():
    assert "not JSON (line 1, column 2" in refused_message(b"{oops")


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deep_nesting_is_refused(depth):
    raw = b'{"format": "pegboard-season", "x": ' + b"[" * depth + b"]" * depth + b"}"
    assert "nested too deeply" in refused_message(raw)


def test_nan_and_infinity_are_refused():
    assert "not a number JSON allows" in refused_message(b'{"format": NaN}')


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("season.playoff_teams", 2**63),
        ("season.draw_seed", 2**63),
        ("league.rules.target", 2**64),
        ("weeks.0.number", 2**63 - 1),
        ("weeks.0.number", 40_000),
        ("season.playoff_teams", -(2**63) - 1),
    ],
)
def test_numbers_out_of_range_are_refused_before_the_database(path, value):
    message = refused_message(changed(path, value))
    assert "too large" in message or "at least" in message or "at most" in message, message


@pytest.mark.parametrize(
    "path", ["league.name", "season.name", "teams.0.name", "teams.0.players.0"]
)
def test_ten_thousand_character_names_are_refused_before_the_database(path):
    message = refused_message(changed(path, "N" * 10_000))
    assert "at most 120 characters" in message, message


def test_an_archive_past_the_size_cap_is_refused(settings):
    settings.PEGBOARD_ARCHIVE_MAX_BYTES = 1000
    assert "larger than" in refused_message(json.dumps(make_archive()).encode())


def test_the_command_refuses_bad_files_with_a_sentence(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"format": "pegboard-season", "x": "\xff"}')
    with pytest.raises(CommandError, match="not UTF-8"):
        call_command("import_season", str(path))
    path.write_bytes(b"[" * 100_000)
    with pytest.raises(CommandError, match="nested too deeply"):
        call_command("import_season", str(path))
