"""A worker killed in the middle of recomputing standings: readers still get the right table,
and running the task again gives the same standings as computing them afresh."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from league.models import Game, Season, StandingsSnapshot
from league.selectors.standings import compute_standings, standings_for_season
from league.services.games import game_void
from league.services.results import results_version_bump
from league.services.standings import standings_recompute
from league.tasks import recompute_standings


class WorkerKilled(BaseException):
    """Stands for SIGKILL: not an Exception, so no ``except Exception`` can swallow it."""


def without_clock(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "computed_at"}


def fresh(season: Season) -> dict[str, Any]:
    season.refresh_from_db()
    return without_clock(compute_standings(season))


def crash_while_ranking(monkeypatch):
    def killed(*args, **kwargs):
        raise WorkerKilled

    monkeypatch.setattr("league.selectors.standings.rank_teams", killed)


def crash_after_computing(monkeypatch):
    real = compute_standings

    def computed_then_killed(season):
        real(season)
        raise WorkerKilled

    monkeypatch.setattr("league.services.standings.compute_standings", computed_then_killed)


def crash_after_the_snapshot_row(monkeypatch):
    real = StandingsSnapshot.objects.update_or_create

    def stored_then_killed(*args, **kwargs):
        real(*args, **kwargs)
        raise WorkerKilled  # before the season is marked fresh, inside the same transaction

    monkeypatch.setattr(StandingsSnapshot.objects, "update_or_create", stored_then_killed)


def crash_before_caching(monkeypatch):
    def killed(*args, **kwargs):
        raise WorkerKilled

    monkeypatch.setattr(type(caches["default"]), "set", killed)


CRASHES = [
    pytest.param(crash_while_ranking, id="while-ranking"),
    pytest.param(crash_after_computing, id="after-computing-before-storing"),
    pytest.param(crash_after_the_snapshot_row, id="after-the-snapshot-before-marking-fresh"),
    pytest.param(crash_before_caching, id="after-storing-before-caching"),
]


@pytest.fixture
def changed_season(played_season, judge, django_capture_on_commit_callbacks):
    """Standings stored at one version, then a result changes (a judge voids a game)."""
    standings_recompute(season_id=played_season.pk)
    old = StandingsSnapshot.objects.get(season=played_season)
    game = Game.objects.filter(match__week__season=played_season).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=False):  # committed; no worker ran yet
        game_void(game=game, user=judge, reason="Wrong teams sat down.")
    results_version_bump(season_id=played_season.pk)  # what the commit's callback does first
    played_season.refresh_from_db()
    assert played_season.results_version > old.results_version
    assert played_season.standings_stale
    assert without_clock(old.data) != fresh(played_season)  # the void moved the table
    return played_season


@pytest.mark.parametrize("crash", CRASHES)
def test_a_recompute_killed_midway_then_run_again_gives_fresh_standings(
    changed_season, crash, monkeypatch
):
    season = changed_season
    expected = fresh(season)

    with monkeypatch.context() as patch:
        crash(patch)
        with pytest.raises(WorkerKilled):
            standings_recompute(season_id=season.pk)

    # Meanwhile, readers get the standings of the current results, never the old snapshot.
    season.refresh_from_db()
    assert without_clock(standings_for_season(season)) == expected
    table = APIClient().get(f"/api/seasons/{season.pk}/standings/").json()
    assert without_clock(table) == expected

    # The worker comes back and runs the task again (acks_late: the broker hands it out again).
    recompute_standings(season.pk)

    season.refresh_from_db()
    assert not season.standings_stale
    snapshot = StandingsSnapshot.objects.get(season=season)
    assert snapshot.results_version == season.results_version
    assert without_clock(snapshot.data) == expected
    assert without_clock(standings_for_season(season)) == expected


def test_running_the_recompute_twice_changes_nothing(changed_season):
    season = changed_season
    first = without_clock(standings_recompute(season_id=season.pk))
    second = without_clock(standings_recompute(season_id=season.pk))
    assert first == second == fresh(season)
    assert StandingsSnapshot.objects.filter(season=season).count() == 1
