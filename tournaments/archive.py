"""Tournament archives: one JSON document per tournament, in and out
(``docs/formats/tournament-archive.md``).

Import goes through the services a director and the checkers use (register, seat, settle a
game, draw the bracket, record a playoff game), as a trusted caller, so a game is checked as at
the table; the whole file is one transaction, and the first refusal raises
:class:`TournamentArchiveRefused` naming its place ("Round 2, table 3: The loser's score must be
a whole number from 0 to 120."), with nothing of the file stored.

Semantics chosen where the format is silent:

- Rounds are numbered 1, 2, 3... in file order; a game's first entrant is the first listed; an
  entrant plays at most once a round (a game or a bye). The event's number of qualifying games
  is the number of rounds in the file (9 when there are none).
- ``playoffs`` present (even empty) means the bracket was drawn: import draws it from the
  standings of the file's games, then replays each match's games in order. Export writes
  ``playoffs`` once the bracket is drawn, listing the rounds and matches that have games, each
  match's ``seeds`` lowest first.
- Export writes verified games only (a game still waiting for scorecards has no result yet).
- ``standings``, ``qualifiers`` and ``bracket`` are written by export and, when present on
  import, must equal what the file's games give.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Prefetch

from league.kernel.archive_reader import Reader
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Actor, Trusted
from tournaments import logic, services
from tournaments.models import (
    Bye,
    Entrant,
    Kind,
    PlayoffMatch,
    Round,
    TableGame,
    TableStatus,
    Tournament,
    TournamentStage,
    TournamentVariant,
)
from tournaments.selectors import standings_for_tournament

FORMAT = "pegboard-tournament"
VERSION = 1


class TournamentArchiveRefused(ValidationFailed):
    """The file was refused; ``message`` says where and why. Nothing of it was stored."""


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The tournament as an archive (a JSON-ready dict) with its standings, qualifiers and
    bracket."""
    entrants = tournament.entrants.order_by("number").prefetch_related("roster__player")
    entrant_rows: list[dict[str, Any]] = []
    for e in entrants:
        row: dict[str, Any] = {"name": e.name}
        if tournament.is_partnership:
            row["players"] = [ep.player.name for ep in e.roster.all()]
        entrant_rows.append(row)
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch(
            "games",
            queryset=TableGame.objects.filter(status=TableStatus.VERIFIED)
            .select_related("first", "second", "winner")
            .order_by("table"),
        ),
        Prefetch("byes", queryset=Bye.objects.select_related("entrant").order_by("pk")),
    )
    round_rows = []
    for rnd in rounds:
        games = []
        for g in rnd.games.all():
            assert g.winner is not None
            games.append(
                {
                    "table": g.table,
                    "entrants": [g.first.name, g.second.name],
                    "winner": g.winner.name,
                    "loser_score": g.loser_score,
                }
            )
        round_rows.append(
            {
                "number": rnd.number,
                "games": games,
                "byes": [b.entrant.name for b in rnd.byes.all()],
            }
        )
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "name": tournament.name,
            "date": tournament.date.isoformat() if tournament.date else None,
            "kind": tournament.kind,
            "variant": tournament.variant,
            "rules": tournament.rules.as_archive(),
            "draw_seed": tournament.draw_seed,
        },
        "entrants": entrant_rows,
        "rounds": round_rows,
    }
    if tournament.stage in (TournamentStage.PLAYOFFS, TournamentStage.FINISHED):
        doc["playoffs"] = _export_playoffs(tournament)
    data = standings_for_tournament(tournament)
    doc["standings"] = data["standings"]
    doc["qualifiers"] = data["qualifiers"]
    doc["bracket"] = data["bracket"]
    return doc


def _export_playoffs(tournament: Tournament) -> list[dict[str, Any]]:
    matches = (
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top", "bottom")
        .prefetch_related("games__winner")
        .order_by("round", "position")
    )
    rounds: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        games = [{"winner": g.winner.name, "loser_score": g.loser_score} for g in m.games.all()]
        if not games or m.top is None or m.bottom is None:
            continue
        seeds = sorted(s for s in (m.top.seed, m.bottom.seed) if s is not None)
        rounds.setdefault(m.round, []).append({"seeds": seeds, "games": games})
    return [{"round": r, "matches": ms} for r, ms in sorted(rounds.items())]


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------


