"""A season's sub list, read: who may sit for an absent partner."""

from __future__ import annotations

from league.models import Player, Season


def subs_of(season: Season | int) -> list[Player]:
    """The season's sub list, by name (one query)."""
    season_id = season.pk if isinstance(season, Season) else season
    return list(Player.objects.filter(sub_for_seasons__season_id=season_id).order_by("name"))
