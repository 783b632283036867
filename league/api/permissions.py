"""Which matches are the requesting user's (``?mine=1``); what they may write is
``league.kernel.api.write_access``, asking ``can()`` like the services."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from league.models import Match, Team


def my_matches(matches: QuerySet[Match], user: Any) -> QuerySet[Match]:
    """The matches one of ``user``'s teams plays in (none for a visitor)."""
    if not user.is_authenticated:
        return matches.none()
    mine = Team.objects.filter(players__user=user).values("pk")
    return matches.filter(Q(home__in=mine) | Q(away__in=mine))
