"""Roles and permissions as data, checked in one helper that views, API and admin all call."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

JUDGES = "Judges"
LEAGUE_ADMINS = "League admins"
CAPTAINS = "Captains"
PLAYERS = "Players"


class Action(models.TextChoices):
    START_GAME = "start_game", _("start a game")
    RECORD_DEAL = "record_deal", _("record a deal")
    CONFIRM_GAME = "confirm_game", _("confirm a game")
    CORRECT_DEAL = "correct_deal", _("correct a deal")
    VOID_GAME = "void_game", _("void a game")
    RAISE_DISPUTE = "raise_dispute", _("raise a dispute")
    RULE_DISPUTE = "rule_dispute", _("rule on a dispute")
    MANAGE_LEAGUE = "manage_league", _("manage leagues, seasons and teams")


def _in_group(user: Any, name: str) -> bool:
    cache = getattr(user, "_pegboard_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._pegboard_groups = cache
    return name in cache


def is_league_admin(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, LEAGUE_ADMINS)))


def is_judge(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, JUDGES)))


def player_of(user: Any) -> Any:
    """The Player linked to ``user``, or None."""
    if not user.is_authenticated:
        return None
    try:
        return user.player
    except Exception:  # RelatedObjectDoesNotExist
        return None


def _team_ids(user: Any) -> frozenset[int]:
    """Every team ``user`` plays for, fetched once per user object (like its groups), so
    checking a page of matches costs no query per row."""
    cache = getattr(user, "_pegboard_teams", None)
    if cache is None:
        player = player_of(user)
        cache = frozenset(player.teams.values_list("pk", flat=True)) if player else frozenset()
        user._pegboard_teams = cache
    return cache


def warm_permissions(user: Any) -> None:
    """Fetch now what ``can()`` needs of ``user`` (groups, teams), for a page of many checks."""
    if user is not None and user.is_authenticated and user.is_active:
        is_league_admin(user)
        _team_ids(user)


def teams_of(user: Any, match: Any) -> set[int]:
    """Ids of the teams of ``match`` that ``user`` plays for."""
    if not user.is_authenticated:
        return set()
    return {match.home_id, match.away_id} & _team_ids(user)


def can(user: Any, action: str, obj: Any = None) -> bool:
    """Whether ``user`` may do ``action`` on ``obj`` (a Match, Game or None). The one check."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if action == Action.MANAGE_LEAGUE:
        return is_league_admin(user)
    if action in (Action.CORRECT_DEAL, Action.VOID_GAME):
        return is_judge(user) or is_league_admin(user)
    if action == Action.RULE_DISPUTE:
        return is_judge(user)
    match = getattr(obj, "match", obj)
    if match is None:
        return False
    if action in (Action.START_GAME, Action.RECORD_DEAL, Action.RAISE_DISPUTE):
        return bool(teams_of(user, match)) or is_league_admin(user)
    if action == Action.CONFIRM_GAME:
        return bool(teams_of(user, match)) or is_league_admin(user)
    return False
