"""Send the notifications that are due (night reminders, last calls to confirm) where no Celery
beat runs: from cron, every quarter hour. Each is sent once however often this runs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.kernel.notify import retry_failed
from league.services.notify import notify_scheduled


class Command(BaseCommand):
    help = "Send the reminders that are due, and retry failed sends (safe to run often)."

    def handle(self, *args: Any, **options: Any) -> None:
        due = notify_scheduled()
        retried = retry_failed()
        for name, count in due.items():
            self.stdout.write(f"{name}: {count}")
        self.stdout.write(f"failed sends retried: {retried.get('sent', 0)}")
