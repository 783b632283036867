"""Results changed: the one call every write that changes what counts makes.

``results_changed(season_id=...)`` inside the writing transaction marks the season's standings
stale, writing the season row only when it is not stale already, so concurrent score entries do
not queue on that row. After commit, once per season however many results the transaction wrote
(a whole import, say), it bumps the season's ``results_version`` in a statement of its own and
queues one recompute. Every cache of standings is keyed by that version, and the version moves
only after the new results are visible, so a reader that sees the new version also sees the new
results. If the process dies between the commit and the bump, the season stays marked stale and
beat's safety net (``recompute_stale_standings``) bumps the version and recomputes.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.db.models import F

from league.kernel.queue import queue_task
from league.models import Season
from league.standings_cache import forget_results_version

log = logging.getLogger(__name__)

RECOMPUTE_TASK = "league.tasks.recompute_standings"


def results_changed(*, season_id: int) -> None:
    """Mark the standings stale now; after commit, bump the results version and queue one
    recompute per season per transaction."""
    Season.objects.filter(pk=season_id, standings_stale=False).update(standings_stale=True)
    connection = transaction.get_connection()
    flushed = _flushed(connection)
    # A change of this season after its last flush: the next flush must run. Each call queues
    # its own callback, so a rolled-back savepoint drops only its own; the set keeps the flush
    # to one per commit (the callbacks of one commit run one after the other, after it).
    flushed.discard(season_id)
    transaction.on_commit(partial(_after_commit, season_id, flushed), robust=True)


def _flushed(connection: object) -> set[int]:
    """The seasons flushed since their last change, kept per database connection (a connection
    serves one thread and one transaction at a time)."""
    state: set[int] | None = getattr(connection, "pegboard_results_flushed", None)
    if state is None:
        state = set()
        connection.pegboard_results_flushed = state  # type: ignore[attr-defined]
    return state


def _after_commit(season_id: int, flushed: set[int]) -> None:
    if season_id in flushed:
        return  # this commit's change is flushed already
    flushed.add(season_id)
    results_version_bump(season_id=season_id)
    schedule_recompute(season_id)


def results_version_bump(*, season_id: int) -> None:
    """A new results version (and stale standings): every cache keyed by the old one retires."""
    Season.objects.filter(pk=season_id).update(
        standings_stale=True, results_version=F("results_version") + 1
    )
    forget_results_version(season_id)


def schedule_recompute(season_id: int) -> None:
    """Queue the recompute; if the broker is unreachable, the next read computes instead."""
    try:
        queue_task(RECOMPUTE_TASK, season_id)
    except Exception:
        log.warning(
            "could not queue the standings recompute for season %s", season_id, exc_info=True
        )
