"""``manage.py retally``: rebuild every match's tally from its games (after raw SQL, say)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.models import Season
from league.services.tallies import mend_tallies


class Command(BaseCommand):
    help = (
        "Check each season's match tallies (what the standings read) against the games and "
        "rebuild those that differ. Only needed after the database was changed by hand: every "
        "write through Pegboard keeps them, and the standings recompute checks them too."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        mended = 0
        for season_id in Season.objects.values_list("pk", flat=True):
            mended += mend_tallies(season_id)
        self.stdout.write(f"{mended} match tally(ies) rebuilt from their games.")
