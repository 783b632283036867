"""Club seasons: a club's nights counted toward its season's table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor
from tournaments import logic
from tournaments.models import (
    Club,
    ClubPointsMode,
    ClubSeason,
    Tournament,
)
from tournaments.services._common import _changed, _lock, _require

#
# Semantics chosen where the issue is silent: a night counts toward its club season once its
# final is decided (stage "finished"); a partnership's points go to each of its two players;
# players are the same person across nights by their Player record.


def club_create(*, user: Actor, name: str, venue: str = "") -> Club:
    _require(user, Action.MANAGE_CLUBS)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("A club needs a name."), field="name")
    with transaction.atomic():
        if Club.objects.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a club called %(name)s.") % {"name": name}, field="name"
            )
        club = Club.objects.create(name=name, venue=venue.strip())
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
    _require(user, Action.MANAGE_CLUBS)
    name = name.strip()
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
        row.name = str(row.name).strip()
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
