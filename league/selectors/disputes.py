"""Reading disputes: who may read which (the question ``can(VIEW_DISPUTES)`` answers, as a
query for lists)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from league.kernel.permissions import Action, Actor, can, is_official
from league.models import Dispute, Game, Team


def disputes_visible_to(user: Actor, *, game: Game | None = None) -> QuerySet[Dispute]:
    """The disputes ``user`` may read, newest first: of one game, when ``can()`` lets the user
    read that game's disputes; of every game, as a filter that says the same as ``can()``
    (judges and league admins read all, players those of their teams' games)."""
    queryset = Dispute.objects.order_by("-created_at")
    if game is not None:
        if not can(user, Action.VIEW_DISPUTES, game):
            return queryset.none()
        return queryset.filter(game=game)
    if not can(user, Action.VIEW_DISPUTES):
        return queryset.none()
    if is_official(user):
        return queryset
    mine = Team.objects.filter(players__user=user).values("pk")  # type: ignore[misc]  # signed in here
    return queryset.filter(Q(game__match__home__in=mine) | Q(game__match__away__in=mine))
