"""``manage.py rebuild_records``: compute the records pages' figures (skunks, streaks,
milestones, special hands, the head-to-head picker's players) from every game and store them,
whatever is stored now. The pages and the worker rebuild them by themselves when a result
changes; this is for a database restored or written outside the services."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from league.services.records import records_rebuild


class Command(BaseCommand):
    help = "Rebuild the stored records (all seasons and each public season) from the games."

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        scopes = records_rebuild()
        self.stdout.write(
            f"Records rebuilt: all seasons and {len(scopes) - 1} season(s), "
            f"in {time.perf_counter() - start:.1f} s."
        )
