"""Who does what in a team league, asked in one place: the league's organisers (and the site's
league admins) run it; a team's captain names its boards and enters its legs."""

from __future__ import annotations

from typing import Any

from league.kernel.permissions import Trusted, is_league_admin
from teamleagues.models import Fixture, Side, TeamLeague


def is_organiser(user: Any, league: TeamLeague) -> bool:
    if isinstance(user, Trusted):
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if is_league_admin(user):
        return True
    return league.organisers.filter(pk=user.pk).exists()


def player_id_of(user: Any) -> int | None:
    if isinstance(user, Trusted) or not getattr(user, "is_authenticated", False):
        return None
    player = getattr(user, "player", None)
    return getattr(player, "pk", None)


def captain_sides(user: Any, fixture: Fixture) -> list[str]:
    """The sides of ``fixture`` whose team ``user`` captains (none, one; both never happens)."""
    pid = player_id_of(user)
    if pid is None:
        return []
    sides = []
    if fixture.home.captain_id == pid:
        sides.append(Side.HOME.value)
    if fixture.away.captain_id == pid:
        sides.append(Side.AWAY.value)
    return sides
