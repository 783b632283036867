"""Who directs a club, and so its nights: the director's workspace and the federation (whose
"send the results up" belongs to the event's directors) ask this one rule."""

from __future__ import annotations

from typing import Any

from league.kernel.permissions import Action, Trusted, can, is_league_admin
from tournaments.models import Club, Tournament


def directs(user: Any, club: Club) -> bool:
    """Whether ``user`` directs ``club``: a league admin, or one of its directors who may run
    tournaments. The workspace shows a club only to them."""
    if isinstance(user, Trusted):
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if is_league_admin(user):
        return True
    return can(user, Action.RUN_TOURNAMENT) and club.directors.filter(pk=user.pk).exists()


def directs_event(user: Any, tournament: Tournament) -> bool:
    """Whether ``user`` directs ``tournament``: its club's directors, or, for an event of no
    club, whoever may run tournaments."""
    if tournament.club_id is None:
        return can(user, Action.RUN_TOURNAMENT)
    return directs(user, tournament.club)  # type: ignore[arg-type]