def import_tournament(data: Any, *, user: Actor | None = None) -> Tournament:
    """Store the tournament of archive ``data`` (parsed JSON), all or nothing.

    Raises :class:`TournamentArchiveRefused` naming the place and the rule.
    """
    r = Reader(TournamentArchiveRefused)
    doc = r.obj(
        data,
        "The archive",
        required=("format", "version", "tournament", "entrants", "rounds"),
        optional=("playoffs", "standings", "qualifiers", "bracket"),
    )
    if doc["format"] != FORMAT:
        raise r.refuse(
            f"This is not a tournament archive: format is {doc['format']!r}, not {FORMAT!r}."
        )
    if type(doc["version"]) is not int or doc["version"] != VERSION:
        raise r.refuse(
            f"This archive is version {doc['version']!r}; this Pegboard reads version {VERSION}."
        )
    user = Trusted(user, "tournament import")
    rounds = r.list(doc["rounds"], "rounds")
    with transaction.atomic():
        tournament = _import_tournament_row(r, doc["tournament"], user, len(rounds))
        entrants = _import_entrants(r, doc["entrants"], tournament, user)
        for i, raw in enumerate(rounds, start=1):
            _import_round(r, raw, i, tournament, entrants, user)
        if "playoffs" in doc:
            _import_playoffs(r, doc["playoffs"], tournament, entrants, user)
        _check_computed(r, doc, tournament)
        audit_log(
            actor=user,
            action=AuditAction.TOURNAMENT_IMPORT,
            obj=tournament,
            after={"entrants": len(entrants), "rounds": len(rounds)},
            reason="Imported from a tournament archive",
        )
    tournament.refresh_from_db()  # the services changed its stage through their own rows
    return tournament


def _import_tournament_row(r: Reader, raw: Any, user: Actor, rounds: int) -> Tournament:
    t = r.obj(
        raw,
        "The tournament",
        required=("name",),
        optional=("date", "kind", "variant", "rules", "draw_seed"),
    )
    name = r.text(t["name"], "The tournament's name")
    with r.at(f"Tournament {name!r}"):
        date = None
        if t.get("date") is not None:
            try:
                date = dt.date.fromisoformat(t["date"])
            except (TypeError, ValueError):
                raise r.refuse(f"date {t['date']!r} is not a date (YYYY-MM-DD).") from None
        kind = t.get("kind", "club-night")
        if kind not in Kind.values:
            raise r.refuse(f"kind {kind!r} is not one of {', '.join(Kind.values)}.")
        variant = t.get("variant", "singles-121")
        if variant not in TournamentVariant.values:
            raise r.refuse(
                f"variant {variant!r} is not one of {', '.join(TournamentVariant.values)}."
            )
        raw_rules = r.obj(
            t.get("rules", {}),
            "rules",
            optional=tuple(logic.TournamentRules().as_archive()),
        )
        try:
            rules = logic.TournamentRules.from_archive(raw_rules)
        except (TypeError, ValueError) as exc:
            raise r.refuse(f"rules: {exc}") from None
        draw_seed = r.int(t.get("draw_seed", 0), "draw_seed")
        return services.tournament_create(
            user=user,
            name=name,
            date=date,
            kind=kind,
            variant=variant,
            rules=rules,
            games_per_entrant=rounds or 9,
            draw_seed=draw_seed,
        )


def _import_entrants(
    r: Reader, raw: Any, tournament: Tournament, user: Actor
) -> dict[str, Entrant]:
    out: dict[str, Entrant] = {}
    for i, item in enumerate(r.list(raw, "entrants"), start=1):
        with r.at(f"Entrant {i}"):
            e = r.obj(item, "An entrant", required=("name",), optional=("players",))
            name = r.text(e["name"], "The entrant's name")
            players = [
                r.text(p, "A player's name") for p in r.list(e.get("players", []), "players")
            ]
            if not tournament.is_partnership and players:
                raise r.refuse("a singles entrant is a player; it lists no players.")
            out[name] = services.entrant_register(
                user=user, tournament=tournament, name=name, players=players, check_in=True
            )
    return out


def _entrant(r: Reader, entrants: Mapping[str, Entrant], name: Any, what: str) -> Entrant:
    text = r.text(name, what)
    if text not in entrants:
        raise r.refuse(f"{text!r} is not an entrant of this tournament.")
    return entrants[text]


