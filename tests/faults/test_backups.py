"""Backups: every season exports to its archive and comes back into an empty database with the
same games, standings and seeding."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.core.management import call_command

from league.models import GameStatus, Season, StandingsSnapshot
from league.selectors.standings import compute_standings
from league.services.archive import export_season, standings_rows
from league.services.archive_import import import_season
from league.services.demo import build_demo
from tests.factories import game_summary, make_archive


def empty_the_database() -> None:
    """Every table of every app emptied, as on a fresh server before the restore."""
    call_command("flush", interactive=False, verbosity=0)
    for model in apps.get_app_config("league").get_models():
        # A standings snapshot is a cache that a Celery worker (CI's second run) may write back.
        if model is not StandingsSnapshot:
            assert not model.objects.exists(), model.__name__


def as_restored(games: list[tuple]) -> list[tuple]:
    """The games as an import gives them back: a finished game waiting for a team or a judge
    comes back confirmed (the archive is the record)."""
    status = 6  # game_summary's field
    awaiting = {GameStatus.FINISHED, GameStatus.DISPUTED}
    out = []
    for g in games:
        restored = GameStatus.CONFIRMED if g[status] in awaiting else g[status]
        out.append((*g[:status], restored, *g[status + 1 :]))
    return out


# transaction=True: emptying every table (TRUNCATE on PostgreSQL) can't run inside the test's
# transaction.
@pytest.mark.django_db(transaction=True)
def test_every_season_comes_back_from_its_archive_with_identical_standings():
    build_demo()
    import_season(make_archive(seed=3, league="Sunday Pairs"))
    seasons = list(Season.objects.select_related("league").order_by("pk"))
    assert len(seasons) >= 2

    backups = []
    for season in seasons:
        data = compute_standings(season)
        export = export_season(season)
        # The archive holds the standings it restores to: today's, but for games still waiting
        # for a team or a judge (the format has no status), which it holds as played and names.
        if export.unconfirmed:
            assert export.unconfirmed == ["Week 5, Muggins v His Heels, game 1 (disputed)"]
            assert standings_rows(data) != export.archive["standings"]
        else:
            assert standings_rows(data) == export.archive["standings"]
        backups.append(
            {
                "name": f"{season.league.name}: {season.name}",
                "text": json.dumps(export.archive),
                "games": as_restored(game_summary(season)),
                "standings": export.archive["standings"],
                "seeding": export.archive["seeding"],
            }
        )

    # Each season alone into an empty database...
    for backup in backups:
        empty_the_database()
        restored = import_season(json.loads(backup["text"]))
        data = compute_standings(restored)
        assert standings_rows(data) == backup["standings"], backup["name"]
        assert data["seeding"] == backup["seeding"], backup["name"]
        assert game_summary(restored) == backup["games"], backup["name"]
        assert export_season(restored).archive == json.loads(backup["text"]), backup["name"]

    # ... and all of them together, as a whole-server restore would.
    empty_the_database()
    for backup in backups:
        restored = import_season(json.loads(backup["text"]))
        assert standings_rows(compute_standings(restored)) == backup["standings"], backup["name"]
