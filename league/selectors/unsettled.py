"""What keeps a season's results from being final: disputes still with the judge and games not
yet confirmed. Finishing a season asks it (``seasons.season_finish`` refuses, or the organiser
confirms in their name), and the roll of honour says "provisional" while any remain."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from django.db.models import Count, Q

from league.models import Dispute, DisputeStatus, Game, GameStatus, Season

OPEN_DISPUTES = (DisputeStatus.OPEN, DisputeStatus.IN_REVIEW)
NOT_SETTLED = (GameStatus.IN_PROGRESS, GameStatus.FINISHED, GameStatus.DISPUTED)


class Unsettled(NamedTuple):
    """Open disputes (raised or in review) and games under way, waiting for a confirmation or
    disputed."""

    disputes: int
    games: int

    def __bool__(self) -> bool:
        return bool(self.disputes or self.games)


def season_unsettled(season: Season) -> Unsettled:
    """The season's open disputes and unsettled games. Two queries."""
    return unsettled_by_season([season.pk]).get(season.pk, Unsettled(0, 0))


def unsettled_by_season(season_ids: Iterable[int]) -> dict[int, Unsettled]:
    """Each of these seasons that has something unsettled, with what. Two queries."""
    ids = list(season_ids)
    disputes = dict(
        Dispute.objects.filter(game__match__week__season__in=ids, status__in=OPEN_DISPUTES)
        .values_list("game__match__week__season")
        .annotate(n=Count("pk"))
        .order_by()
    )
    games = dict(
        Game.objects.filter(match__week__season__in=ids)
        .filter(Q(status__in=NOT_SETTLED))
        .values_list("match__week__season")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {
        pk: Unsettled(disputes.get(pk, 0), games.get(pk, 0)) for pk in set(disputes) | set(games)
    }
