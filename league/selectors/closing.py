"""Results that close: the finished games the league will confirm by itself once their
season's grace period has run (``Season.close_after_hours``), for the task that closes them and
for the reminder sent before (``games_closing_soon``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from league.models import Game, GameStatus


@dataclass(frozen=True)
class Closing:
    """A finished game waiting for a team, and when the league closes it."""

    game: Game
    closes_at: datetime


def _waiting() -> QuerySet[Game]:
    """Finished games (no dispute open) of seasons that close results, whose teams agree on
    every deal (a rival entry is a disagreement: people settle it, never the clock)."""
    return (
        Game.objects.filter(
            status=GameStatus.FINISHED,
            finished_at__isnull=False,
            match__week__season__close_after_hours__gt=0,
            home_rival=0,
            away_rival=0,
        )
        .select_related("match__week__season", "match__home", "match__away")
        .order_by("finished_at", "pk")
    )


def closes_at(game: Game) -> datetime | None:
    """When the league closes this game if nobody confirms or disputes it, or None (never)."""
    hours = game.match.week.season.close_after_hours
    if not hours or game.finished_at is None or game.status != GameStatus.FINISHED:
        return None
    if game.home_rival or game.away_rival:
        return None
    return game.finished_at + timedelta(hours=hours)


def games_closing_soon(*, within: timedelta, now: datetime | None = None) -> list[Closing]:
    """The finished games the league will close within ``within`` from ``now`` but has not
    yet: what a reminder to the team still to confirm is about, soonest first."""
    now = now or timezone.now()
    rows = []
    for game in _waiting().filter(finished_at__lte=now + within - _shortest()):
        at = closes_at(game)
        if at is not None and now < at <= now + within:
            rows.append(Closing(game=game, closes_at=at))
    return sorted(rows, key=lambda row: (row.closes_at, row.game.pk))


def games_due_to_close(*, now: datetime | None = None) -> list[Game]:
    """The finished games whose grace period has run by ``now``."""
    now = now or timezone.now()
    return [
        game
        for game in _waiting().filter(finished_at__lte=now - _shortest())
        if (at := closes_at(game)) is not None and at <= now
    ]


def _shortest() -> timedelta:
    """The shortest grace period there is (one hour): a first filter in the database, the
    season's own period checked on each game."""
    return timedelta(hours=1)


__all__ = ["Closing", "closes_at", "games_closing_soon", "games_due_to_close"]
