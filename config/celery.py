"""The Celery app: Redis as broker when REDIS_URL is set, otherwise tasks run in-process."""

import contextlib
import os
from typing import Any

from celery import Celery
from celery.signals import before_task_publish

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pegboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@before_task_publish.connect
def _beat_stamps_its_heartbeat(sender: str | None = None, **kwargs: Any) -> None:
    """Beat (the only process that sends the heartbeat) stamps the time it sent it."""
    if sender == "league.tasks.heartbeat":
        from league.kernel.heartbeat import beat_stamp

        # The cache (Redis) down: /readyz says so already.
        with contextlib.suppress(Exception):
            beat_stamp()
