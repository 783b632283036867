"""The league's answer to the audit trail's question "which game and season does this object
concern?" (``league.kernel.audit.add_audit_place``), so the kernel knows none of its models."""

from __future__ import annotations

from typing import Any

from league.models import Game, Season


def audit_place(obj: Any) -> tuple[Game | None, int | None] | None:
    """``(game, season id)`` of a league object, found from the object itself: a season, a
    game, a row of a game (a deal, a dispute), or a row of a season, week or match; None for
    an object that is none of them (another app's)."""
    if isinstance(obj, Season):
        return None, obj.pk
    if isinstance(obj, Game):
        return obj, obj.match.week.season_id
    game = getattr(obj, "game", None)
    if isinstance(game, Game):
        return game, game.match.week.season_id
    if getattr(getattr(obj, "_meta", None), "app_label", "league") != "league":
        return None  # another app's row: its ``season_id`` is not a league season's
    for path in ("season_id", "week.season_id", "match.week.season_id"):
        value: Any = obj
        for part in path.split("."):
            value = getattr(value, part, None)
        if isinstance(value, int):
            return None, value
    return None
