"""What the requesting user may write, worked out once per request so API lists don't query per row.

The rule is ``league.permissions.can``, which the services enforce on every write; this is the
read side's hint (``can_record``, ``?mine=1``), asking the same function.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request

from league.models import Match, Team
from league.permissions import Action, can, warm_permissions


class ReadOrSignedIn(IsAuthenticatedOrReadOnly):
    """Anyone reads; writing needs a signed-in user (the service then checks the role)."""


class WriteAccess:
    """The requesting user's standing: ``can()`` fetches the user's groups and teams once, so
    a list answers per row without a query."""

    def __init__(self, user: Any) -> None:
        self.user = user
        warm_permissions(user)  # a list then costs the same queries whichever rows it holds

    def can(self, action: Action, obj: Any) -> bool:
        """``can()`` for this request's user (its groups and teams fetched once)."""
        return can(self.user, action, obj)


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
