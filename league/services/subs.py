"""A season's sub list: players on no team of the season, ready to sit for an absent partner.

The organiser adds subs like players (``players_add``: a new name becomes a player, an email
a login to invite), removes them, and a captain asks the list for a sub for a match. Who sits
as a sub is decided when a game starts (``league.services.games.game_start``, which reads the
list); the game's seat says so (``GameSeat.is_sub``), and the result stays the team's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from league.checks import team_of
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import Match, Player, Season, SeasonSub, Team
from league.selectors.subs import subs_of
from league.services.notify import notify_sub_asked
from league.services.people import PlayerLine, players_add


@dataclass
class SubsAdded:
    """What ``subs_add`` did: the subs now on the list, and the players it created or gave a
    login (to invite)."""

    added: list[Player] = field(default_factory=list)
    already: list[Player] = field(default_factory=list)
    to_invite: list[Player] = field(default_factory=list)


def subs_add(*, user: Actor, season: Season, lines: Sequence[PlayerLine]) -> SubsAdded:
    """Put the players of ``lines`` on ``season``'s sub list (creating those not known yet,
    as ``players_add`` does), all or none. Refused, naming them, when a player is on a team of
    the season: a player of a team sits for their own team, never as a sub."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    result = SubsAdded()
    with transaction.atomic():
        added = players_add(user=user, lines=lines)
        players = [*added.created, *added.logins, *added.known]
        on_teams = sorted(
            Player.objects.filter(teams__season=season, pk__in=[p.pk for p in players])
            .values_list("name", flat=True)
            .distinct()
        )
        if on_teams:
            raise ValidationFailed(
                _(
                    "Nothing was added: %(names)s already play for a team this season, so "
                    "they cannot be subs."
                )
                % {"names": ", ".join(on_teams)},
                field="names",
            )
        listed = set(
            SeasonSub.objects.filter(season=season, player__in=players).values_list(
                "player_id", flat=True
            )
        )
        for player in players:
            if player.pk in listed:
                result.already.append(player)
                continue
            SeasonSub.objects.create(season=season, player=player)
            listed.add(player.pk)
            result.added.append(player)
            audit_log(
                actor=user,
                action=AuditAction.SUB_ADD,
                obj=season,
                after={"player": player.name},
            )
        result.to_invite = added.to_invite
    return result


def sub_remove(*, user: Actor, season: Season, player: Player) -> None:
    """Take ``player`` off ``season``'s sub list (the games they sat in keep them)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        deleted, _rows = SeasonSub.objects.filter(season=season, player=player).delete()
        if not deleted:
            raise ValidationFailed(
                _("%(name)s is not on this season's sub list.") % {"name": player.name},
                field="player",
            )
        audit_log(
            actor=user, action=AuditAction.SUB_REMOVE, obj=season, before={"player": player.name}
        )


def sub_ask(*, user: Actor, match: Match) -> int:
    """A player of ``match`` asks the season's sub list for a sub (each sub is told once per
    match and team). Returns how many subs were asked; refused when the list is empty."""
    refuse_unless(user, Action.KEEP_SCORE, match)
    team_id = team_of(user, match)
    if team_id is None:
        raise ValidationFailed(_("Only a player of one of the two teams can ask for a sub."))
    season = match.week.season
    subs = subs_of(season)
    if not subs:
        raise ValidationFailed(
            _("This season has no sub list yet: ask the organiser to add some subs.")
        )
    team = Team.objects.select_related("captain").get(pk=team_id)
    with transaction.atomic():
        audit_log(
            actor=user,
            action=AuditAction.SUB_ASK,
            obj=match,
            after={"team": team.name, "subs": [p.name for p in subs]},
        )
        notify_sub_asked(match, team, subs)
    return len(subs)
