"""Each match's tally, which the standings read, is what its games add up to, whichever way the
games were written: a save, a delete, a bulk insert, a QuerySet update, a change of the match.
And a tally changed behind Pegboard's back is found and mended by the recompute."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction

from league.models import Game, GameStatus, MatchTally
from league.selectors.standings import compute_standings
from league.services.standings import standings_recompute
from league.services.tallies import mend_tallies, retally_season, wrong_tallies
from tests import factories

pytestmark = pytest.mark.django_db

# The races below need two connections that see each other's commits one statement at a time
# (PostgreSQL's READ COMMITTED). SQLite runs one writer at a time against the whole file, so
# the writes cannot be interleaved with a reader's statements the way the workers do it.
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a race between two connections under READ COMMITTED: PostgreSQL only",
)


def tally(match) -> dict[str, int]:
    row = MatchTally.objects.get(match=match)
    return {
        "home_won": row.home_won,
        "away_won": row.away_won,
        "home_points": row.home_points,
        "away_points": row.away_points,
        "spread": row.spread,
        "home_skunks": row.home_skunks,
        "away_skunks": row.away_skunks,
        "waiting": row.waiting,
        "disputed": row.disputed,
    }


def rows(season) -> dict[str, tuple[int, int, int, int]]:
    """Each team's (played, won, points, weeks won), as the standings give them."""
    return {
        r["team"]: (r["played"], r["won"], r["points"], r["weeks_won"])
        for r in compute_standings(season)["standings"]
    }


def test_a_match_tally_sums_its_confirmed_games_from_the_home_side(played_season):
    m1 = played_season.weeks.get(number=1).matches.get()
    # Fifteen Two (home) won by 35 (a skunk) and by 5, Nobs by 10: league points 3 + 1 and 1
    assert tally(m1) == {
        "home_won": 2,
        "away_won": 1,
        "home_points": 3,
        "away_points": 1,
        "spread": 35 - 10 + 5,
        "home_skunks": 1,
        "away_skunks": 0,
        "waiting": 0,
        "disputed": 0,
    }
    assert wrong_tallies(played_season.pk) == []


def test_a_game_saved_out_of_the_counted_states_leaves_the_tally(played_season):
    m1 = played_season.weeks.get(number=1).matches.get()
    game = Game.objects.get(match=m1, number=1)  # the skunk
    game.status = GameStatus.VOID
    game.save()
    assert (tally(m1)["home_won"], tally(m1)["home_skunks"]) == (1, 0)
    # Fifteen Two: 2 + 3 games played, a win each week, no skunk any more, week 1 now level
    assert rows(played_season)["Fifteen Two"] == (5, 2, 2, 0)


def test_a_deleted_game_leaves_the_tally(played_season):
    m1 = played_season.weeks.get(number=1).matches.get()
    Game.objects.get(match=m1, number=3).delete()
    assert (tally(m1)["home_won"], tally(m1)["away_won"]) == (1, 1)
    # Week 1 is now level 1-1: nobody won it
    assert rows(played_season)["Fifteen Two"][3] == 0


def test_a_queryset_update_and_a_bulk_insert_keep_the_tallies(played_season):
    m1 = played_season.weeks.get(number=1).matches.get()
    Game.objects.filter(match=m1, number__in=(1, 3)).update(status=GameStatus.FINISHED)
    assert (tally(m1)["home_won"], tally(m1)["waiting"]) == (0, 2)
    assert rows(played_season)["Fifteen Two"] == (4, 1, 1, 0)

    extra = Game(
        match=m1,
        number=4,
        status=GameStatus.DISPUTED,
        winner=m1.away,
        margin=3,
        home_score=118,
        away_score=121,
        away_points=1,
    )
    Game.objects.bulk_create([extra])
    assert tally(m1)["disputed"] == 1
    assert wrong_tallies(played_season.pk) == []


def test_a_tally_changed_behind_pegboards_back_is_mended_by_the_recompute(played_season, caplog):
    right = rows(played_season)
    with connection.cursor() as cursor:  # a hand-made change, around every service
        cursor.execute(f"UPDATE {MatchTally._meta.db_table} SET home_won = 9, home_points = 30")
    assert rows(played_season) != right  # the standings read the tallies...
    with caplog.at_level(logging.ERROR, logger="league.services.tallies"):
        standings_recompute(season_id=played_season.pk)  # ...and the recompute mends them
    assert "did not match their games" in caplog.text
    assert rows(played_season) == right
    assert mend_tallies(played_season.pk) == 0


