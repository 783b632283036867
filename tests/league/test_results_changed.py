"""A result changes: the season is marked stale without queuing every score entry on its row,
and after commit gets one new results version and one recompute, however many results one
transaction wrote; the recompute renders the pages, then advances the playoffs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from league.models import Game, Season, StandingsSnapshot
from league.services.results import results_changed
from tests import factories

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def queued(monkeypatch):
    """The recomputes queued, by season id (none actually run)."""
    calls: list[int] = []
    monkeypatch.setattr("league.services.results.schedule_recompute", calls.append)
    return calls


def version(season_id: int) -> int:
    return Season.objects.get(pk=season_id).results_version


@pytest.mark.django_db(transaction=True)
def test_one_recompute_per_season_per_transaction_after_commit(queued):
    one, two = factories.SeasonFactory(), factories.SeasonFactory()
    before = version(one.pk), version(two.pk)
    with transaction.atomic():
        for _ in range(3):  # an import writing many games
            results_changed(season_id=one.pk)
        results_changed(season_id=two.pk)
        results_changed(season_id=one.pk)
        assert queued == []  # nothing before commit
        assert version(one.pk) == before[0]
    assert sorted(queued) == sorted([one.pk, two.pk])
    assert (version(one.pk), version(two.pk)) == (before[0] + 1, before[1] + 1)

    with transaction.atomic():  # the next transaction queues again
        results_changed(season_id=one.pk)
    assert queued.count(one.pk) == 2 and version(one.pk) == before[0] + 2


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_queues_nothing_and_does_not_hide_the_next(queued):
    season = factories.SeasonFactory()
    before = version(season.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        results_changed(season_id=season.pk)
        raise RuntimeError("the deal was refused")
    assert queued == [] and version(season.pk) == before
    with transaction.atomic():
        results_changed(season_id=season.pk)
    assert queued == [season.pk] and version(season.pk) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_savepoint_drops_only_its_own_change(queued):
    season = factories.SeasonFactory()
    with transaction.atomic(), pytest.raises(RuntimeError), transaction.atomic():
        results_changed(season_id=season.pk)
        raise RuntimeError
    assert queued == []  # the only change was rolled back
    with transaction.atomic():
        results_changed(season_id=season.pk)
        with pytest.raises(RuntimeError), transaction.atomic():
            results_changed(season_id=season.pk)
            raise RuntimeError
    assert queued == [season.pk]
    with transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            results_changed(season_id=season.pk)
            raise RuntimeError
        results_changed(season_id=season.pk)  # after the rolled-back savepoint
    assert queued == [season.pk, season.pk]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_each_change_is_its_own(queued):
    season = factories.SeasonFactory()
    results_changed(season_id=season.pk)
    results_changed(season_id=season.pk)
    assert queued == [season.pk, season.pk]


@pytest.mark.django_db
def test_score_entry_writes_the_season_row_only_when_it_was_fresh(queued):
    season = factories.SeasonFactory()
    Season.objects.filter(pk=season.pk).update(standings_stale=True)
    with CaptureQueriesContext(connection) as seen:
        results_changed(season_id=season.pk)
    # An UPDATE whose WHERE asks for a fresh season: on a stale one it changes (and locks) nothing.
    (update,) = [q["sql"] for q in seen.captured_queries if q["sql"].startswith("UPDATE")]
    assert "standings_stale" in update.split("WHERE")[1]
    Season.objects.filter(pk=season.pk).update(standings_stale=False)
    results_changed(season_id=season.pk)
    assert Season.objects.get(pk=season.pk).standings_stale


@pytest.mark.django_db
def test_the_recompute_runs_recompute_then_pages_then_playoffs(played_season, monkeypatch):
    from league import tasks

    order: list[str] = []
    for name in ("standings_recompute", "store_standings_pages", "playoffs_advance"):
        real = getattr(tasks, name)
        monkeypatch.setattr(
            tasks, name, lambda *a, _n=name, _r=real, **kw: order.append(_n) or _r(*a, **kw)
        )
    Season.objects.filter(pk=played_season.pk).update(playoff_seeding=["Fifteen Two", "Nobs"])
    tasks.recompute_standings(played_season.pk)
    assert order == ["standings_recompute", "store_standings_pages", "playoffs_advance"]


def points_of(team: str, page: bytes) -> int:
    """The first number of ``team``'s standings row (its league points): the row's header cell
    may hold a note of what placed the team, shown on phones."""
    found = re.search(
        rf">{team}</a>(?:<small[^>]*>[^<]*</small>)?</th><td class=\"num\">(\d+)<", page.decode()
    )
    assert found, f"no standings row for {team}"
    return int(found[1])


@pytest.mark.django_db
def test_beats_safety_net_retires_pages_of_a_change_whose_bump_never_ran(
    client, played_season, settings
):
    """A process killed between a commit and the version bump left the season stale with the
    old version: the safety net gives it a new version, so no cached page of the old one stays
    (the page shared for two seconds on a busy night is not one of them: it is off here)."""
    from league.tasks import recompute_stale_standings, recompute_standings

    settings.STANDINGS_RECENT_SECONDS = 0

    recompute_standings(played_season.pk)
    url = f"/seasons/{played_season.pk}/standings/"
    assert points_of("Fifteen Two", client.get(url).content) == 6
    Game.objects.filter(match__week__number=1, number=1).update(status="void")
    Season.objects.filter(pk=played_season.pk).update(standings_stale=True)
    assert recompute_stale_standings() == 1
    assert points_of("Fifteen Two", client.get(url).content) == 5
    snapshot = StandingsSnapshot.objects.get(season=played_season)
    assert snapshot.results_version == version(played_season.pk)


@pytest.mark.django_db
def test_a_burst_of_recomputes_computes_once_and_the_rest_find_it_done(played_season, monkeypatch):
    """The last deals at a venue's tables queue a recompute each: the first to run computes
    the current version and renders its pages; those after it have nothing to do, until a
    result changes again or a page is missing."""
    from league import tasks
    from league.models import StandingsPage
    from league.services.results import results_version_bump
    from league.standings_cache import note_language_asked

    computed: list[int] = []
    real = tasks.standings_recompute
    monkeypatch.setattr(
        tasks, "standings_recompute", lambda **kw: computed.append(kw["season_id"]) or real(**kw)
    )
    for _ in range(3):  # three results, bumped before the worker got to any of them
        results_version_bump(season_id=played_season.pk)
    results = [tasks.recompute_standings(played_season.pk) for _ in range(3)]
    assert computed == [played_season.pk]
    assert results[0]["version"] == version(played_season.pk) and results[1:] == [None, None]

    results_version_bump(season_id=played_season.pk)  # another result: computed again
    tasks.recompute_standings(played_season.pk)
    assert len(computed) == 2

    StandingsPage.objects.filter(season=played_season, language="en").delete()  # a page lost
    tasks.recompute_standings(played_season.pk)
    assert len(computed) == 3
    assert StandingsPage.objects.filter(season=played_season, language="en").exists()

    note_language_asked(played_season.pk, "fr")  # a French visitor came: its page is missing
    tasks.recompute_standings(played_season.pk)
    assert len(computed) == 4
    assert StandingsPage.objects.filter(season=played_season, language="fr").exists()
