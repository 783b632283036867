"""Queueing a task by its name after commit, for services of both apps (which never import
task modules)."""

from __future__ import annotations

import logging
import threading

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)


def queue_task(name: str, *args: object) -> None:
    """Queue the Celery task called ``name`` (run at once where tasks run in-process).

    The task is found by its name in the Celery app, as beat finds its tasks, so no service
    imports the task module: a process that has not loaded it yet (a web worker) has Celery
    load the module that declares the name.

    Sending to a broker is given ``PEGBOARD_ENQUEUE_WAIT`` seconds: a broker that accepts the
    connection and never answers would otherwise hold the captain's response until its socket
    times out. Past that wait the send carries on in a background thread (and fails there, with
    a warning, if the broker never answers); every task is a catch-up that beat's safety net
    also runs, so a lost send costs freshness, never a result."""
    task = current_app.tasks.get(name)
    if task is None:
        current_app.loader.import_task_module(name.rpartition(".")[0])
        task = current_app.tasks[name]
    if current_app.conf.task_always_eager:
        task.delay(*args)
        return
    failure: list[BaseException] = []

    def send() -> None:
        try:
            task.delay(*args)
        except Exception as exc:
            failure.append(exc)
            log.warning("could not queue %s%r", name, args, exc_info=True)

    sender = threading.Thread(target=send, name=f"enqueue {name}", daemon=True)
    sender.start()
    sender.join(settings.PEGBOARD_ENQUEUE_WAIT)
    if sender.is_alive():
        log.warning("the broker is slow to answer: %s%r is sent in the background", name, args)
    elif failure:
        raise failure[0]