def _import_round(
    r: Reader,
    raw: Any,
    index: int,
    tournament: Tournament,
    entrants: Mapping[str, Entrant],
    user: Actor,
) -> None:
    with r.at(f"Round {index}"):
        rd = r.obj(raw, "A round", required=("number", "games"), optional=("byes",))
        if rd["number"] != index:
            raise r.refuse(
                f"rounds are numbered 1, 2, 3... in order; this one says {rd['number']!r}."
            )
        rnd = Round.objects.create(tournament=tournament, number=index)
        if tournament.stage == TournamentStage.REGISTRATION:
            tournament.stage = TournamentStage.QUALIFYING
            tournament.save(update_fields=["stage"])
        seen: set[str] = set()
        tables: set[int] = set()

        def seat(entrant: Entrant) -> None:
            if entrant.name in seen:
                raise r.refuse(f"{entrant.name} plays twice in this round.")
            seen.add(entrant.name)

        results = []
        for item in r.list(rd["games"], "games"):
            g = r.obj(item, "A game", required=("table", "entrants", "winner", "loser_score"))
            table = r.int(g["table"], "The table", minimum=1)
            with r.at(f"table {table}"):
                if table in tables:
                    raise r.refuse("two games are at this table.")
                tables.add(table)
                pair = r.list(g["entrants"], "entrants")
                if len(pair) != 2:
                    raise r.refuse("a game is between two entrants.")
                a = _entrant(r, entrants, pair[0], "An entrant")
                b = _entrant(r, entrants, pair[1], "An entrant")
                seat(a)
                seat(b)
                winner = _entrant(r, entrants, g["winner"], "The winner")
                game = TableGame.objects.create(round=rnd, table=table, first=a, second=b)
                results.append((table, game, winner, g["loser_score"]))
        for item in r.list(rd.get("byes", []), "byes"):
            e = _entrant(r, entrants, item, "A bye")
            seat(e)
            Bye.objects.create(round=rnd, entrant=e)
        for table, game, winner, loser_score in results:
            with r.at(f"table {table}"):
                services.scorecard_settle(
                    user=user, game=game, winner=winner, loser_score=loser_score
                )


def _import_playoffs(
    r: Reader, raw: Any, tournament: Tournament, entrants: Mapping[str, Entrant], user: Actor
) -> None:
    with r.at("Playoffs"):
        services.bracket_draw(user=user, tournament=tournament)
    for item in r.list(raw, "playoffs"):
        p = r.obj(item, "A playoff round", required=("round", "matches"))
        number = r.int(p["round"], "The playoff round", minimum=1)
        with r.at(f"Playoff round {number}"):
            for m_raw in r.list(p["matches"], "matches"):
                m = r.obj(m_raw, "A match", required=("seeds", "games"))
                seeds = r.list(m["seeds"], "seeds")
                games_raw = r.list(m["games"], "games")
                if len(seeds) == 2 and None in seeds and not games_raw:
                    continue  # a bye written out: the bracket already sends the seed on
                if len(seeds) != 2 or not all(type(s) is int for s in seeds):
                    raise r.refuse("a match's seeds are two whole numbers.")
                with r.at(f"seeds {seeds[0]} v {seeds[1]}"):
                    match = _match_of(tournament, number, set(seeds))
                    if match is None:
                        raise r.refuse("these seeds do not meet in this round of the bracket.")
                    for n, g_raw in enumerate(games_raw, start=1):
                        with r.at(f"game {n}"):
                            g = r.obj(g_raw, "A game", required=("winner", "loser_score"))
                            winner = _entrant(r, entrants, g["winner"], "The winner")
                            match, _created = services.playoff_game_record(
                                user=user, match=match, winner=winner, loser_score=g["loser_score"]
                            )


def _match_of(tournament: Tournament, round_number: int, seeds: set[int]) -> PlayoffMatch | None:
    for m in PlayoffMatch.objects.filter(tournament=tournament, round=round_number).select_related(
        "top", "bottom"
    ):
        if m.top and m.bottom and {m.top.seed, m.bottom.seed} == seeds:
            return m
    return None


def _check_computed(r: Reader, doc: Mapping[str, Any], tournament: Tournament) -> None:
    """Standings, qualifiers and bracket in the file must be what its games give."""
    data = standings_for_tournament(tournament)
    for key in ("standings", "qualifiers", "bracket"):
        if key in doc and doc[key] != data[key]:
            given, computed = doc[key], data[key]
            if key == "standings" and isinstance(given, list):
                for i, (a, b) in enumerate(zip(given, computed, strict=False), start=1):
                    if a != b:
                        raise r.refuse(f"standings row {i} is {a!r}, but the games give {b!r}.")
            raise r.refuse(f"{key} are {given!r}, but the games give {computed!r}.")
