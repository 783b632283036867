"""Is anyone sending? The proof that beat and a worker are alive, for /readyz and the organiser.

Beat queues ``league.tasks.heartbeat`` every ``PEGBOARD_HEARTBEAT_EVERY`` seconds and stamps the
time it sent it (``beat_stamp``, called from Celery's ``before_task_publish`` signal in the
process that publishes, which is beat); the worker that runs the task stamps the time it ran it
(``worker_stamp``). Both stamps live in the cache, which is Redis wherever a worker exists. A
stamp older than ``PEGBOARD_HEARTBEAT_STALE`` seconds means that process is not doing its work:
reminders, answers to disputes and standings refreshes are not going out. The heartbeat message
expires after one period, so a worker that comes back after an outage does not run a backlog of
old heartbeats and look alive before it is.

Where tasks run in-process (the embedded SQLite mode) there is no worker and no beat to miss:
``heartbeat_status`` says so and is always fine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

BEAT_KEY = "pegboard:heartbeat:beat"
WORKER_KEY = "pegboard:heartbeat:worker"
TASK = "league.tasks.heartbeat"


def beat_stamp(*, now: float | None = None) -> None:
    """Record that beat has just sent its heartbeat."""
    cache.set(BEAT_KEY, time.time() if now is None else now, timeout=None)


def worker_stamp(*, now: float | None = None) -> None:
    """Record that a worker has just run the heartbeat."""
    cache.set(WORKER_KEY, time.time() if now is None else now, timeout=None)


@dataclass(frozen=True)
class Heartbeat:
    """What the stamps say: ``ok`` is False when messages are not going out, and ``reasons``
    then says which process is missing, in an operator's words."""

    in_process: bool
    beat_age: float | None
    worker_age: float | None
    reasons: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.reasons


def heartbeat_status(*, now: float | None = None) -> Heartbeat:
    """Read both stamps. Never raises: an unreadable cache is a reason like any other."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Heartbeat(in_process=True, beat_age=None, worker_age=None, reasons=())
    now = time.time() if now is None else now
    stale = settings.PEGBOARD_HEARTBEAT_STALE
    try:
        stamps = cache.get_many([BEAT_KEY, WORKER_KEY])
    except Exception as exc:  # Redis down: the same answer as no stamp, with the cause
        return Heartbeat(
            in_process=False,
            beat_age=None,
            worker_age=None,
            reasons=(f"the cache holding the heartbeat cannot be read ({type(exc).__name__})",),
        )
    ages = {key: (now - stamps[key]) if key in stamps else None for key in (BEAT_KEY, WORKER_KEY)}
    reasons = []
    for key, process in ((BEAT_KEY, "beat"), (WORKER_KEY, "worker")):
        age = ages[key]
        if age is None:
            reasons.append(f"no {process} heartbeat yet (is celery {process} running?)")
        elif age > stale:
            reasons.append(f"{process} heartbeat is {int(age)} s old (more than {int(stale)} s)")
    return Heartbeat(
        in_process=False,
        beat_age=ages[BEAT_KEY],
        worker_age=ages[WORKER_KEY],
        reasons=tuple(reasons),
    )
