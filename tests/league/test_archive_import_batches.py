"""Season import at scale: the whole file checked before the first row is written, bulk writes
in short batches with the season hidden until the last one, score entry going on meanwhile,
and an estimate before writing. On SQLite and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import copy
import datetime as dt
import json
import threading
import time

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Deal, Game, Season
from league.services import archive, archive_import
from league.services.archive import ArchiveRefused
from league.services.archive_import import import_plan, import_season, import_write
from league.services.deals import deal_record
from tests.factories import make_archive, make_big_archive, plain_deal, row_counts


def _writes(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]


@pytest.mark.django_db
def test_a_bad_deal_in_the_last_game_is_refused_before_anything_is_written():
    doc = make_big_archive(60)
    last = doc["weeks"][-1]["matches"][-1]["games"][-1]
    last["deals"][-1]["crib"] = 19
    with CaptureQueriesContext(connection) as ctx, pytest.raises(ArchiveRefused) as info:
        import_season(doc)
    assert "A crib can never score 19." in info.value.message
    assert info.value.message.startswith(f"Week {doc['weeks'][-1]['number']}, ")
    assert _writes(ctx.captured_queries) == [], "the import wrote before it had checked it all"


@pytest.mark.django_db
def test_the_season_row_is_written_a_fixed_number_of_times_whatever_the_size():
    """No per-deal update of the season row (22,059 of them for 3,200 games before)."""

    def season_writes(doc) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as ctx:
            import_season(doc)
        writes = _writes(ctx.captured_queries)
        return len([q for q in writes if '"league_season"' in q]), len(ctx.captured_queries)

    small_updates, small_queries = season_writes(make_big_archive(10, seed=1))
    big_doc = make_big_archive(45, seed=2)
    big_doc["league"]["name"] = "Other League"
    big_updates, big_queries = season_writes(big_doc)
    assert small_updates == big_updates <= 5
    # 4.5 times the games and deals, in the same batch: the same number of statements
    assert big_queries <= small_queries + 12


@pytest.mark.django_db
def test_a_failure_while_writing_leaves_nothing_behind(monkeypatch):
    monkeypatch.setattr(archive_import, "BATCH_GAMES", 5)
    real = archive_import._write_batch
    calls = []

    def fail_on_the_third(batch):
        calls.append(1)
        if len(calls) == 3:
            raise IntegrityError("a player of that name was added a moment ago")
        return real(batch)

    monkeypatch.setattr(archive_import, "_write_batch", fail_on_the_third)
    before = row_counts()
    with pytest.raises(ArchiveRefused, match="nothing was imported; import it again"):
        import_season(make_big_archive(30))
    assert len(calls) == 3
    assert row_counts() == before


@pytest.mark.django_db
def test_a_season_being_written_is_shown_nowhere(client, monkeypatch):
    monkeypatch.setattr(archive_import, "BATCH_GAMES", 5)
    seen: list[dict] = []
    plan = import_plan(make_big_archive(20))

    def look(done, total):
        if done == total:
            return
        season = Season.objects.get(name=plan.season.name)
        seen.append(
            {
                "importing": season.importing,
                "standings": client.get(reverse("league:standings", args=[season.pk])).status_code,
                "schedule": client.get(reverse("league:schedule", args=[season.pk])).status_code,
                "home": season.name in client.get(reverse("league:home")).content.decode(),
                "api seasons": [s["id"] for s in client.get("/api/seasons/").json()["results"]],
                "api games": client.get("/api/games/").json()["count"],
                "season": season.pk,
            }
        )

    season = import_write(plan, progress=look)
    assert seen, "the import wrote everything in one batch"
    for page in seen:
        assert page["importing"] and page["standings"] == page["schedule"] == 404
        assert not page["home"] and page["season"] not in page["api seasons"]
        assert page["api games"] == 0
    assert not season.importing and season.is_current_on(dt.date.today())
    assert client.get(reverse("league:standings", args=[season.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_captain_records_a_deal_in_another_season_while_a_season_is_imported(
    game, ann, monkeypatch
):
    """During a 1,000-game import, a captain's deal failed with "database is locked": now it
    goes in while the import is still writing, on SQLite as on PostgreSQL."""
    monkeypatch.setattr(archive_import, "BATCH_GAMES", 10)
    plan = import_plan(make_big_archive(400))
    writing = threading.Event()
    finished: list[float] = []
    errors: list[BaseException] = []

    def run_import() -> None:
        try:
            import_write(plan, progress=lambda done, total: writing.set())
            finished.append(time.monotonic())
        except BaseException as exc:
            errors.append(exc)
            writing.set()
        finally:
            connection.close()

    importer = threading.Thread(target=run_import)
    importer.start()
    try:
        assert writing.wait(120)
        deal, created = deal_record(game=game, user=ann, number=1, data=plain_deal(0))
        recorded = time.monotonic()
    finally:
        importer.join()
    assert not errors, errors
    assert created and Deal.objects.filter(pk=deal.pk).exists()
    assert recorded < finished[0], "the captain's deal waited for the whole import"
    assert Game.objects.filter(match__week__season__name="Big 400").count() == 400


@pytest.mark.django_db
def test_the_command_says_how_big_and_how_long_before_writing_then_progress(tmp_path, capsys):
    doc = make_big_archive(30)
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc))
    call_command("import_season", str(path))
    out = capsys.readouterr().out.splitlines()
    deals = sum(len(g["deals"]) for w in doc["weeks"] for m in w["matches"] for g in m["games"])
    assert out[0].startswith(f"Checked 30 games ({deals:,} deals) in ")
    assert "Writing them should take about " in out[0]
    assert any(line.strip() == "30 of 30 games written" for line in out[1:-1])
    assert out[-1].startswith("Imported Big League: Big 30 (16 teams, ")


@pytest.mark.django_db
def test_an_export_of_a_batched_import_gives_the_same_archive_back(monkeypatch):
    monkeypatch.setattr(archive_import, "BATCH_GAMES", 3)
    season = import_season(make_archive(games=3))
    exported = archive.export_season(season).archive
    from tests.factories import wipe_league_data

    wipe_league_data()
    again = import_season(copy.deepcopy(exported))
    assert archive.export_season(again).archive == exported


@pytest.mark.django_db
def test_an_interrupted_import_is_named_and_can_be_cleared_then_imported_again(monkeypatch):
    monkeypatch.setattr(archive_import, "BATCH_GAMES", 5)
    doc = make_big_archive(20)
    plan = import_plan(copy.deepcopy(doc))

    class Killed(BaseException):
        """The process dying mid-import: no cleanup runs."""

    def die(done, total):
        raise Killed

    monkeypatch.setattr(
        archive_import, "_discard", lambda plan, new_league: None
    )  # kill -9: no cleanup
    with pytest.raises(Killed):
        import_write(plan, progress=die)
    monkeypatch.undo()
    assert Season.objects.filter(name="Big 20", importing=True).count() == 1
    with pytest.raises(ArchiveRefused) as info:
        import_season(copy.deepcopy(doc))
    message = info.value.message
    assert "is running or was interrupted" in message and "--discard-unfinished" in message
    call_command("import_season", "--discard-unfinished")
    assert not Season.objects.filter(name="Big 20").exists()
    season = import_season(doc)
    assert Game.objects.filter(match__week__season=season).count() == 20


@pytest.mark.django_db(transaction=True)
def test_checking_an_archive_reads_the_database_twice_whatever_its_size():
    """The check replays every game in memory and reads only the league and the players by
    name: no statement per game. (Each confirmed game built in memory queued a ratings' update
    that ran at once, outside any transaction: eight times the check's time for a 3,200-game
    season.) A transactional test, so a callback queued after commit would run and be counted
    here, as it is in a real import."""

    def check_statements(doc) -> int:
        with CaptureQueriesContext(connection) as ctx:
            import_plan(doc)
        return len(ctx.captured_queries)

    assert check_statements(make_big_archive(5, seed=1)) == 2
    assert check_statements(make_big_archive(30, seed=2)) == 2


@pytest.mark.django_db(transaction=True)
def test_a_whole_import_sends_a_pinned_number_of_statements():
    """Check, write in batches, then one ratings' update, one standings' recompute and the
    records' rebuild (12 statements): the statements of a 30-game season import
    (bench/README.md gives the full-size CPU)."""
    with CaptureQueriesContext(connection) as ctx:
        import_season(make_big_archive(30, seed=2))
    # Three more on PostgreSQL than on SQLite, as measured in CI's PostgreSQL run.
    assert len(ctx.captured_queries) == (95 if connection.vendor == "sqlite" else 98)
