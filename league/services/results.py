"""Telling the standings that results changed: the season is marked stale in the writing
transaction, and one recompute per season is queued once it commits."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from league.models import Season


def results_changed(season_id: int) -> None:
    """Mark standings stale in this transaction; recompute them once it commits."""
    Season.objects.filter(pk=season_id).update(
        standings_stale=True, results_version=F("results_version") + 1
    )

    # One recompute per season per transaction, however many deals it wrote (an import).
    connection = transaction.get_connection()
    for _sids, queued, _robust in connection.run_on_commit:
        if getattr(queued, "pegboard_season", None) == season_id:
            return

    def schedule() -> None:
        from league.services.standings import schedule_recompute

        schedule_recompute(season_id)

    schedule.pegboard_season = season_id  # type: ignore[attr-defined]
    transaction.on_commit(schedule)
