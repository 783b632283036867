"""Each match's tally, kept beside its games: what the standings read instead of every game.

A season's standings sum its matches. Summing 3,200 games on every request that finds no
stored standings cost most of that request (bench/standings.py, "computed"), so each match keeps
what its games add up to in ``MatchTally``, and a season's standings read 640 rows instead.

The tally is only ever rebuilt from the match's games, never adjusted by a difference, by the
one SQL statement below (the rule of what counts lives there and only there):

* every save or delete of a game that is or was counted rebuilds its match's tally in the same
  transaction (the receivers below, connected in ``LeagueConfig.ready``): the services, the
  admin, a judge's correction, a test's factory all go through them. A save that leaves a game
  uncounted (a deal of a game under way) does not, so score entry pays nothing for it;
* a write to games that goes around ``save()`` (an import's ``bulk_create``, a
  ``QuerySet.update``) sends ``games_written`` with the matches it touched, which redoes them;
* the recompute that follows every result change checks the season's tallies against its games
  (:func:`mend_tallies`) before it computes, mends any that differ and says so in the log;
  ``manage.py retally`` rebuilds them all.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from league.models import Game, GameStatus, Match, MatchTally, Week
from league.models.games import OVER_STATUSES, games_written
from scoring.outcome import SkunkLevel

log = logging.getLogger(__name__)

TALLY_COLUMNS = (
    "season_id",
    "week_id",
    "home_id",
    "away_id",
    "is_playoff",
    "home_won",
    "away_won",
    "home_points",
    "away_points",
    "spread",
    "home_skunks",
    "away_skunks",
    "home_double_skunks",
    "away_double_skunks",
    "waiting",
    "disputed",
    "forfeits",
)

# What a match's games add up to: one row per match named by ``{where}``, zeros for a match
# with no counted game, with the match's season, week, teams and whether its week is a playoff
# round. Confirmed games are results; finished ones (waiting for a team to vouch) and disputed
# ones are only counted, so the table can say they exist.
_FROM_GAMES_SQL = """
SELECT m.id, w.season_id, m.week_id, m.home_id, m.away_id, w.is_playoff,
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id),
  COALESCE(SUM(g.home_points) FILTER (WHERE g.status = %(confirmed)s), 0),
  COALESCE(SUM(g.away_points) FILTER (WHERE g.status = %(confirmed)s), 0),
  COALESCE(SUM(CASE WHEN g.winner_id = m.home_id THEN g.margin
                    WHEN g.winner_id = m.away_id THEN -g.margin ELSE 0 END)
    FILTER (WHERE g.status = %(confirmed)s), 0),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id
                   AND g.skunk_level >= %(skunk)s),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id
                   AND g.skunk_level >= %(skunk)s),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.home_id
                   AND g.skunk_level >= %(double)s),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.winner_id = m.away_id
                   AND g.skunk_level >= %(double)s),
  COUNT(*) FILTER (WHERE g.status = %(finished)s),
  COUNT(*) FILTER (WHERE g.status = %(disputed)s),
  COUNT(*) FILTER (WHERE g.status = %(confirmed)s AND g.forfeit_id IS NOT NULL)
FROM {match} m
  JOIN {week} w ON w.id = m.week_id
  LEFT JOIN {game} g ON g.match_id = m.id
    AND g.status IN (%(confirmed)s, %(finished)s, %(disputed)s)
