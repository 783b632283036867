"""The settings of a season's nights that are not its rules of play: what a forfeit is worth,
when unconfirmed results close, how long a postponed match has to be played, how many nights a
player plays to be drawn into the playoffs (``league.services.playoffs``), and whether the
week's story is sent to the players (``league.services.notify.notify_week_stories``). Changed
by the organiser at any time (``/organise/``, the admin, through :func:`season_ops_update`):
they score no deal, so they are never frozen. A change of the points a forfeit pays re-scores the
forfeited games that stand, so the standings always follow the setting as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import Game, GameStatus, Season
from league.services.games import game_rescore
from league.services.results import results_changed

# Every such setting, in the order the forms show them.
OPS_FIELDS = (
    "forfeit_games",
    "forfeit_points",
    "forfeit_wins_week",
    "close_after_hours",
    "makeup_days",
    "playoff_min_nights",
    "playoff_absent_nights_count",
    "send_week_story",
)
# The settings that are yes or no.
BOOL_FIELDS = ("forfeit_wins_week", "playoff_absent_nights_count", "send_week_story")
# Bounds a person can mean: a match of at most 99 games, at most 99 points a game, at most a
# year before a result closes.
_LIMITS = {
    "forfeit_games": 99,
    "forfeit_points": 99,
    "close_after_hours": 24 * 366,
    "makeup_days": 366,
    "playoff_min_nights": 99,
}


def _checked(name: str, value: Any) -> Any:
    if name in BOOL_FIELDS:
        if not isinstance(value, bool):
            raise ValidationFailed(_("Say yes or no."), field=name)
        return value
    if (value is None or value == "") and name == "makeup_days":
        raise ValidationFailed(_("Give a number of days."), field=name)
    if value is None or value == "":
        return None
    if type(value) is not int or not 0 <= value <= _LIMITS[name]:
        raise ValidationFailed(
            _("Give a whole number from 0 to %(most)s, or leave it empty.")
            % {"most": _LIMITS[name]},
            field=name,
        )
    if value == 0 and name in ("forfeit_games", "close_after_hours", "playoff_min_nights"):
        # no games awarded means "all of them"; closing after 0 hours, or playing 0 nights for
        # the playoffs, means no such rule
        return None
    return value


def season_ops_update(*, season: Season, user: Actor, changes: Mapping[str, Any]) -> Season:
    """Change the season's forfeit and closing settings (a league admin's decision, audited)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    unknown = set(changes) - set(OPS_FIELDS)
    if unknown:
        raise ValidationFailed(_("Unknown setting: %(name)s.") % {"name": sorted(unknown)[0]})
    values = {name: _checked(name, value) for name, value in changes.items()}
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        before = {k: getattr(season, k) for k in values}
        changed = [k for k, v in values.items() if before[k] != v]
        if not changed:
            return season
        for name in changed:
            setattr(season, name, values[name])
        saved = list(changed)
        if "send_week_story" in changed:
            # From now on: the weeks already over are not sent when it is turned on.
            season.week_story_since = timezone.now() if season.send_week_story else None
            saved.append("week_story_since")
        season.save(update_fields=saved)
        audit_log(
            actor=user,
            action=AuditAction.SEASON_UPDATE,
            obj=season,
            before={k: before[k] for k in changed},
            after={k: values[k] for k in changed},
        )
        if "forfeit_points" in changed:
            standing = Game.objects.filter(
                match__week__season=season,
                forfeit__isnull=False,
                forfeit__undone_at__isnull=True,
                status=GameStatus.CONFIRMED,
            )
            for game in standing:
                game_rescore(game=game)
        if "forfeit_wins_week" in changed:
            results_changed(season_id=season.pk)
    return season
