"""Backups that bring a league back: `manage.py backup` writes the database dump and, apart,
the secrets a restored site needs (0600); `manage.py restore` puts the dump back.

The restore drill on PostgreSQL (dump, drop the database, create it empty, restore: the same
rows in every table and the same standings) copies a seeded database that .ci/run names in
PEGBOARD_DRILL_DATABASE_URL; without it the drill is skipped. The SQLite round trip runs
everywhere.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.deploy.production import production_env, run

SNAPSHOT = r"""
import json
import django
django.setup()
from django.apps import apps
from league.management.commands.standings import standings_document
from league.models import Season
counts = {m._meta.db_table: m._base_manager.count() for m in apps.get_models()}
standings = {
    f"{s.league.name} / {s.name}": standings_document(s)
    for s in Season.objects.select_related("league").order_by("pk")
}
print(json.dumps({"counts": counts, "standings": standings}, default=str, sort_keys=True))
"""


MAKE_VENUE = "from league.models import Venue; Venue.objects.create(name='%s')"


def _snapshot(env: dict[str, str]) -> dict:
    result = run(["-c", SNAPSHOT], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    result = run(["manage.py", *args], env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def _venues(env: dict[str, str]) -> list[str]:
    names = "from league.models import Venue; print(*Venue.objects.values_list('name', flat=True))"
    return sorted(_manage(env, "shell", "-v0", "-c", names).stdout.split())


@pytest.mark.slow  # processes started for real: 15 s or more (make test-slow, CI)
def test_a_sqlite_site_is_brought_back_by_its_backup_and_the_secrets_are_kept_apart(tmp_path):
    env = production_env(tmp_path)
    _manage(env, "migrate", "-v0")
    _manage(env, "shell", "-c", MAKE_VENUE % "Anchor")
    out = _manage(
        env, "backup", "--output", str(tmp_path / "dumps"), "--secrets-dir", str(tmp_path / "keys")
    ).stdout
    assert "Keep the secrets file apart" in out
    (dump,) = (tmp_path / "dumps").iterdir()
    (secrets,) = (tmp_path / "keys").iterdir()
    # The secrets a restored site needs, readable by their owner only, and not in the dump.
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    text = secrets.read_text()
    assert f"SECRET_KEY={env['SECRET_KEY']}\n" in text
    assert f"PEGBOARD_VAPID_PRIVATE_KEY={env['PEGBOARD_VAPID_PRIVATE_KEY']}\n" in text
    assert env["SECRET_KEY"].encode() not in dump.read_bytes()

    _manage(env, "shell", "-c", MAKE_VENUE % "Late")
    assert _venues(env) == ["Anchor", "Late"]
    _manage(env, "restore", "--yes", str(dump))
    assert _venues(env) == ["Anchor"]


def test_restore_asks_before_replacing_the_database(tmp_path):
    env = production_env(tmp_path)
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(tmp_path / "nothing.dump")],
        cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode != 0 and "No dump at" in result.stderr


def _psql(admin_url: str, sql: str) -> None:
    subprocess.run(["psql", admin_url, "-qc", sql], check=True, capture_output=True)


def test_restore_drill_on_postgresql_brings_back_every_row_and_the_standings(tmp_path):
    source = os.environ.get("PEGBOARD_DRILL_DATABASE_URL")
    if not source:
        pytest.skip("PEGBOARD_DRILL_DATABASE_URL (a seeded PostgreSQL database) not set")
    parts = urlsplit(source)
    admin = urlunsplit(parts._replace(path="/postgres"))
    drill = urlunsplit(parts._replace(path="/pegboard_restore_drill"))
    template = parts.path.strip("/")
    _psql(admin, "DROP DATABASE IF EXISTS pegboard_restore_drill WITH (FORCE)")
    # A copy needs the source to itself: connections left by processes just stopped go first.
    _psql(
        admin,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE datname = '{template}' AND pid <> pg_backend_pid()",
    )
    _psql(admin, f'CREATE DATABASE pegboard_restore_drill TEMPLATE "{template}"')
    env = production_env(tmp_path, DATABASE_URL=drill)
    try:
        before = _snapshot(env)
        assert before["counts"]["league_game"] > 0, "the drill needs a seeded database"
        _manage(env, "backup", "--output", str(tmp_path / "dumps"), "--no-secrets")
        (dump,) = (tmp_path / "dumps").iterdir()
        # The server is lost: the database is dropped and made again, empty.
        _psql(admin, "DROP DATABASE pegboard_restore_drill WITH (FORCE)")
        _psql(admin, "CREATE DATABASE pegboard_restore_drill")
        _manage(env, "restore", "--yes", str(dump))
        after = _snapshot(env)
    finally:
        _psql(admin, "DROP DATABASE IF EXISTS pegboard_restore_drill WITH (FORCE)")
    assert after["counts"] == before["counts"]
    assert after["standings"] == before["standings"]
    assert before["standings"], "no season's standings were compared"
