"""Processes that come back: a Celery worker and beat outlive Redis going away, twice, and go on
with their work once it is back (CELERY_BROKER_CONNECTION_MAX_RETRIES=None and friends).

A private redis-server on its own port (never the shared one) is stopped under them; the work
checked is the heartbeat itself (beat sends it every second, the worker stamps it in Redis), so
it proves both processes. Marked slow (about a minute): CI runs it in `make test-slow`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests.deploy.production import ROOT, production_env

PORT = 18540
STAMP = b"pegboard:1:pegboard:heartbeat:worker"  # KEY_PREFIX:version:key (league.kernel.heartbeat)

pytestmark = pytest.mark.slow


def _redis_server(tmp: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(PORT), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    client = redis.Redis(port=PORT)
    for _ in range(100):
        try:
            client.ping()
            return process
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def _stamp_appears(client: redis.Redis, *, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if client.exists(STAMP):
                return True
        except redis.ConnectionError:
            pass
        time.sleep(0.5)
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_worker_and_beat_resume_their_work_after_two_redis_outages(tmp_path):
    if not shutil.which("redis-server"):
        if os.environ.get("PEGBOARD_REQUIRE_REDIS_SERVER"):
            pytest.fail("redis-server is not installed")
        pytest.skip("redis-server is not installed")
    env = production_env(
        tmp_path, REDIS_URL=f"redis://127.0.0.1:{PORT}/0", PEGBOARD_HEARTBEAT_EVERY="1"
    )
    server = _redis_server(tmp_path)
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    logs = {name: open(tmp_path / f"{name}.log", "wb") for name in ("worker", "beat")}  # noqa: SIM115
    worker = subprocess.Popen(
        [*celery, "worker", "--loglevel=INFO", "--concurrency=1", "--pool=solo"],
        cwd=ROOT, env=env, stdout=logs["worker"], stderr=logs["worker"], start_new_session=True,
    )  # fmt: skip
    beat = subprocess.Popen(
        [*celery, "beat", "--loglevel=INFO", f"--schedule={tmp_path / 'schedule'}"],
        cwd=ROOT, env=env, stdout=logs["beat"], stderr=logs["beat"], start_new_session=True,
    )  # fmt: skip
    client = redis.Redis(port=PORT)

    def say() -> str:
        return "\n".join(
            f"--- {name}\n" + (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:]
            for name in logs
        )

    try:
        assert _stamp_appears(client, within=60), "no heartbeat before the outage\n" + say()
        for outage in (1, 2):
            _stop(server)  # Redis goes away (its data with it: no persistence here)
            time.sleep(6)
            assert worker.poll() is None, f"the worker exited in outage {outage}\n" + say()
            assert beat.poll() is None, f"beat exited in outage {outage}\n" + say()
            server = _redis_server(tmp_path)
            assert _stamp_appears(client, within=60), (
                f"no heartbeat after outage {outage}: beat or the worker did not come back\n"
                + say()
            )
        assert worker.poll() is None and beat.poll() is None
    finally:
        for process in (worker, beat, server):
            _stop(process)
        for log in logs.values():
            log.close()
