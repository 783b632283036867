"""Thin Celery tasks: they take ids and call services; each is safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from league.models import Season
from league.rendering import standings_up_to_date, store_standings_pages
from league.services.notify import notify_week_stories
from league.services.playoffs import playoffs_advance
from league.services.records import records_refresh
from league.services.results import results_version_bump
from league.services.season_life import season_finish_if_over
from league.services.standings import standings_recompute


@shared_task(acks_late=True)
def recompute_standings(season_id: int) -> dict[str, Any] | None:
    """After a result changed, in this order: recompute the standings, render the visitors'
    pages from them, then advance the playoff bracket (which reads the fresh results), finish
    a season that is over, send the story of a week now over where the season sends it, and
    rebuild the stored records (skunks, streaks, milestones, special hands).
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
    season_finish_if_over(season_id=season_id)
    notify_week_stories(season_id=season_id)
    records_refresh()  # last: the records of every season, kept as results count
    return {"season_id": season_id, "version": data["results_version"]}


@shared_task(acks_late=True)
def notify_dispute(dispute_id: int, event: str) -> int:
    """Email both captains that a dispute was raised or ruled on. Returns mails sent."""
    from league.services.notifications import dispute_notify

    return dispute_notify(dispute_id=dispute_id, event=event)


@shared_task
def deliver_signin_link(identifier: str, link_base: str) -> int:
    """A sign-in link request: mail a link if an account matches ``identifier`` (looked up here,
    not in the request, so the request takes as long whether or not one does). Not retried."""
    from league.services.notifications import signin_link_deliver

    return signin_link_deliver(identifier=identifier, link_base=link_base)


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


@shared_task
def close_unconfirmed_results() -> int:
    """Beat: the league confirms the finished games whose season's grace period has run with
    nobody confirming or disputing them (``league.services.closing``). Returns how many."""
    from league.services.closing import results_close

    return len(results_close())


@shared_task(bind=True, acks_late=True, max_retries=5)
def notify_send(
    self: Any, event: str, recipients: list[int], context: dict[str, Any], key: str
) -> int:
    """Send one event to its recipients (league/kernel/notify.py), each at most once: run
    again, it sends only what has not gone yet. A failed send is retried with backoff (and by
    beat's ``notify_retry_failed``). Returns the messages sent."""
    from league.kernel.notify import deliver

    counts = deliver(event=event, recipients=recipients, context=context, key=key)
    if counts.get("failed") and not self.request.called_directly and not self.request.is_eager:
        raise self.retry(countdown=60 * 2**self.request.retries)
    return counts.get("sent", 0)


@shared_task(bind=True, acks_late=True, max_retries=5)
def notify_dispatch(self: Any, event: str, key: str) -> int:
    """Send the mails one event owes (written in its transaction, league/kernel/notify.py),
    then queue its pushes. Safe to run twice: a row sent is never sent again. A failed mail
    is retried with backoff (and by beat's sweep). Returns the messages sent."""
    from league.kernel.notify import dispatch

    counts = dispatch(event=event, key=key)
    if counts.get("failed") and not self.request.called_directly and not self.request.is_eager:
        raise self.retry(countdown=60 * 2**self.request.retries)
    return counts.get("sent", 0)


@shared_task(acks_late=True)
def notify_push(event: str | None, key: str) -> int:
    """On the ``push`` queue, after an event's mails: send every push waiting (the event's and
    any other's, side by side); queued by beat's sweep (no ``event``), the failed ones with
    attempts left too. Not retried here. Returns those sent."""
    from league.kernel.notify import dispatch_pushes

    return dispatch_pushes(retry=event is None).get("sent", 0)


@shared_task
def notify_scheduled() -> dict[str, int]:
    """Beat: the night reminders and last calls to confirm that are due (each sent once)."""
    from league.services.notify import notify_scheduled as due

    return due()


@shared_task
def notify_retry_failed() -> int:
    """Beat's sweep of the outbox: send every message still owed (written while the broker
    was down, failed with attempts left, or left by a sender that died). Returns mails sent."""
    from league.kernel.notify import retry_failed

    return retry_failed().get("sent", 0)


@shared_task(acks_late=True)
def update_ratings() -> dict[str, Any]:
    """After a result came to stand or stopped standing: rate what is new (or replay all when
    needed, ``league.services.ratings``). Safe to run twice: a second run finds nothing new."""
    from dataclasses import asdict

    from league.services.ratings import ratings_update

    return asdict(ratings_update())


@shared_task(acks_late=True)
def recompute_ratings() -> dict[str, Any]:
    """The heavy one: replay every standing result into fresh ratings."""
    from dataclasses import asdict

    from league.services.ratings import ratings_recompute

    return asdict(ratings_recompute())


@shared_task(ignore_result=True)
def heartbeat() -> None:
    """Beat, every ``PEGBOARD_HEARTBEAT_EVERY`` seconds: the worker that runs this stamps the
    time (``league.kernel.heartbeat``), so /readyz and the organiser see that mail goes out."""
    from league.kernel.heartbeat import worker_stamp

    worker_stamp()
