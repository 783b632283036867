"""Upgrades that can be undone: the previous release's demo database (tests/data/) upgraded as
docs/deploying.md says (migrate, collectstatic) in production mode answers every page it links
to, signed out and as the demo's superuser; and the migrations since that release reverse to it
and apply again. Marked slow (about a minute): CI runs it in `make test-slow`.
"""

from __future__ import annotations

import json
import lzma
import sqlite3
from pathlib import Path

import pytest

from tests.deploy.production import production_env, run

DATA = Path(__file__).resolve().parent.parent / "data" / "previous-release-demo.sqlite3.xz"

pytestmark = pytest.mark.slow

CRAWL = r"""
import json, re, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client

SKIP = ("/static/", "/accounts/logout", "/admin/logout", "/i18n/", "/api/docs")
def crawl(client, start, limit):
    seen, queue, answers = set(), list(start), {}
    while queue and len(answers) < limit:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path, secure=True, headers={"host": "example.org"})
        answers[path] = response.status_code
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            for link in re.findall(r'href="(/[^"#]*)"', response.content.decode()):
                link = link.replace("&amp;", "&")
                if not link.startswith(SKIP) and link not in seen:
                    queue.append(link)
    return answers

visitor = crawl(Client(), ["/", "/tournaments/", "/api/leagues/"], int(sys.argv[1]))
admin = Client()
admin.force_login(get_user_model().objects.filter(is_superuser=True).first())
organiser = crawl(admin, ["/organise/", "/admin/"], int(sys.argv[1]))
print(json.dumps({"visitor": visitor, "organiser": organiser}))
"""


def _last_migrations(database: Path) -> dict[str, str]:
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT app, max(name) FROM django_migrations "
            "WHERE app IN ('league', 'tournaments') GROUP BY app"
        ).fetchall()
    return dict(rows)


def _ok(env: dict[str, str], *args: str) -> str:
    result = run(list(args), env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _crawl(env: dict[str, str], limit: int) -> dict[str, dict[str, int]]:
    return json.loads(_ok(env, "-c", CRAWL, str(limit)).strip().splitlines()[-1])


def test_the_previous_releases_database_upgrades_and_every_page_answers(tmp_path):
    database = tmp_path / "previous.sqlite3"
    database.write_bytes(lzma.decompress(DATA.read_bytes()))
    previous = _last_migrations(database)
    assert set(previous) == {"league", "tournaments"}
    env = production_env(tmp_path, DATABASE_URL=f"sqlite:///{database}")

    # docs/deploying.md, "Upgrading": migrate, collectstatic, restart, check.
    _ok(env, "manage.py", "migrate", "--noinput", "-v0")
    _ok(env, "manage.py", "collectstatic", "--noinput", "-v0")
    _ok(env, "manage.py", "check", "--deploy", "--fail-level", "ERROR")
    pages = _crawl(env, 80)
    for who, answers in pages.items():
        failing = {path: code for path, code in answers.items() if code >= 500}
        assert not failing, f"{who}: {failing}"
        assert len(answers) >= 20, f"{who} reached only {sorted(answers)}"
    assert pages["visitor"]["/"] == 200
    assert pages["organiser"]["/organise/"] == 200

    # Rolling back: every migration since the previous release reverses, then applies again.
    _ok(env, "manage.py", "migrate", "tournaments", previous["tournaments"], "--noinput", "-v0")
    _ok(env, "manage.py", "migrate", "league", previous["league"], "--noinput", "-v0")
    assert _last_migrations(database) == previous
    _ok(env, "manage.py", "migrate", "--noinput", "-v0")
    assert _crawl(env, 5)["visitor"]["/"] == 200
