"""What every part of the tournaments' services shares: the change counter, the lock."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from league.kernel.cache import bump_counter, tournament_version_key
from league.kernel.permissions import Actor, refuse_unless
from tournaments.models import (
    Tournament,
)

MAX_DEALS = 60  # a game to 121 ends long before: a guard on what is read, not a rule of play


def _changed(tournament_id: int) -> None:
    """After commit: bump the counter the live pages (TV, bracket) poll."""
    key = tournament_version_key(tournament_id)
    transaction.on_commit(lambda: bump_counter(key))


def _require(user: Actor, action: str, obj: Any = None) -> None:
    refuse_unless(user, action, obj)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)
