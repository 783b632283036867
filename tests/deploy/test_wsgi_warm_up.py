"""gunicorn preloads config.wsgi in its master and forks the workers from it: the warm-up
there must load what a worker's first request would (the views, the cache's and broker's
clients) and must not open a database connection the workers would then share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import config.wsgi
from django.db import connections
loaded = [m for m in ("league.api.views", "league.views.scoreboard", "redis", "kombu")
          if m in sys.modules]
opened = [alias for alias in connections if connections[alias].connection is not None]
print(",".join(loaded), "|", ",".join(opened))
"""


def run(**env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={
            **os.environ,
            # A database nobody listens on: the warm-up must not need one.
            "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_the_master_loads_every_view_and_client_without_touching_the_database():
    loaded, opened = (part.strip() for part in run().split("|"))
    assert loaded.split(",") == ["league.api.views", "league.views.scoreboard", "redis", "kombu"]
    assert opened == ""


def test_the_warm_up_can_be_turned_off():
    loaded, _opened = (part.strip() for part in run(PEGBOARD_WARM_UP="0").split("|"))
    assert "league.api.views" not in loaded.split(",")
