"""The verified qualifying tables, as rated results for the ratings."""

from __future__ import annotations

from contest.ratings import RatedResult
from tournaments.models import (
    EntrantPlayer,
    TableGame,
    TableState,
)


def verified_results() -> list[RatedResult]:
    """Every verified qualifying table as a rated result for the ratings (two queries): each
    entrant's players, the winner's first, at the time the table was verified."""
    tables = TableGame.objects.filter(
        status=TableState.VERIFIED, winner__isnull=False, verified_at__isnull=False
    )
    rows = list(tables.values_list("pk", "verified_at", "first_id", "second_id", "winner_id"))
    players: dict[int, list[int]] = {}
    for entrant_id, player_id in EntrantPlayer.objects.values_list("entrant_id", "player_id"):
        players.setdefault(entrant_id, []).append(player_id)
    out = []
    for pk, at, first, second, winner in rows:
        if at is None or winner not in (first, second):
            continue
        loser = second if winner == first else first
        out.append(
            RatedResult(
                "table",
                pk,
                at,
                winners=tuple(players.get(winner, ())),
                losers=tuple(players.get(loser, ())),
            )
        )
    return out