def test_manage_retally_rebuilds_missing_tallies(played_season, capsys):
    right = rows(played_season)
    MatchTally.objects.all().delete()
    assert rows(played_season)["Fifteen Two"] == (0, 0, 0, 0)
    call_command("retally")
    assert "2 match tally(ies) rebuilt" in capsys.readouterr().out
    assert rows(played_season) == right


def test_games_played_through_the_services_are_tallied(season, match, ann, cat):
    import random

    rng = random.Random(3)
    factories.play_game(match, 1, rng, entering=ann, confirming=cat)
    factories.play_game(match, 2, rng, entering=ann, confirming=None)  # waiting for Nobs
    assert tally(match)["home_won"] + tally(match)["away_won"] == 1
    assert tally(match)["waiting"] == 1
    assert wrong_tallies(season.pk) == []


def test_a_week_made_a_playoff_round_leaves_the_regular_season_standings(played_season):
    week = played_season.weeks.get(number=2)
    week.is_playoff = True
    week.save()
    # Only week 1 counts now: Fifteen Two beat Nobs 2-1 there, His Heels has played nothing
    assert rows(played_season)["Fifteen Two"] == (3, 2, 3, 1)
    assert rows(played_season)["His Heels"] == (0, 0, 0, 0)
    assert wrong_tallies(played_season.pk) == []


class Elsewhere(threading.Thread):
    """``work`` run in a transaction of its own, on a connection of its own (the thread's), as
    another worker would; it commits when ``work`` returns. ``joined()`` waits for it and
    raises what it raised."""

    def __init__(self, work: Callable[[], object]) -> None:
        super().__init__()
        self.work = work
        self.failure: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            with transaction.atomic():
                self.work()
        except BaseException as exc:  # handed to the test by joined()
            self.failure = exc
        finally:
            connections.close_all()  # this thread's connections only

    def joined(self) -> None:
        self.join(timeout=30)
        assert not self.is_alive(), "the other connection never finished"
        if self.failure is not None:
            raise self.failure


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_game_saved_while_the_tallies_are_checked_is_not_reported_wrong(played_season, caplog):
    """The check used to read the tallies, then the games, in two statements: a game saved (and
    its tally rebuilt) in between made a right tally look wrong, logged an ERROR and rebuilt
    the whole season. Here a game is saved and committed right after the check's first
    statement."""
    m1 = played_season.weeks.get(number=1).matches.get()
    statements: list[str] = []

    def save_a_game_after_the_first_statement(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        statements.append(sql)
        if len(statements) == 1:
            Elsewhere(lambda: factories.confirmed_game(m1, 4, m1.home, 7)).joined()
        return result

    with (
        caplog.at_level(logging.ERROR, logger="league.services.tallies"),
        connection.execute_wrapper(save_a_game_after_the_first_statement),
    ):
        mended = mend_tallies(played_season.pk)
    assert statements, "the check read nothing"
    assert tally(m1)["home_won"] == 3  # the game was saved, and its tally rebuilt, meanwhile
    assert (mended, caplog.text) == (0, "")
    assert wrong_tallies(played_season.pk) == []


def wait_for_a_lock_wait() -> None:
    """Return once some connection to this database waits for a lock (or fail after 10 s)."""
    sql = (
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            if cursor.fetchone()[0]:
                return
        time.sleep(0.01)
    raise AssertionError("nobody waited for a lock")


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_season_rebuilt_while_a_game_is_saved_counts_that_game(played_season):
    """A season's rebuild that starts while a game of one of its matches is being saved waits
    for that save, then sums the game; it must not overwrite the tally with sums taken from
    before the save committed."""
    m1 = played_season.weeks.get(number=1).matches.get()
    saved, release = threading.Event(), threading.Event()

    def save_a_game_and_hold() -> None:
        factories.confirmed_game(m1, 4, m1.home, 7)  # locks the match, rebuilds its tally
        saved.set()
        assert release.wait(timeout=20), "never released"

    writer = Elsewhere(save_a_game_and_hold)
    assert saved.wait(timeout=20), "the game was never saved"
    rebuild = Elsewhere(lambda: retally_season(played_season.pk))
    wait_for_a_lock_wait()  # the rebuild waits for the game's transaction
    release.set()
    writer.joined()
    rebuild.joined()
    assert tally(m1)["home_won"] == 3
    assert wrong_tallies(played_season.pk) == []
