"""Club seasons: a club's nights counted toward its season's table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import Action, Actor
from league.shared import Player
from tournaments import logic
from tournaments.models import (
    Club,
    ClubMember,
    ClubPointsMode,
    ClubSeason,
    MemberStatus,
    Tournament,
)
from tournaments.services._common import _changed, _lock, _require

#
# Semantics chosen where the issue is silent: a night counts toward its club season once its
# final is decided (stage "finished"); a partnership's points go to each of its two players;
# players are the same person across nights by their Player record.


def club_create(*, user: Actor, name: str, venue: str = "", guest_nights: Any = 3) -> Club:
    """A club; ``guest_nights``: the nights a guest may play before joining (ACC clubs allow
    a few), past which the reports flag them."""
    _require(user, Action.MANAGE_CLUBS)
    if not isinstance(guest_nights, int) or isinstance(guest_nights, bool) or guest_nights < 0:
        raise ValidationFailed(
            _("The nights a guest may play is a whole number, 0 or more."), field="guest_nights"
        )
    name = name_from(name, field="name", label=_("The club's name"))
    venue = name_from(venue, field="venue", label=_("Where the club plays"), limit=160)
    if not name:
        raise ValidationFailed(_("A club needs a name."), field="name")
    with transaction.atomic():
        if Club.objects.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a club called %(name)s.") % {"name": name}, field="name"
            )
        club = Club.objects.create(name=name, venue=venue, guest_nights=guest_nights)
        audit_log(actor=user, action=AuditAction.CLUB_CREATE, obj=club, after={"name": name})
    return club


def _check_points(mode: str, threshold: Any, table: Any) -> tuple[int, list[int]]:
    if mode not in ClubPointsMode.values:
        raise ValidationFailed(_("Unknown way of scoring a night: %(mode)s.") % {"mode": mode})
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
        raise ValidationFailed(
            _("The threshold is a whole number of game points, 0 or more."), field="threshold"
        )
    if not isinstance(table, list | tuple) or not all(
        isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in table
    ):
        raise ValidationFailed(
            _("The points table is a list of whole numbers, one per place: 10, 8, 6, ..."),
            field="points_table",
        )
    if mode == ClubPointsMode.TABLE and not table:
        raise ValidationFailed(
            _("Scoring by place needs a points table: the points for 1st, 2nd, ..."),
            field="points_table",
        )
    return threshold, [int(p) for p in table]


def club_season_create(
    *,
    user: Actor,
    club: Club,
    name: str,
    starts: dt.date | None = None,
    points_mode: str = ClubPointsMode.GAME_POINTS,
    threshold: int = logic.ClubPoints().threshold,
    points_table: Sequence[int] = logic.ClubPoints().table,
) -> ClubSeason:
    _require(user, Action.MANAGE_CLUBS, club)
    name = name_from(name, field="name", label=_("The club season's name"))
    if not name:
        raise ValidationFailed(_("A club season needs a name."), field="name")
    threshold, table = _check_points(points_mode, threshold, list(points_table))
    with transaction.atomic():
        if ClubSeason.objects.filter(club=club, name=name).exists():
            raise ValidationFailed(
                _("%(club)s already has a season called %(name)s.")
                % {"club": club.name, "name": name},
                field="name",
            )
        season = ClubSeason.objects.create(
            club=club,
            name=name,
            starts=starts,
            points_mode=points_mode,
            threshold=threshold,
            points_table=table,
        )
        audit_log(
            actor=user,
            action=AuditAction.CLUB_SEASON_CREATE,
            obj=season,
            after={"name": name, "mode": points_mode, "threshold": threshold, "table": table},
        )
    return season


def club_season_update(*, user: Actor, season: ClubSeason, changes: dict[str, Any]) -> ClubSeason:
    """Change a season's name, first night or scoring; the table is recomputed from the
    nights, so a change of scoring applies to every night, played or not."""
    _require(user, Action.MANAGE_CLUBS, season)
    fields = ("name", "starts", "points_mode", "threshold", "points_table")
    with transaction.atomic():
        row = ClubSeason.objects.select_for_update().get(pk=season.pk)
        before = {k: getattr(row, k) for k in fields}
        for key in fields:
            if key in changes:
                setattr(row, key, changes[key])
        row.name = name_from(str(row.name), field="name", label=_("The club season's name"))
        if not row.name:
            raise ValidationFailed(_("A club season needs a name."), field="name")
        if (
            ClubSeason.objects.filter(club_id=row.club_id, name=row.name)
            .exclude(pk=row.pk)
            .exists()
        ):
            raise ValidationFailed(
                _("%(club)s already has a season called %(name)s.")
                % {"club": row.club.name, "name": row.name},
                field="name",
            )
        row.threshold, row.points_table = _check_points(
            row.points_mode, row.threshold, row.points_table
        )
        after = {k: getattr(row, k) for k in fields}
        if after == before:
            return row
        row.save()
        audit_log(
            actor=user,
            action=AuditAction.CLUB_SEASON_UPDATE,
            obj=row,
            before={k: str(v) for k, v in before.items() if before[k] != after[k]},
            after={k: str(v) for k, v in after.items() if before[k] != after[k]},
        )
    return row


def night_assign_season(
    *, user: Actor, tournament: Tournament, season: ClubSeason | None
) -> Tournament:
    """Count ``tournament`` toward a club season (None: toward none). Allowed at any stage:
    a director may attach a night already played."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    if season is not None:
        _require(user, Action.MANAGE_CLUBS, season)
    with transaction.atomic():
        row = _lock(tournament)
        if row.club_season_id == (season.pk if season else None):
            return row
        before = str(row.club_season) if row.club_season_id else ""
        row.club_season = season
        row.save(update_fields=["club_season"])
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_ASSIGN_SEASON,
            obj=row,
            before=before,
            after=str(season) if season else "",
        )
    _changed(row.pk)
    return row


