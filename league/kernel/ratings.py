"""Where the ratings' results come from, for both competitions, and the call that asks for an
update after a result comes to stand or stops standing.

The league rates its confirmed games itself (``league.services.ratings``); the tournaments
register their verified tables here in ``TournamentsConfig.ready()``, so the league reads them
without importing the tournaments. A source is a function with no argument giving every result
that stands now (``contest.ratings.RatedResult``), in a few queries whatever their number.

The other way, the league registers here (``LeagueConfig.ready()``) how to read a game's chance
from the ratings as they stood at a moment (``win_chances_before``), so a club night's story
names its upsets without importing the league's ratings (openskill stays in ``league.ratings``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from django.db import transaction

from contest.ratings import RatedResult
from league.kernel.queue import queue_task

log = logging.getLogger(__name__)

UPDATE_TASK = "league.tasks.update_ratings"

Source = Callable[[], list[RatedResult]]

_sources: list[Source] = []

# Two sides of a game, each its players' ids.
Sides = tuple[tuple[int, ...], tuple[int, ...]]
# ``chances(at, games)``: for each game, the first side's chance (0 to 1) of beating the second
# from the ratings of the results that came to stand before ``at``.
Chances = Callable[[datetime, Sequence[Sides]], list[float]]

_chances: list[Chances] = []


def add_rating_source(source: Source) -> None:
    """Rate the results ``source()`` gives too."""
    if source not in _sources:
        _sources.append(source)


def rating_sources() -> list[Source]:
    return list(_sources)


def set_win_chances(chances: Chances) -> None:
    """How a game's chance is read from the ratings before a moment (the league's, once)."""
    _chances[:] = [chances]


def win_chances_before(at: datetime, games: Sequence[Sides]) -> list[float]:
    """For each game of ``games``, its first side's chance of beating the second from the
    ratings as they stood before ``at`` (a player with no result rated before it is new: the
    default rating). Information only, like the ratings."""
    if not games:
        return []
    if not _chances:
        raise LookupError("no win chances registered: the league app is not ready")
    return _chances[0](at, games)


def ratings_changed() -> None:
    """After commit, queue the ratings' update once however many results the transaction
    changed (it adds the new results, or replays everything when one left or changed). A broker
    that cannot be reached costs freshness only: the next update, or ``manage.py
    recompute_ratings``, catches up."""
    connection = transaction.get_connection()
    # Each call queues its own callback (a rolled-back savepoint drops only its own); the first
    # to run after the commit flushes, the others find it done. Kept per database connection,
    # as ``league.services.results`` keeps its seasons.
    connection.pegboard_ratings_flushed = False  # type: ignore[attr-defined]
    transaction.on_commit(partial(_after_commit, connection), robust=True)


def _after_commit(connection: object) -> None:
    if getattr(connection, "pegboard_ratings_flushed", False):
        return
    connection.pegboard_ratings_flushed = True  # type: ignore[attr-defined]
    try:
        queue_task(UPDATE_TASK)
    except Exception:
        log.warning("could not queue the ratings' update", exc_info=True)
