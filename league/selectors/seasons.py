"""Which seasons each reader sees, and in which part of their life they are.

A draft is seen by league admins only (``can(MANAGE_LEAGUE)``), on every page and in the API; a
published season is "next season" until its first night, then running; a finished one is
history. Nothing here is stored: it follows from the season's state and its dates
(``Season.state_on``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet

from league.kernel.permissions import Action, Actor, can
from league.models import Season, SeasonState
from league.models.leagues import SeasonQuerySet


def seasons_visible_to(user: Actor | None) -> SeasonQuerySet:
    """The seasons ``user`` may see: every one for a league admin, else no draft."""
    seasons = Season.objects.shown() if can(user, Action.MANAGE_LEAGUE) else Season.objects.public()
    return seasons.select_related("league")


def drafts_hidden(user: Actor | None, queryset: QuerySet[Any], season_path: str) -> QuerySet[Any]:
    """``queryset`` (teams, weeks, matches, games... reached through ``season_path``) without
    the rows of draft seasons, unless ``user`` is a league admin."""
    if can(user, Action.MANAGE_LEAGUE):
        return queryset
    return queryset.exclude(**{f"{season_path}__state": SeasonState.DRAFT})


def season_hidden_from(user: Actor, season: Season) -> bool:
    """True when ``season`` is a draft and ``user`` may not see drafts (the page answers 404)."""
    return season.state == SeasonState.DRAFT and not can(user, Action.MANAGE_LEAGUE)


def home_seasons(*, today: dt.date) -> dict[str, list[Season]]:
    """The home page's seasons, by league name: ``running`` (the seasons being played, with
    their scoreboard) and ``upcoming`` (published, first night still to come). Two queries."""
    running = list(Season.objects.running(today).select_related("league").order_by("league__name"))
    upcoming = list(
        Season.objects.upcoming(today)
        .select_related("league")
        .order_by("league__name", "first_night_date")
    )
    return {"running": running, "upcoming": upcoming}


def open_seasons() -> list[Season]:
    """Every published season (running or next): a captain's open matches come from these."""
    return list(Season.objects.open().select_related("league"))


def state_filter(state: str, *, today: dt.date) -> Q:
    """A filter on seasons (annotated ``with_first_night``) for one state of their life, as
    the API's ``?state=`` asks it."""
    if state == SeasonState.RUNNING:
        return Q(state=SeasonState.PUBLISHED) & (
            Q(first_night_date__lte=today) | Q(first_night_date__isnull=True)
        )
    if state == SeasonState.PUBLISHED:
        return Q(state=SeasonState.PUBLISHED, first_night_date__gt=today)
    return Q(state=state)
