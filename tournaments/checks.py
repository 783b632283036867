"""Who may enter or settle a tournament table's scorecards, and why not: the tournaments'
object check, registered with ``permissions.register_check`` by ``TournamentsConfig.ready()``.

A player enters their side's card of a table they sit at, once, until the result stands
(``lifecycle``, on the table's scorecard facts); judges and league admins are the checkers who
settle a table they do not play at and key in its paper cards. The role is asked first (403),
then the table's state (``lifecycle``: 409).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.kernel import lifecycle
from league.kernel.errors import Refusal
from league.kernel.permissions import (
    Action,
    Actor,
    can,
    is_league_admin,
    is_official,
    not_allowed,
    player_of,
    register_check,
    register_scope,
)
from tournaments.models import Club, ClubSeason, TableGame, Tournament

NOT_AT_TABLE = Refusal("not_at_table", _("You do not play at this table."))
PLAYS_HERE = Refusal(
    "plays_at_table", _("You play at this table: another checker takes its cards.")
)
# ``(user id, side)`` set on a table read with the side of it that user plays for (the card
# path's one statement, ``services.scorecards``): asked of that user, no player is read.
ASKER_SIDE = "_pegboard_asker_side"


def table_side_of(user: Actor, table: TableGame) -> int | None:
    """Which side of ``table`` ``user`` plays for (0: its first entrant, 1: its second), or
    None."""
    known = getattr(table, ASKER_SIDE, None)
    if known is not None and known[0] == getattr(user, "pk", None):
        side: int | None = known[1]
        return side
    player = player_of(user)
    if player is None:
        return None
    entrant = table.side_of_player(player)
    if entrant is None:
        return None
    return 0 if entrant.pk == table.first_id else 1


def table_refusal(user: Actor, action: str, table: TableGame) -> Refusal | None:
    """Why ``user`` may not enter (``ENTER_SCORECARD``) or settle (``CHECK_SCORECARDS``)
    ``table``'s scorecards now."""
    event = lifecycle.Event
    if action == Action.ENTER_SCORECARD:
        facts = table.facts
        side = table_side_of(user, table)
        if side is not None:
            return lifecycle.refusal_for_side(event.ENTER_SCORECARD, facts, side)
        # A checker who does not play here keys in a paper card while any side may.
        if is_official(user) and any(
            lifecycle.allows_side(event.ENTER_SCORECARD, facts, s) for s in (0, 1)
        ):
            return None
        return NOT_AT_TABLE
    if action == Action.CHECK_SCORECARDS:
        if not is_official(user):
            return not_allowed(action)
        if table_side_of(user, table) is not None:
            return PLAYS_HERE
        return lifecycle.state_refusal(event.SETTLE_SCORECARDS, lifecycle.status_of(table.facts))
    return not_allowed(action)


def table_access(user: Actor, table: TableGame) -> dict[str, bool]:
    """Whether ``user`` may enter (``ENTER_SCORECARD``) and settle (``CHECK_SCORECARDS``)
    ``table``'s scorecards now, as ``can()`` answers; a player of the table may never settle it
    whatever their role, so their groups are not asked (a card's answer costs no query)."""
    side = table_side_of(user, table)
    return {
        Action.ENTER_SCORECARD: can(user, Action.ENTER_SCORECARD, table),
        Action.CHECK_SCORECARDS: side is None and can(user, Action.CHECK_SCORECARDS, table),
    }


OTHER_CLUB = "other_club"


def _club_ids(obj: Tournament | Club | ClubSeason) -> set[int]:
    """The clubs ``obj`` belongs to: a club, a club season's club, a night's club and its
    season's club (a night of no club belongs to none)."""
    if isinstance(obj, Club):
        return {obj.pk}
    if isinstance(obj, ClubSeason):
        return {obj.club_id}
    ids = {obj.club_id}
    if obj.club_season_id is not None:
        ids.add(
            ClubSeason.objects.filter(pk=obj.club_season_id).values_list("club_id", flat=True)[0]
        )
    return {i for i in ids if i is not None}


def _pk(user: Actor) -> int:
    pk: int = getattr(user, "pk", None) or 0  # 0: no account, which directs no club
    return pk


def clubs_directed_by(user: Actor) -> list[int] | None:
    """The ids of the clubs ``user`` directs (None: every club, a league admin's)."""
    if is_league_admin(user):
        return None
    return list(
        Club.directors.through.objects.filter(user_id=_pk(user)).values_list("club_id", flat=True)
    )


def nights_kept_by(user: Actor) -> Q | None:
    """The nights whose money ``user`` may see in a list (``club_scope_refusal`` for many):
    None for every night (a league admin), else the nights of no club and of the clubs they
    direct."""
    clubs = clubs_directed_by(user)
    if clubs is None:
        return None
    mine_or_none = Q(club__isnull=True) | Q(club_id__in=clubs)
    season_ok = Q(club_season__isnull=True) | Q(club_season__club_id__in=clubs)
    return mine_or_none & season_ok


def club_scope_refusal(
    user: Actor, action: str, obj: Tournament | Club | ClubSeason
) -> Refusal | None:
    """Why a director (the role already granted) may not run, keep the money of or manage
    ``obj``: it belongs to a club they do not direct. League admins direct every club; a night
    of no club is any director's."""
    if is_league_admin(user):
        return None
    clubs = _club_ids(obj)
    if not clubs:
        return None
    directed = set(
        Club.directors.through.objects.filter(club_id__in=clubs, user_id=_pk(user)).values_list(
            "club_id", flat=True
        )
    )
    missing = clubs - directed
    if not missing:
        return None
    name = Club.objects.filter(pk=min(missing)).values_list("name", flat=True).first() or ""
    return Refusal(
        OTHER_CLUB,
        _("Only the directors of %(club)s and league admins run its nights."),
        params={"club": name},
    )


def register() -> None:
    """Called by ``TournamentsConfig.ready()``."""
    register_check(TableGame, table_refusal)
    for model in (Tournament, Club, ClubSeason):
        register_scope(model, club_scope_refusal)
