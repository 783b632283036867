"""Who does what above the club: the federation's roles are groups, asked in one place here."""

from __future__ import annotations

from typing import Any

from league.kernel.permissions import Action, Trusted, can, in_group, is_league_admin

FEDERATION_ADMINS = "Federation admins"
STATISTICIANS = "Statisticians"


def _in(user: Any, group: str) -> bool:
    if isinstance(user, Trusted):
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_superuser or in_group(user, group))


def is_federation_admin(user: Any) -> bool:
    """Edits the points schedules, regions and the clubs' regions."""
    return _in(user, FEDERATION_ADMINS)


def is_statistician(user: Any) -> bool:
    """Reviews the results sent up: approves them or sends them back with a reason."""
    return _in(user, STATISTICIANS)


def may_send_up(user: Any, tournament: Any) -> bool:
    """Whether ``user`` directs ``tournament``: the director's workspace's own question (a
    league admin, or one who may run tournaments and directs the event's club)."""
    if isinstance(user, Trusted):
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if is_league_admin(user):
        return True
    if not can(user, Action.RUN_TOURNAMENT):
        return False
    club = tournament.club
    return club is None or club.directors.filter(pk=user.pk).exists()
