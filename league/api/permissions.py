"""What the requesting user may write, worked out once per request so API lists don't query per row.

The rule itself is ``league.permissions.can`` and the services enforce it on every write; this is
only the read side's hint (``can_record``, ``?mine=1``), and a test keeps the two in step.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request

from league.models import Match, Team
from league.permissions import is_league_admin, player_of


class ReadOrSignedIn(IsAuthenticatedOrReadOnly):
    """Anyone reads; writing needs a signed-in user (the service then checks the role)."""


class WriteAccess:
    """The requesting user's standing, fetched in two queries, answering per match for free."""

    def __init__(self, user: Any) -> None:
        active = bool(user is not None and user.is_authenticated and user.is_active)
        self.is_admin = active and is_league_admin(user)
        player = player_of(user) if active else None
        self.team_ids: frozenset[int] = (
            frozenset(player.teams.values_list("pk", flat=True)) if player else frozenset()
        )

    def can_record(self, match: Match) -> bool:
        """Same answer as ``can(user, Action.RECORD_DEAL, match)`` (and START_GAME)."""
        return self.is_admin or match.home_id in self.team_ids or match.away_id in self.team_ids


def write_access(request: Request) -> WriteAccess:
    """The request's ``WriteAccess``, computed on first use."""
    access = getattr(request, "_pegboard_write_access", None)
    if access is None:
        access = WriteAccess(request.user)
        request._pegboard_write_access = access
    return access


def my_matches(matches: QuerySet[Match], user: Any) -> QuerySet[Match]:
    """The matches one of ``user``'s teams plays in (none for a visitor)."""
    if not user.is_authenticated:
        return matches.none()
    mine = Team.objects.filter(players__user=user).values("pk")
    return matches.filter(Q(home__in=mine) | Q(away__in=mine))
