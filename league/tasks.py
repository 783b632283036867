"""Thin Celery tasks: they take ids and call services; each is safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(acks_late=True)
def recompute_standings(season_id: int) -> dict[str, Any] | None:
    from league.rendering import store_standings_pages
    from league.services.standings import standings_recompute

    data = standings_recompute(season_id=season_id)
    if data is None:
        return None
    store_standings_pages(season_id)
    return {"season_id": season_id, "version": data["results_version"]}


@shared_task(acks_late=True)
def notify_dispute(dispute_id: int, event: str) -> int:
    """Email both captains that a dispute was raised or ruled on. Returns mails sent."""
    from league.services.notifications import dispute_notify

    return dispute_notify(dispute_id=dispute_id, event=event)


@shared_task
def recompute_stale_standings() -> int:
    """Beat's safety net: recompute every season whose standings are stale (a write whose
    recompute could not be queued, say with the broker down). Returns how many it did."""
    from league.models import Season

    stale = list(Season.objects.filter(standings_stale=True).values_list("pk", flat=True))
    for season_id in stale:
        recompute_standings(season_id)
    return len(stale)
