"""Results that close: the league confirms a finished game nobody confirmed or disputed within
its season's grace period (``Season.close_after_hours``; empty: never). Run by beat's
``close_unconfirmed_results`` task and by ``manage.py close_unconfirmed_results`` (for cron);
safe to run twice, and at any time: each game is asked again, locked (``game_close``)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from league.kernel.permissions import Trusted
from league.selectors.closing import games_due_to_close
from league.services.games import game_close


def results_close(*, now: datetime | None = None) -> list[int]:
    """Close every finished game whose grace period has run; returns the ids closed."""
    now = now or timezone.now()
    closer = Trusted(None, "closed by the league after its grace period")
    closed = []
    for game in games_due_to_close(now=now):
        if game_close(game=game, user=closer, now=now) is not None:
            closed.append(game.pk)
    return closed
