"""Running Pegboard as production runs it: a fresh Python process with a production container's
environment (production mode is decided when the settings are imported)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# A fixed, throwaway Web Push pair (made by `manage.py vapid_keys`): never used to send.
_VAPID = {
    "PEGBOARD_VAPID_PUBLIC_KEY": (
        "BJWaPTJltDpAB_BYN7IxqqDfNvvqKhIPZEddDac1uJ_tGGXTvwmHC7c6B6WcDF-vrwOzSoMfzIPVi_59-9q9cY8"
    ),
    "PEGBOARD_VAPID_PRIVATE_KEY": "Kqt50dUm_M7nFHyz8N1S5f6oCLgoBg62_L3CF4K7B2I",
}


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a production container, with a throwaway SQLite database."""
    (tmp_path / "staticfiles").mkdir(exist_ok=True)
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("SECURE_", "DJANGO_", "CELERY_", "EMAIL_"))
        and name not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS"}
        # A parallel test process's name would move the container's Redis database
        # (config.settings._redis_url_of_this_process): a production process has none.
        and name != "PYTEST_XDIST_WORKER"
    }
    env.update(
        PEGBOARD_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.org",
        CSRF_TRUSTED_ORIGINS="https://example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'production.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "staticfiles"),
        DJANGO_SETTINGS_MODULE="config.settings",
        # What check --deploy asks of a production site (league/deploy_checks.py).
        PEGBOARD_SITE_URL="https://example.org",
        PEGBOARD_VAPID_FILE=str(tmp_path / "no-vapid.json"),
        **_VAPID,
    )
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