def club_member_set(
    *, user: Actor, club: Club, player: Player, acc_number: Any = "", status: str = "member"
) -> ClubMember:
    """A player's ACC number and standing at ``club`` (member, guest or visitor), made or
    changed. An ACC number is digits only (as the ACC prints it on the card)."""
    _require(user, Action.MANAGE_CLUBS, club)
    return member_store(user=user, club=club, player=player, acc_number=acc_number, status=status)


def member_store(
    *, user: Actor, club: Club, player: Player, acc_number: Any = "", status: str = "member"
) -> ClubMember:
    """``club_member_set`` once the caller has asked who may (the admin: ``MANAGE_CLUBS``; the
    director's workspace: a director of ``club``): the checks, the write and its audit."""
    number = str(acc_number or "").strip()
    if number and (not (number.isascii() and number.isdigit()) or len(number) > 12):
        raise ValidationFailed(
            _("An ACC number is digits only, up to 12 (as on the member's card)."),
            field="acc_number",
        )
    if status not in MemberStatus.values:
        raise ValidationFailed(
            _("A player is a member, a guest or a visitor here."), field="status"
        )
    with transaction.atomic():
        _lock_club(club)
        row = ClubMember.objects.filter(club=club, player=player).first()
        before = None if row is None else {"acc_number": row.acc_number, "status": row.status}
        if number and (
            ClubMember.objects.filter(club=club, acc_number=number).exclude(player=player).exists()
        ):
            raise ValidationFailed(
                _("ACC number %(n)s is already another member's at this club.") % {"n": number},
                field="acc_number",
            )
        if row is None:
            row = ClubMember.objects.create(
                club=club, player=player, acc_number=number, status=status
            )
        else:
            row.acc_number, row.status = number, status
            row.save(update_fields=["acc_number", "status"])
        audit_log(
            actor=user,
            action=AuditAction.CLUB_MEMBER_SET,
            obj=row,
            before=before,
            after={"player": player.name, "acc_number": number, "status": status},
        )
    return row


def _lock_club(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


CLUB_EDITABLE = ("name", "venue", "guest_nights", "send_night_story")


def club_update(*, user: Actor, club: Club, changes: dict[str, Any]) -> Club:
    """Change a club's name, where it plays, the nights a guest may play or whether it sends
    each night's story to its members."""
    _require(user, Action.MANAGE_CLUBS, club)
    with transaction.atomic():
        row = _lock_club(club)
        before = {k: getattr(row, k) for k in CLUB_EDITABLE}
        name = name_from(
            str(changes.get("name", row.name)), field="name", label=_("The club's name")
        )
        if not name:
            raise ValidationFailed(_("A club needs a name."), field="name")
        if Club.objects.filter(name=name).exclude(pk=row.pk).exists():
            raise ValidationFailed(
                _("There is already a club called %(name)s.") % {"name": name}, field="name"
            )
        nights = changes.get("guest_nights", row.guest_nights)
        if not isinstance(nights, int) or isinstance(nights, bool) or nights < 0:
            raise ValidationFailed(
                _("The nights a guest may play is a whole number, 0 or more."),
                field="guest_nights",
            )
        story = changes.get("send_night_story", row.send_night_story)
        if not isinstance(story, bool):
            raise ValidationFailed(
                _("Sending the night's story is yes or no."), field="send_night_story"
            )
        row.name = name
        row.venue = name_from(
            str(changes.get("venue", row.venue)),
            field="venue",
            label=_("Where the club plays"),
            limit=160,
        )
        row.guest_nights, row.send_night_story = nights, story
        after = {k: getattr(row, k) for k in CLUB_EDITABLE}
        if after == before:
            return row
        row.save(update_fields=list(CLUB_EDITABLE))
        audit_log(actor=user, action=AuditAction.CLUB_UPDATE, obj=row, before=before, after=after)
    return row
