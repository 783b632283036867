"""Tournament archives: one JSON document per tournament, in and out
(``docs/formats/tournament-archive.md``).

Import is checked as the services a director and the checkers use check it (register, settle a
game, draw the bracket, record a playoff game), as a trusted caller, with their own checks
(``tournament_check``, ``entrant_roster``, ``result_check``, ``playoff_game_check``): the
whole file is read and replayed in memory first, and the first refusal raises
:class:`TournamentArchiveRefused` naming its place ("Round 2, table 3: The loser's score must be
a whole number from 0 to 120."), with nothing of the file stored. The checked rows are then
written as those services would have stored them (the same rows, the same audit trail in the
same order) with one bulk insert per table (per ``BATCH_ROWS`` rows), in one transaction: the
statements do not grow with the number of rounds or tables (security review, L11).

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
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from contest import brackets
from league.kernel import archive_reader
from league.kernel.archive_reader import NAME_LIMIT, SMALL_LIMIT, Reader, check_shape
from league.kernel.audit import AuditAction, audit_entry, audit_write_many
from league.kernel.cache import bump_counter, tournament_version_key
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, actor_of, refuse_unless
from league.kernel.ratings import ratings_changed
from league.shared import Player
from tournaments import logic, services
from tournaments.models import (
    RULE_FIELDS,
    Bye,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    Kind,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Scorecard,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
    TournamentVariant,
)
from tournaments.selectors import standings_for_tournament, standings_from_rows
from tournaments.services.notify import notify_club_night_standing

FORMAT = "pegboard-tournament"
VERSION = 1


class TournamentArchiveRefused(ValidationFailed):
    """The file was refused; ``message`` says where and why. Nothing of it was stored."""


SEED_LIMIT = 2**31 - 1  # the draw seed's column
WHAT = "a tournament"


def tournament_archive_parse(raw: bytes | str) -> Any:
    """The archive in ``raw`` (a file's bytes) as parsed JSON, read with the season archive's
    limits (``league.kernel.archive_reader``): past ``PEGBOARD_ARCHIVE_MAX_BYTES``, not
    UTF-8, not JSON or nested too deeply, it is refused in words."""
    return archive_reader.archive_parse(raw, refusal=TournamentArchiveRefused, what=WHAT)


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
            queryset=TableGame.objects.filter(status=TableState.VERIFIED)
            .select_related("first", "second", "winner")
            .order_by("table"),
        ),
        Prefetch("byes", queryset=Bye.objects.select_related("entrant").order_by("pk")),
    )
    round_rows = []
    for rnd in rounds:
        games = []
        for g in rnd.games.all():
            game_row: dict[str, Any] = {
                "table": g.table,
                "entrants": [g.first.name, g.second.name],
                "winner": g.winner.name if g.winner else None,
                "loser_score": g.loser_score,
            }
            if g.first_spread is not None and g.second_spread is not None:
                game_row["spreads"] = [g.first_spread, g.second_spread]
            games.append(game_row)
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


BATCH_ROWS = 500  # rows of one INSERT: statements grow by a few per 500 rows, not per row


@dataclass
class _Plan:
    """A tournament archive read and checked in memory, nothing stored yet: the rows to
    insert, in the order the director's services would have made them, and their audit trail
    (each entry made as its service makes it, given its row's key once the row is stored)."""

    user: Actor
    tournament: Tournament
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rosters: list[tuple[Entrant, list[str]]] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    games: list[TableGame] = field(default_factory=list)
    cards: list[Scorecard] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    matches: list[PlayoffMatch] = field(default_factory=list)
    playoff_games: list[PlayoffGame] = field(default_factory=list)
    audit: list[tuple[Any, Any]] = field(default_factory=list)  # (entry, the row it is about)
    champion: bool = False  # the final was decided: each entrant's players hear their place


def import_tournament(data: Any, *, user: Actor | None = None) -> Tournament:
    """Store the tournament of archive ``data`` (parsed JSON), all or nothing: read and checked
    whole in memory with the services' own checks, then written with a few bulk inserts in one
    transaction (statements do not grow with the number of rounds or tables).

    Raises :class:`TournamentArchiveRefused` naming the place and the rule.
    """
    # The season importer's hardening (review, L11): the whole document's depth, numbers and
    # texts (length, NUL) first, then names and numbers within their columns.
    check_shape(data, refusal=TournamentArchiveRefused, what=WHAT)
    r = Reader(TournamentArchiveRefused, name_limit=NAME_LIMIT, number_limit=SMALL_LIMIT)
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
    trusted = Trusted(user, "tournament import")
    rounds = r.list(doc["rounds"], "rounds")
    plan = _Plan(user=trusted, tournament=_plan_tournament(r, doc["tournament"], trusted, rounds))
    _plan_created(plan)
    _plan_entrants(r, doc["entrants"], plan)
    for i, raw in enumerate(rounds, start=1):
        _plan_round(r, raw, i, plan)
    data = _standings(plan)
    if "playoffs" in doc:
        _plan_playoffs(r, doc["playoffs"], plan, data)
    _check_computed(r, doc, data)
    counts = {"entrants": len(plan.entrants), "rounds": len(rounds)}
    _log(
        plan,
        plan.tournament,
        audit_entry(
            actor=plan.user,
            action=AuditAction.TOURNAMENT_IMPORT,
            obj=plan.tournament,
            after=counts,
            reason="Imported from a tournament archive",
        ),
    )
    try:
        _write(plan)
    except IntegrityError:  # a player or a tournament of the same name, stored meanwhile
        raise TournamentArchiveRefused(
            "A tournament or a player of the same name was stored while the file was being "
            "stored: nothing was imported; import it again."
        ) from None
    plan.tournament.refresh_from_db()
    return plan.tournament


def _log(plan: _Plan, row: Any, entry: Any) -> None:
    """Keep ``entry`` (made by ``audit_entry`` before ``row`` is stored) for the trail."""
    plan.audit.append((entry, row))


def _write(plan: _Plan) -> None:
    """Every planned row with one bulk insert per table (per ``BATCH_ROWS`` rows), the audit
    trail in the order the services would have written it, in one transaction."""
    t = plan.tournament
    with transaction.atomic():
        t.save(force_insert=True)
        # in order of first appearance, as registering one entrant after another makes them
        names = list(dict.fromkeys(name for _e, roster in plan.rosters for name in roster))
        players = {p.name: p for p in Player.objects.filter(name__in=names)}
        new = [Player(name=name) for name in names if name not in players]
        Player.objects.bulk_create(new, batch_size=BATCH_ROWS)
        players.update((p.name, p) for p in new)
        Entrant.objects.bulk_create(plan.entrants.values(), batch_size=BATCH_ROWS)
        EntrantPlayer.objects.bulk_create(
            (
                EntrantPlayer(entrant=e, player=players[name], position=position)
                for e, roster in plan.rosters
                for position, name in enumerate(roster)
            ),
            batch_size=BATCH_ROWS,
        )
        Round.objects.bulk_create(plan.rounds, batch_size=BATCH_ROWS)
        TableGame.objects.bulk_create(plan.games, batch_size=BATCH_ROWS)
        Bye.objects.bulk_create(plan.byes, batch_size=BATCH_ROWS)
        Scorecard.objects.bulk_create(plan.cards, batch_size=BATCH_ROWS)
        PlayoffMatch.objects.bulk_create(plan.matches, batch_size=BATCH_ROWS)
        PlayoffGame.objects.bulk_create(plan.playoff_games, batch_size=BATCH_ROWS)
        for entry, row in plan.audit:
            entry.object_id = str(row.pk)  # the row had no key when the entry was made
        audit_write_many([entry for entry, _row in plan.audit], batch_size=BATCH_ROWS)
        if plan.games:
            ratings_changed()  # verified tables: the ratings add them after commit
        if plan.champion:
            notify_club_night_standing(t)  # after commit, to each entrant's players
        key = tournament_version_key(t.pk)  # after commit: the live pages (TV, bracket) move
        transaction.on_commit(lambda: bump_counter(key))


def _plan_tournament(r: Reader, raw: Any, user: Actor, rounds: list[Any]) -> Tournament:
    """The tournament row, unsaved, checked as ``tournament_create`` checks it."""
    t = r.obj(
        raw,
        "The tournament",
        required=("name",),
        optional=("date", "kind", "variant", "rules", "draw_seed"),
    )
    name = r.name(t["name"], "The tournament's name", max_length=160)
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
        _check_rule_numbers(r, raw_rules)
        try:
            rules = logic.TournamentRules.from_archive(raw_rules)
        except (TypeError, ValueError) as exc:
            raise r.refuse(f"rules: {exc}") from None
        draw_seed = r.int(t.get("draw_seed", 0), "draw_seed", maximum=SEED_LIMIT)
        refuse_unless(user, Action.RUN_TOURNAMENT)
        games = len(rounds) or 9
        name = services.tournament_check(
            name=name, kind=kind, variant=variant, games_per_entrant=games
        )
        tournament = Tournament(
            name=name,
            date=date,
            kind=kind,
            variant=variant,
            games_per_entrant=games,
            draw_seed=draw_seed,
            acc_rules=kind == Kind.CLUB_NIGHT,
            stage=TournamentStage.QUALIFYING if rounds else TournamentStage.REGISTRATION,
            **{column: getattr(rules, attr) for column, attr in RULE_FIELDS.items()},
        )
    return tournament


def _plan_created(plan: _Plan) -> None:
    _log(
        plan,
        plan.tournament,
        audit_entry(
            actor=plan.user,
            action=AuditAction.TOURNAMENT_CREATE,
            obj=plan.tournament,
            after={"name": plan.tournament.name},
        ),
    )


def _check_rule_numbers(r: Reader, raw: Any, where: str = "rules") -> None:
    """Every number of the rules within the columns that keep them (at most 32,767)."""
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            _check_rule_numbers(r, value, f"{where}.{key}")
    elif isinstance(raw, list):
        for value in raw:
            _check_rule_numbers(r, value, where)
    elif isinstance(raw, int) and not isinstance(raw, bool) and abs(raw) > SMALL_LIMIT:
        raise r.refuse(f"{where} must be at most {SMALL_LIMIT}.")


def _plan_entrants(r: Reader, raw: Any, plan: _Plan) -> None:
    """The entrants, checked in, checked as ``entrant_register`` checks them."""
    t = plan.tournament
    for i, item in enumerate(r.list(raw, "entrants"), start=1):
        with r.at(f"Entrant {i}"):
            e = r.obj(item, "An entrant", required=("name",), optional=("players",))
            name = r.name(e["name"], "The entrant's name")
            players = [
                r.name(p, "A player's name") for p in r.list(e.get("players", []), "players")
            ]
            if not t.is_partnership and players:
                raise r.refuse("a singles entrant is a player; it lists no players.")
            roster = [
                str(p)
                for p in services.entrant_roster(t, name, players, taken=name in plan.entrants)
            ]
            if len(set(roster)) != len(roster):
                raise r.refuse(f"{roster[0]} is named twice: a partnership is two players.")
            entrant = Entrant(tournament=t, name=name, number=i, status=EntrantStatus.CHECKED_IN)
            plan.entrants[name] = entrant
            plan.rosters.append((entrant, roster))
            _log(
                plan,
                entrant,
                audit_entry(
                    actor=plan.user,
                    action=AuditAction.ENTRANT_REGISTER,
                    obj=entrant,
                    after={"name": name, "players": roster, "late": False},
                ),
            )


def _entrant(r: Reader, entrants: Mapping[str, Entrant], name: Any, what: str) -> Entrant:
    text = r.text(name, what)
    if text not in entrants:
        raise r.refuse(f"{text!r} is not an entrant of this tournament.")
    return entrants[text]


def _plan_round(r: Reader, raw: Any, index: int, plan: _Plan) -> None:
    """A round's games, settled as a checker settles them (``scorecard_settle``), and byes."""
    entrants = plan.entrants
    with r.at(f"Round {index}"):
        rd = r.obj(raw, "A round", required=("number", "games"), optional=("byes",))
        if rd["number"] != index:
            raise r.refuse(
                f"rounds are numbered 1, 2, 3... in order; this one says {rd['number']!r}."
            )
        rnd = Round(tournament=plan.tournament, number=index)
        plan.rounds.append(rnd)
        seen: set[str] = set()
        tables: set[int] = set()

        def seat(entrant: Entrant) -> None:
            if entrant.name in seen:
                raise r.refuse(f"{entrant.name} plays twice in this round.")
            seen.add(entrant.name)

        results = []
        for item in r.list(rd["games"], "games"):
            g = r.obj(
                item,
                "A game",
                required=("table", "entrants", "winner", "loser_score"),
                optional=("spreads",),
            )
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
                game = TableGame(round=rnd, table=table, first=a, second=b)
                if "spreads" in g:
                    _plan_two_sided(plan, r, game, g)
                    continue
                winner = _entrant(r, entrants, g["winner"], "The winner")
                results.append((game, winner, g["loser_score"]))
        for item in r.list(rd.get("byes", []), "byes"):
            e = _entrant(r, entrants, item, "A bye")
            seat(e)
            plan.byes.append(Bye(round=rnd, entrant=e))
        for game, winner, loser_score in results:
            with r.at(f"table {game.table}"):
                score = services.result_check(game, winner, loser_score)
            _plan_settled(plan, game, winner, score, {"winner": winner.name, "loser_score": score})


def _plan_two_sided(plan: _Plan, r: Any, game: TableGame, g: Mapping[str, Any]) -> None:
    """A game that ACC Rule 12.2 left with each side's own figure (``spreads``, signed, the
    first entrant's first): a plus figure is that side's win, two minus figures a loss for
    both (then ``winner`` and ``loser_score`` are null)."""
    target = plan.tournament.target
    pair = r.list(g["spreads"], "spreads")
    if len(pair) != 2 or any(type(x) is not int or not 0 < abs(x) <= target for x in pair):
        raise r.refuse(f"spreads are two whole numbers from -{target} to {target}, not 0.")
    won = [side for side, x in zip((game.first, game.second), pair, strict=True) if x > 0]
    if len(won) > 1:
        raise r.refuse("spreads give both entrants a win.")
    winner = won[0] if won else None
    score = target - max(pair) if winner else None
    if g["winner"] != (winner.name if winner else None) or g["loser_score"] != score:
        raise r.refuse("the winner and the loser's score do not follow from the spreads.")
    game.first_spread, game.second_spread = pair
    _plan_settled(
        plan,
        game,
        winner,
        score,
        {"spreads": {game.first.name: pair[0], game.second.name: pair[1]}},
        first_spread=pair[0],
        second_spread=pair[1],
    )


def _plan_settled(
    plan: _Plan,
    game: TableGame,
    winner: Entrant | None,
    score: int | None,
    after: dict[str, Any],
    **spreads: int,
) -> None:
    """``game`` verified as the archive says, with the checker's scorecard that settled it
    and its audit entry (``after``: what the history says was settled)."""
    game.status = TableState.VERIFIED
    game.winner, game.loser_score, game.verified_at = winner, score, timezone.now()
    plan.games.append(game)
    plan.cards.append(
        Scorecard(
            game=game,
            winner=winner,
            loser_score=score,
            by_checker=True,
            entered_by=actor_of(plan.user),
            **spreads,
        )
    )
    _log(
        plan,
        game,
        audit_entry(actor=plan.user, action=AuditAction.SCORECARD_SETTLE, obj=game, after=after),
    )


def _standings(plan: _Plan) -> dict[str, Any]:
    """What ``standings_for_tournament`` gives once the planned rows are stored (the same
    computation, on the rows in the order it reads them), without a query."""
    games = sorted(plan.games, key=lambda g: (g.round.number, g.table))
    return standings_from_rows(
        plan.tournament,
        entrants=[(e.number, e.name, e.status) for e in plan.entrants.values()],
        games=[
            (
                g.first.number,
                g.second.number,
                g.winner.number if g.winner else None,
                g.loser_score,
                g.first_spread,
                g.second_spread,
            )
            for g in games
        ],
        byes=[b.entrant.number for b in plan.byes],
    )


def _plan_playoffs(r: Reader, raw: Any, plan: _Plan, data: Mapping[str, Any]) -> None:
    """The bracket drawn from the standings (``bracket_draw``), then each match's games
    replayed in order, checked as ``playoff_game_record`` checks them."""
    t = plan.tournament
    with r.at("Playoffs"):
        if t.stage != TournamentStage.QUALIFYING:
            raise r.refuse(_("The bracket is drawn once, at the end of the qualifying rounds."))
        if not data["qualifiers"]:
            raise r.refuse(_("Nobody has qualified yet."))
        _plan_bracket(plan, data)
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
                    match = _match_of(plan, number, set(seeds))
                    if match is None:
                        raise r.refuse("these seeds do not meet in this round of the bracket.")
                    for n, g_raw in enumerate(games_raw, start=1):
                        with r.at(f"game {n}"):
                            g = r.obj(g_raw, "A game", required=("winner", "loser_score"))
                            winner = _entrant(r, plan.entrants, g["winner"], "The winner")
                            _plan_playoff_game(plan, match, winner, g["loser_score"])


def _plan_bracket(plan: _Plan, data: Mapping[str, Any]) -> None:
    """Seeds, every round's matches, byes sent on: what ``bracket_draw`` stores."""
    t = plan.tournament
    qualifiers = data["qualifiers"]
    seeds: dict[int, Entrant] = {}
    for i, name in enumerate(qualifiers, start=1):
        plan.entrants[name].seed = i
        seeds[i] = plan.entrants[name]
    slots = brackets.bracket(len(qualifiers))
    size, rnd = len(slots), 1
    while size >= 1:
        for pos in range(size):
            match = PlayoffMatch(tournament=t, round=rnd, position=pos)
            if rnd == 1:
                high, low = slots[pos]
                match.top = seeds[high]
                match.bottom = seeds[low] if low is not None else None
                match.is_bye = low is None
            plan.matches.append(match)
        size //= 2
        rnd += 1
    _log(
        plan,
        t,
        audit_entry(
            actor=plan.user,
            action=AuditAction.BRACKET_DRAW,
            obj=t,
            after={"qualifiers": data["qualifiers"], "bracket": data["bracket"]},
        ),
    )
    for match in plan.matches:
        if match.is_bye:
            _send_on(plan, match, match.top)
    t.stage = TournamentStage.PLAYOFFS  # as bracket_draw leaves it, even when a bye was the final


def _send_on(plan: _Plan, match: PlayoffMatch, winner: Entrant | None) -> None:
    """A match decided: its winner goes on to the next round, or is the champion."""
    assert winner is not None
    match.winner = winner
    nxt = next(
        (
            m
            for m in plan.matches
            if m.round == match.round + 1 and m.position == match.position // 2
        ),
        None,
    )
    if nxt is None:
        plan.tournament.stage = TournamentStage.FINISHED
        plan.champion = True
    elif match.position % 2 == 0:
        nxt.top = winner
    else:
        nxt.bottom = winner


def _plan_playoff_game(plan: _Plan, match: PlayoffMatch, winner: Entrant, loser_score: Any) -> None:
    t = plan.tournament
    score = services.playoff_game_check(t, match, winner, loser_score)
    played = [g for g in plan.playoff_games if g.match is match]
    number = len(played) + 1
    plan.playoff_games.append(
        PlayoffGame(
            match=match,
            number=number,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(plan.user),
        )
    )
    winners = [g.winner.name for g in played] + [winner.name]
    if brackets.match_winner(winners, best_of=t.playoff_best_of) is not None:
        _send_on(plan, match, winner)
    _log(
        plan,
        match,
        audit_entry(
            actor=plan.user,
            action=AuditAction.PLAYOFF_GAME_RECORD,
            obj=match,
            after={"game": number, "winner": winner.name, "loser_score": score},
        ),
    )


def _match_of(plan: _Plan, round_number: int, seeds: set[int]) -> PlayoffMatch | None:
    for m in plan.matches:
        if m.round != round_number:
            continue
        if m.top and m.bottom and {m.top.seed, m.bottom.seed} == seeds:
            return m
    return None


def _check_computed(r: Reader, doc: Mapping[str, Any], data: Mapping[str, Any]) -> None:
    """Standings, qualifiers and bracket in the file must be what its games give."""
    for key in ("standings", "qualifiers", "bracket"):
        if key in doc and doc[key] != data[key]:
            given, computed = doc[key], data[key]
            if key == "standings" and isinstance(given, list):
                for i, (a, b) in enumerate(zip(given, computed, strict=False), start=1):
                    if a != b:
                        raise r.refuse(f"standings row {i} is {a!r}, but the games give {b!r}.")
            raise r.refuse(f"{key} are {given!r}, but the games give {computed!r}.")
