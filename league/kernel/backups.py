"""Backups that bring a league back: the database, and apart from it the secrets.

The database dump holds every row (results, people, logins, subscriptions, the audit trail).
It does not hold what lives in the settings: ``SECRET_KEY``, which signs every mailed answer
link, unsubscribe link, sign-in link and device cookie, and the Web Push key pair, which every
phone's subscription belongs to. Lose those and the restored league works, but every link in
players' mailboxes is dead and every phone must subscribe again. So a backup writes both: the
dump, and a small secrets file (mode 0600) meant to be kept apart, since together they let
whoever holds them sign links as the site.

PostgreSQL is dumped by ``pg_dump`` (custom format) and restored by ``pg_restore``; SQLite is
copied with SQLite's own backup API, which gives a consistent copy while the site runs (a plain
file copy of a database in WAL mode can miss the last writes).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connections

from league.kernel.push import vapid_pair


@dataclass(frozen=True)
class Backup:
    database: Path
    secrets: Path | None


def _database() -> dict[str, object]:
    return connections["default"].settings_dict


def _is_postgres() -> bool:
    return "postgresql" in str(_database()["ENGINE"])


def _pg_env_and_args() -> tuple[dict[str, str], list[str]]:
    db = _database()
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    return env, [*args, "--dbname", str(db["NAME"])]


def secrets_text() -> str:
    """The settings a restored site needs besides its database, as environment lines."""
    lines = [
        "# Pegboard's secrets. Keep this file apart from the database dumps, readable by you",
        "# only: with it, anyone can sign links and cookies as the site. After a restore, put",
        "# these lines back in the settings file (.env or /etc/pegboard/pegboard.env).",
        f"SECRET_KEY={settings.SECRET_KEY}",
    ]
    pair = vapid_pair()
    if pair:
        lines += [
            f"PEGBOARD_VAPID_PUBLIC_KEY={pair['public']}",
            f"PEGBOARD_VAPID_PRIVATE_KEY={pair['private']}",
            f"PEGBOARD_VAPID_SUBJECT={settings.PEGBOARD_VAPID_SUBJECT}",
        ]
    else:
        lines.append("# No Web Push key pair is configured: nothing to keep for push.")
    return "\n".join(lines) + "\n"


def write_secrets(path: Path) -> Path:
    """Write the secrets file, created 0600 (never readable by others, not even briefly)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secrets_text())
    path.chmod(0o600)
    return path


def backup_database(directory: Path, *, stamp: str | None = None) -> Path:
    """Dump the database into ``directory``; returns the file."""
    stamp = stamp or datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    directory.mkdir(parents=True, exist_ok=True)
    if _is_postgres():
        target = directory / f"pegboard-{stamp}.dump"
        env, args = _pg_env_and_args()
        subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", "--file", str(target), *args],
            env=env,
            check=True,
        )
    else:
        target = directory / f"pegboard-{stamp}.sqlite3"
        source = sqlite3.connect(str(_database()["NAME"]))
        try:
            copy = sqlite3.connect(str(target))
            with copy:
                source.backup(copy)
            copy.close()
        finally:
            source.close()
    target.chmod(0o600)
    return target


def backup(directory: Path, *, secrets_directory: Path | None = None) -> Backup:
    """The dump in ``directory`` and, unless ``secrets_directory`` is None, the secrets file
    there (a different place is the point)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    database = backup_database(directory, stamp=stamp)
    secrets = None
    if secrets_directory is not None:
        secrets = write_secrets(secrets_directory / f"pegboard-secrets-{stamp}.env")
    return Backup(database=database, secrets=secrets)


def restore_database(path: Path) -> None:
    """Replace every row of the configured database with the dump at ``path``."""
    connections["default"].close()
    if _is_postgres():
        env, args = _pg_env_and_args()
        subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
             "--exit-on-error", *args, str(path)],
            env=env,
            check=True,
        )  # fmt: skip
        return
    source = sqlite3.connect(str(path))
    try:
        target = sqlite3.connect(str(_database()["NAME"]))
        with target:
            source.backup(target)
        target.close()
    finally:
        source.close()
