"""Thin Celery tasks: they take ids and call services; each is safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from league.models import Season
from league.rendering import standings_up_to_date, store_standings_pages
from league.services.playoffs import playoffs_advance
from league.services.results import results_version_bump
from league.services.standings import standings_recompute


@shared_task(acks_late=True)
def recompute_standings(season_id: int) -> dict[str, Any] | None:
    """After a result changed, in this order: recompute the standings, render the visitors'
    pages from them, then advance the playoff bracket (which reads the fresh results).
    Nothing to do (None) when an earlier task of a burst already did the current version."""
    if standings_up_to_date(season_id):
        return None
    data = standings_recompute(season_id=season_id)
    if data is None:
        return None
    store_standings_pages(season_id)
    season = Season.objects.select_related("league").get(pk=season_id)
    if season.playoff_seeding:
        playoffs_advance(season=season)
    return {"season_id": season_id, "version": data["results_version"]}


@shared_task(acks_late=True)
def notify_dispute(dispute_id: int, event: str) -> int:
    """Email both captains that a dispute was raised or ruled on. Returns mails sent."""
    from league.services.notifications import dispute_notify

    return dispute_notify(dispute_id=dispute_id, event=event)


@shared_task
def send_signin_link(user_id: int, link_base: str) -> int:
    """Email a locked-out player a one-time sign-in link. Returns mails sent. Not retried: a
    second mail would carry a second live link; the player can ask again."""
    from league.services.notifications import signin_link_notify

    return signin_link_notify(user_id=user_id, link_base=link_base)


@shared_task
def recompute_stale_standings() -> int:
    """Beat's safety net: recompute every season whose standings are stale (a write whose
    recompute could not be queued, say with the broker down, or whose process died between its
    commit and the version bump: hence a new version first). Returns how many it did."""
    stale = list(Season.objects.shown().filter(standings_stale=True).values_list("pk", flat=True))
    for season_id in stale:
        results_version_bump(season_id=season_id)
        recompute_standings(season_id)
    return len(stale)
