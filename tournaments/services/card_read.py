"""A card's one read of its table: the table's row locked, then read with its round,
tournament, two entrants and cards, the sender's side and the table its key stored a card at,
in one statement whose SQL is written once per process.

Written through the ORM this was two statements (a read before the transaction, the locked read
inside it, then the cards), each compiled again for every card: the same four-table join and two
correlated subqueries, compiled twice, were a fifth of a card's CPU and the reads a third
(bench/README.md, ``tournament_load.py --card-cost --profile``). The columns are the models'
own (``_meta.concrete_fields``), converted with the same converters the ORM applies, and the
objects are built with ``Model.from_db``: what a card reads is what ``select_related`` gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections, router
from django.db.models import Model

from league.shared import Player
from tournaments.models import Entrant, EntrantPlayer, Round, Scorecard, TableGame, Tournament

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Part:
    """One model's columns in the statement: where they start, and each one's converters."""

    model: type[Model]
    start: int
    names: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]  # (index, converters, column)

    def build(self, row: Sequence[Any], alias: str) -> Model:
        values = list(row[self.start : self.start + len(self.names)])
        for i, converters, col in self.converters:
            for convert in converters:
                values[i] = convert(values[i], col, connections[alias])
        return self.model.from_db(alias, self.names, values)


@dataclass(frozen=True)
class _Plan:
    sql: str
    parts: dict[str, _Part]
    asker_at: int | None  # the asker's side's column
    key_at: int | None  # the key's table's column


def _sql_names() -> dict[str, str]:
    return {
        "game": TableGame._meta.db_table,
        "round": Round._meta.db_table,
        "tournament": Tournament._meta.db_table,
        "entrant": Entrant._meta.db_table,
        "card": Scorecard._meta.db_table,
        "roster": EntrantPlayer._meta.db_table,
        "player": Player._meta.db_table,
    }


@cache
def _plan(alias: str, *, asker: bool, key: bool) -> _Plan:
    """The statement and how to read its rows, for a database and the parts asked for."""
    connection = connections[alias]
    qn = connection.ops.quote_name
    n = _sql_names()
    game = qn(n["game"])
    # The table's own name is its alias, as the side's subquery names it; each other model
    # its own short alias (the two entrants are the same table twice).
    sources = [
        ("game", TableGame, game),
        ("round", Round, "r"),
        ("tournament", Tournament, "t"),
        ("first", Entrant, "e1"),
        ("second", Entrant, "e2"),
        ("card", Scorecard, "sc"),
    ]
    columns: list[str] = []
    parts: dict[str, _Part] = {}
    for name, model, table in sources:
        fields = model._meta.concrete_fields
        converters = []
        for i, field in enumerate(fields):
            col = field.get_col(table)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if found:
                converters.append((i, tuple(found), col))
        parts[name] = _Part(
            model, len(columns), tuple(f.attname for f in fields), tuple(converters)
        )
        columns += [f"{table}.{qn(f.column)}" for f in fields]
    asker_at = key_at = None
    if asker:  # the side of the table the user (the parameter) plays for: 0, 1 or NULL
        asker_at = len(columns)
        columns.append(
            f"(SELECT MIN(CASE WHEN ro.entrant_id = {game}.first_id THEN 0 ELSE 1 END) "
            f"FROM {qn(n['roster'])} ro INNER JOIN {qn(n['player'])} p ON p.id = ro.player_id "
            f"WHERE p.user_id = %s AND ro.entrant_id IN ({game}.first_id, {game}.second_id))"
        )
    if key:  # the table the key (the parameter) stored a card at before, whatever table
        key_at = len(columns)
        columns.append(f'(SELECT k.game_id FROM {qn(n["card"])} k WHERE k."key" = %s)')
    sql = (
        f"SELECT {', '.join(columns)} FROM {game} "
        f"INNER JOIN {qn(n['round'])} r ON r.id = {game}.round_id "
        f"INNER JOIN {qn(n['tournament'])} t ON t.id = r.tournament_id "
        f"INNER JOIN {qn(n['entrant'])} e1 ON e1.id = {game}.first_id "
        f"INNER JOIN {qn(n['entrant'])} e2 ON e2.id = {game}.second_id "
        f"LEFT OUTER JOIN {qn(n['card'])} sc ON sc.game_id = {game}.id "
        f"WHERE {game}.id = %s ORDER BY sc.{qn('at')}, sc.id"
    )
    return _Plan(sql, parts, asker_at, key_at)


@cache
def _lock_sql(alias: str) -> str | None:
    """The statement that locks a table's row alone (None: the database locks itself whole
    for a write, as SQLite does)."""
    connection = connections[alias]
    if not connection.features.has_select_for_update:
        return None
    game = connection.ops.quote_name(TableGame._meta.db_table)
    return f"SELECT {game}.id FROM {game} WHERE {game}.id = %s FOR UPDATE"


@dataclass
class CardTable:
    """What the read found: the table (its round, tournament and entrants attached), its cards
    in order, the sender's side (None: not a player of it, or not asked) and the table the key
    stored a card at (None: a new key)."""

    game: TableGame
    cards: list[Scorecard]
    asker_side: int | None
    key_game: int | None


def card_table(pk: int, *, asker: int | None, key: str | None, lock: bool) -> CardTable:
    """Table ``pk`` as a card needs it (``TableGame.DoesNotExist`` if there is none); ``lock``:
    its row locked for this transaction first, and only that row (not the round's or the
    event's), then read in one statement.

    The lock is a statement of its own: a read that took the lock itself would see the table's
    cards as they were when it began, before it waited for the lock (PostgreSQL checks again
    only the locked row, not the rows joined to it) or while the other side's card committed,
    and miss that card: the table's two agreeing cards would leave it open."""
    alias = router.db_for_write(TableGame)
    plan = _plan(alias, asker=asker is not None, key=bool(key))
    params: list[Any] = []
    if asker is not None:
        params.append(asker)
    if key:
        params.append(key)
    params.append(pk)
    with connections[alias].cursor() as cursor:
        locking = _lock_sql(alias) if lock else None
        if locking is not None:
            cursor.execute(locking, [pk])
        cursor.execute(plan.sql, params)
        rows = cursor.fetchall()
    if not rows:
        raise TableGame.DoesNotExist(f"No table {pk}.")
    first = rows[0]
    parts = plan.parts
    game: Any = parts["game"].build(first, alias)
    rnd: Any = parts["round"].build(first, alias)
    Round.tournament.field.set_cached_value(rnd, parts["tournament"].build(first, alias))
    TableGame.round.field.set_cached_value(game, rnd)
    TableGame.first.field.set_cached_value(game, parts["first"].build(first, alias))
    TableGame.second.field.set_cached_value(game, parts["second"].build(first, alias))
    card_part = parts["card"]
    cards: list[Any] = [card_part.build(row, alias) for row in rows if row[card_part.start]]
    for card in cards:
        Scorecard.game.field.set_cached_value(card, game)
    return CardTable(
        game=game,
        cards=cards,
        asker_side=None if plan.asker_at is None else first[plan.asker_at],
        key_game=None if plan.key_at is None else first[plan.key_at],
    )
