"""Running Pegboard as production runs it: a fresh Python process with a production container's
environment (production mode is decided when the settings are imported)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a production container, with a throwaway SQLite database."""
    (tmp_path / "staticfiles").mkdir(exist_ok=True)
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("SECURE_", "DJANGO_", "CELERY_", "EMAIL_"))
        and name not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS"}
    }
    env.update(
        PEGBOARD_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.org",
        CSRF_TRUSTED_ORIGINS="https://example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'production.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "staticfiles"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
