"""``{% your_tournament_tables %}``: a seated player's open tournament tables, for the home
page ("Your table: round 2, table 5, against Bob" and the card to fill). A template tag, so
the league's home page shows it without the league importing the tournaments (layers)."""

from __future__ import annotations

from typing import Any

from django import template

from league.kernel.permissions import Action, can, player_of
from tournaments import selectors
from tournaments.models import TableState

register = template.Library()


@register.inclusion_tag("tournaments/_your_tables.html", takes_context=True)
def your_tournament_tables(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    player = player_of(user) if user is not None and user.is_authenticated else None
    if player is None:
        return {"tables": []}
    tables = []
    games = (
        selectors.open_tables_for_player(player)
        .select_related("round__tournament", "first", "second")
        .prefetch_related("first__players", "second__players", "scorecards")
    )
    for game in games:
        mine = game.side_of_player(player)
        opponent = game.second if mine is not None and mine.pk == game.first_id else game.first
        tables.append(
            {
                "game": game,
                "opponent": opponent,
                "can_enter": can(user, Action.ENTER_SCORECARD, game),
                "mismatch": game.state == TableState.MISMATCH,
            }
        )
    return {"tables": tables}