WHERE {where}
GROUP BY m.id, w.season_id, m.week_id, m.home_id, m.away_id, w.is_playoff
"""

_ONE_SEASON = "w.season_id = %(season)s"
_ONE_WEEK = "m.week_id = %(week)s"
_EVERY_MATCH = "1 = 1"


def _sql(where: str) -> str:
    return _FROM_GAMES_SQL.format(
        match=Match._meta.db_table, week=Week._meta.db_table, game=Game._meta.db_table, where=where
    )


def _params(**ids: int) -> dict[str, Any]:
    return {
        "confirmed": str(GameStatus.CONFIRMED),
        "finished": str(GameStatus.FINISHED),
        "disputed": str(GameStatus.DISPUTED),
        "skunk": int(SkunkLevel.SKUNK),  # the skunk ladder's rungs (a double is a skunk too)
        "double": int(SkunkLevel.DOUBLE),
        **ids,
    }


def _upsert(where: str, params: dict[str, Any]) -> None:
    columns = ", ".join(TALLY_COLUMNS)
    updates = ", ".join(f"{c} = excluded.{c}" for c in TALLY_COLUMNS)
    sql = (
        f"INSERT INTO {MatchTally._meta.db_table} (match_id, {columns}) {_sql(where)} "
        f"ON CONFLICT (match_id) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _lock_matches(match_ids: Iterable[int]) -> None:
    """Lock these match rows (PostgreSQL), in id order: every rebuild takes its matches' locks
    in the same order, so two rebuilds wait for each other instead of deadlocking. A rebuild
    that starts while a game of one of them is being saved waits for that save to commit, and
    its sum (a later statement, so a later snapshot) counts the game."""
    if connection.features.has_select_for_update:
        list(
            Match.objects.select_for_update()
            .filter(pk__in=match_ids)
            .order_by("pk")
            .values_list("pk")
        )


def retally_matches(match_ids: Iterable[int]) -> None:
    """Rebuild these matches' tallies from their games, in the caller's transaction. The match
    rows are locked first (PostgreSQL), so two games of one match changed at once are summed
    one after the other, each sum seeing the other's committed game."""
    ids = sorted(set(match_ids))
    with transaction.atomic():
        _lock_matches(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            names = [f"m{i}" for i in range(len(chunk))]
            where = "m.id IN ({})".format(", ".join(f"%({n})s" for n in names))
            _upsert(where, _params(**dict(zip(names, chunk, strict=True))))


def retally_season(season_id: int) -> None:
    """Rebuild the tally of every match of a season from its games (after a bulk write), its
    match rows locked first like :func:`retally_matches`."""
    with transaction.atomic():
        _lock_matches(Match.objects.filter(week__season_id=season_id).values_list("pk", flat=True))
        _upsert(_ONE_SEASON, _params(season=season_id))


def retally_all() -> None:
    """Rebuild every match's tally (``manage.py retally``, and the migration that made them)."""
    with transaction.atomic():
        _upsert(_EVERY_MATCH, _params())


# The counts of a tally: a match with no tally stored is right while all of these are zero.
_COUNTS = TALLY_COLUMNS[TALLY_COLUMNS.index("home_won") :]

# The matches of a season whose stored tally differs from what their games add up to, in ONE
# statement: two statements (the tallies, then the games) see two snapshots under READ
# COMMITTED, and a game saved with its tally between them made a right tally look wrong. The
# columns are all NOT NULL, so ``<>`` is enough; a missing tally (t.* NULL) makes every ``<>``
# NULL, and only the first line can pick its match.
_WRONG_SQL = """
WITH fresh (match_id, {columns}) AS ({from_games})
SELECT f.match_id FROM fresh f
  LEFT JOIN {tally} t ON t.match_id = f.match_id
WHERE (t.match_id IS NULL AND ({any_count}))
  OR {any_difference}
ORDER BY f.match_id
"""


def wrong_tallies(season_id: int) -> list[int]:
    """The matches of a season whose stored tally is not what their games add up to now (a
    match with no tally stored is right while none of its games counts), read in one
    statement, so a game saved meanwhile is either in both sides or in neither."""
    sql = _WRONG_SQL.format(
        columns=", ".join(TALLY_COLUMNS),
        from_games=_sql(_ONE_SEASON),
        tally=MatchTally._meta.db_table,
        any_count=" OR ".join(f"f.{c} <> 0" for c in _COUNTS),
        any_difference=" OR ".join(f"t.{c} <> f.{c}" for c in TALLY_COLUMNS),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, _params(season=season_id))
        return [row[0] for row in cursor.fetchall()]


def mend_tallies(season_id: int) -> int:
    """Check a season's tallies against its games; rebuild them if any differ. Returns how
    many matches differed (0 when all was well: a tally is never behind by design, so anything
    else is a write that went around Pegboard, and is logged)."""
    wrong = wrong_tallies(season_id)
    if wrong:
        log.error(
            "season %s: %d match tallies did not match their games (matches %s); rebuilt",
            season_id,
            len(wrong),
            wrong[:20],
        )
        retally_season(season_id)
    return len(wrong)


@receiver(post_save, sender=Game, dispatch_uid="league.tallies.game_saved")
def game_saved(sender: type[Game], instance: Game, created: bool, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return  # loaddata: a fixture's games are retallied with their season
    counted = instance.status in OVER_STATUSES
    if counted or (not created and getattr(instance, "counted_when_loaded", True)):
        retally_matches([instance.match_id])
        instance.counted_when_loaded = counted


@receiver(games_written, dispatch_uid="league.tallies.games_written")
def games_bulk_written(sender: type[Game], match_ids: set[int], **kwargs: Any) -> None:
    retally_matches(match_ids)


@receiver(post_save, sender=Match, dispatch_uid="league.tallies.match_saved")
def match_saved(sender: type[Match], instance: Match, created: bool, **kwargs: Any) -> None:
    """A match's tally is from its home team's side: a change of its teams redoes it."""
    if not created and not kwargs.get("raw"):
        retally_matches([instance.pk])


@receiver(post_save, sender=Week, dispatch_uid="league.tallies.week_saved")
def week_saved(sender: type[Week], instance: Week, created: bool, **kwargs: Any) -> None:
    """The tallies carry their week's season and whether it is a playoff round."""
    if not created and not kwargs.get("raw"):
        with transaction.atomic():
            _upsert(_ONE_WEEK, _params(week=instance.pk))


@receiver(post_delete, sender=Game, dispatch_uid="league.tallies.game_deleted")
def game_deleted(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    if instance.status in OVER_STATUSES or getattr(instance, "counted_when_loaded", True):
        retally_matches([instance.match_id])
