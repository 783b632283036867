"""The migration that gives seasons a life maps each season from its old "current" checkbox
and its dates: the current season runs, another is finished once played or past, else it is
next season; going back, the running season is the current one again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# Migrations run backwards and forwards: with the slow checks (make test-slow, CI).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BEFORE = [("league", "0013_season_playoff_slots")]
AFTER = [("league", "0014_season_life")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_old_seasons_get_their_state_from_the_checkbox_and_the_dates():
    apps = _migrate(BEFORE)
    League = apps.get_model("league", "League")
    Season = apps.get_model("league", "Season")
    Week = apps.get_model("league", "Week")
    league = League.objects.create(name="Thursday Doubles")
    today = dt.date.today()

    def season(name, current, dates):
        row = Season.objects.create(league=league, name=name, is_current=current)
        for n, date in enumerate(dates, start=1):
            Week.objects.create(season=row, number=n, date=date)
        return row.pk

    ids = {
        "current": season("Fall 2026", True, [today - dt.timedelta(days=30), today]),
        "past": season("Spring 2026", False, [today - dt.timedelta(days=200)]),
        "next": season("Spring 2027", False, [today + dt.timedelta(days=60)]),
    }
    try:
        apps = _migrate(AFTER)
        Season = apps.get_model("league", "Season")
        states = {k: Season.objects.get(pk=pk).state for k, pk in ids.items()}
        assert states == {"current": "published", "past": "finished", "next": "published"}
        apps = _migrate(BEFORE)
        Season = apps.get_model("league", "Season")
        current = {k: Season.objects.get(pk=pk).is_current for k, pk in ids.items()}
        assert current == {"current": True, "past": False, "next": False}
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
