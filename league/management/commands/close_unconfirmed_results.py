"""``manage.py close_unconfirmed_results``: the league confirms the finished games nobody
confirmed or disputed within their season's grace period (for cron, where beat does not run)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.services.closing import results_close


class Command(BaseCommand):
    help = (
        "Confirm, as closed by the league, every finished game nobody confirmed or disputed "
        "within its season's grace period. Safe to run as often as you like."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        closed = results_close()
        self.stdout.write(f"{len(closed)} game(s) closed by the league.")
