"""Reads for a tournament: its standings and the cut, the seating of a round, the bracket and
the checkers' queue. Standings are computed by ``logic`` from two queries (verified games and
byes), whatever the size of the field."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.urls import reverse

from contest import brackets
from contest.ratings import RatedResult
from league.kernel.cache import read_counter, tournament_version_key
from league.kernel.errors import DomainError
from league.shared import Player
from scoring.game import entry_rules
from scoring.variants import VARIANTS
from tournaments import logic
from tournaments.models import (
    POT_IN,
    Bye,
    ClubSeason,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    PlayoffGame,
    PlayoffMatch,
    Purse,
    Round,
    Scorecard,
    SidePot,
    TableGame,
    TableStatus,
    Tournament,
    TournamentStage,
)


class NoSuchTournament(DomainError):
    status = 404
    code = "not_found"


def tournament_version(tournament_id: int, *, every: float, now: float | None = None) -> str:
    """What the live pages poll: a text that changes after every change they show (a
    scorecard, a settlement, a seating, a swap, the bracket, a playoff game). With the cache
    down the counter is unknown, so the text changes every ``every`` seconds instead: the pages
    then redraw on that beat, as they did when they reloaded themselves."""
    counter = read_counter(tournament_version_key(tournament_id))
    if counter is None:
        return f"t{int((time.time() if now is None else now) // every)}"
    return f"v{counter}"


def tournament_by_name(name: str) -> Tournament:
    try:
        return Tournament.objects.get(name=name)
    except Tournament.DoesNotExist:
        raise NoSuchTournament(f"There is no tournament called {name!r}.") from None


def qualifiers_of(
    ranked: list[logic.Standing], *, one_in: int, withdrawn: frozenset[str] = frozenset()
) -> list[str]:
    """The cut: one in ``one_in`` of the field (fraction rounded up), in standings order,
    passing over withdrawn entrants."""
    count = logic.qualifier_count(len(ranked), one_in=one_in)
    eligible = [s.record.entrant for s in ranked if s.record.entrant not in withdrawn]
    return eligible[:count]


def compute(
    rules: logic.TournamentRules,
    *,
    entrants: list[str],
    results: list[logic.Result],
    byes: list[str],
    draw_seed: int,
    withdrawn: frozenset[str] = frozenset(),
    playoffs: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The format's standings document (less its name) from plain data; also ``ranked`` and
    ``playoff_due`` (who must play a one-game playoff before the cut, where the chain says)."""
    recs = logic.records(rules, entrants, results, byes, playoffs or ())
    ranked = logic.rank(rules, recs.values(), draw_seed=draw_seed)
    qualifiers = qualifiers_of(ranked, one_in=rules.qualify_one_in, withdrawn=withdrawn)
    return {
        "standings": [s.record.as_row(s.rank) for s in ranked],
        "qualifiers": qualifiers,
        "bracket": [list(pair) for pair in brackets.bracket(len(qualifiers))],
        "ranked": ranked,
        "playoff_due": logic.playoff_due(rules, ranked, qualifiers, withdrawn=withdrawn),
    }


def standings_for_tournament(tournament: Tournament) -> dict[str, Any]:
    """``{"standings", "qualifiers", "bracket", "ranked"}`` from verified games and byes."""
    entrants = list(tournament.entrants.order_by("number").values_list("pk", "name", "status"))
    rows = list(
        TableGame.objects.filter(
            round__tournament=tournament, status=TableStatus.VERIFIED
        ).values_list(
            "first_id", "second_id", "winner_id", "loser_score", "first_spread", "second_spread"
        )
    )
    byes = list(
        Bye.objects.filter(round__tournament=tournament).values_list("entrant_id", flat=True)
    )
    # A verified game has its loser's score (as below, in many_standings).
    return standings_from_rows(tournament, entrants=entrants, games=rows, byes=byes)  # type: ignore[arg-type]


def standings_from_rows(
    tournament: Tournament,
    *,
    entrants: list[tuple[int, str, str]],
    games: list[tuple[int, int, int | None, int | None, int | None, int | None]],
    byes: list[int],
) -> dict[str, Any]:
    """The standings of ``tournament`` from its rows already fetched: entrants ``(pk, name,
    status)`` in entry order, verified games ``(first, second, winner, loser_score,
    first_spread, second_spread)`` (the spreads set only when ACC Rule 12.2 gave each side its
    own figure; then the winner may be None: a loss for both) and the entrant ids of its byes
    (so many events' standings cost no query each)."""
    names = {pk: name for pk, name, _status in entrants}
    withdrawn = frozenset(
        name for _pk, name, status in entrants if status == EntrantStatus.WITHDRAWN
    )
    results = [
        logic.Result(names[a], names[b], names[w], score)  # type: ignore[index,arg-type]
        if fs is None or ss is None
        else logic.Result(names[a], names[b], names.get(w, ""), score or 0, (fs, ss))  # type: ignore[arg-type]
        for a, b, w, score, fs, ss in games
    ]
    bye_names = [names[e] for e in byes]
    # Entrants who withdrew before playing are not part of the field.
    played = {name for r in results for name in (r.first, r.second)} if withdrawn else set()
    field = [
        name
        for _pk, name, status in entrants
        if status != EntrantStatus.WITHDRAWN or name in played or name in bye_names
    ]
    return compute(
        tournament.rules,
        entrants=field,
        results=results,
        byes=bye_names,
        draw_seed=tournament.draw_seed,
        withdrawn=withdrawn,
        playoffs=[(str(w), str(lose)) for w, lose in tournament.tiebreak_playoffs or ()],
    )


def standings_document(tournament: Tournament) -> dict[str, Any]:
    """What ``tournament_standings --format json`` prints, in the format's shape."""
    data = standings_for_tournament(tournament)
    return {
        "tournament": tournament.name,
        "standings": data["standings"],
        "qualifiers": data["qualifiers"],
        "bracket": data["bracket"],
    }


def rounds_with_seating(tournament: Tournament) -> QuerySet[Round]:
    """Rounds with their tables (both entrants) and byes, in order."""
    return tournament.rounds.order_by("number").prefetch_related(
        Prefetch(
            "games",
            queryset=TableGame.objects.select_related("first", "second", "winner").order_by(
                "table"
            ),
        ),
        Prefetch("byes", queryset=Bye.objects.select_related("entrant")),
    )


def current_round(tournament: Tournament) -> Round | None:
    return rounds_with_seating(tournament).order_by("-number").first()


@dataclass
class BracketMatch:
    match: PlayoffMatch
    wins: dict[int, int]  # entrant id -> games won

    @property
    def top_wins(self) -> int:
        return self.wins.get(self.match.top_id or 0, 0)

    @property
    def bottom_wins(self) -> int:
        return self.wins.get(self.match.bottom_id or 0, 0)


def bracket_rounds(tournament: Tournament) -> list[list[BracketMatch]]:
    """The bracket by round, each match with its games won so far."""
    matches = (
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top", "bottom", "winner")
        .prefetch_related("games")
        .order_by("round", "position")
    )
    rounds: list[list[BracketMatch]] = []
    for m in matches:
        wins: dict[int, int] = {}
        for g in m.games.all():
            wins[g.winner_id] = wins.get(g.winner_id, 0) + 1
        while len(rounds) < m.round:
            rounds.append([])
        rounds[m.round - 1].append(BracketMatch(m, wins))
    return rounds


def champion(tournament: Tournament) -> str | None:
    final = (
        PlayoffMatch.objects.filter(tournament=tournament, winner__isnull=False)
        .select_related("winner")
        .order_by("-round")
        .first()
    )
    if (
        final is None
        or PlayoffMatch.objects.filter(tournament=tournament, round__gt=final.round).exists()
    ):
        return None
    return final.winner.name if final.winner else None


def checkers_queue() -> QuerySet[TableGame]:
    """Games whose two scorecards disagree, oldest first, with both entries."""
    return (
        TableGame.objects.filter(status=TableStatus.MISMATCH)
        .select_related("round__tournament", "first", "second")
        .prefetch_related(
            Prefetch(
                "scorecards",
                queryset=Scorecard.objects.filter(by_checker=False).select_related(
                    "side", "winner", "entered_by"
                ),
            )
        )
        .order_by("round__tournament__name", "round__number", "table")
    )


def acc_rulings() -> QuerySet[TableGame]:
    """Tables whose result ACC Rule 12.2 gave (the rule's ruling is their last), newest first,
    with every card."""
    return (
        TableGame.objects.filter(
            status=TableStatus.VERIFIED, scorecards__by_checker=True, scorecards__acc_clause__gt=""
        )
        .distinct()
        .select_related("round__tournament", "first", "second", "winner")
        .prefetch_related(
            Prefetch("scorecards", queryset=Scorecard.objects.select_related("side", "winner"))
        )
        .order_by("-verified_at")
    )


def tables_with_cards() -> QuerySet[TableGame]:
    """Every table, with its event and the sides' cards in so far; ``acc_rule`` is the clause
    of the ACC ruling that settled it ("12.2(a)"), or "" or None."""
    ruling = Scorecard.objects.filter(game=OuterRef("pk"), by_checker=True).order_by("-at", "-pk")
    return (
        TableGame.objects.select_related("round__tournament", "first", "second", "winner")
        .annotate(acc_rule=Subquery(ruling.values("acc_clause")[:1]))
        .prefetch_related(
            Prefetch(
                "scorecards",
                queryset=Scorecard.objects.filter(by_checker=False).select_related(
                    "side", "winner"
                ),
            )
        )
        .order_by("round__tournament__name", "round__number", "table")
    )


def tables_awaiting_cards() -> QuerySet[TableGame]:
    """Tables of the running qualifying rounds whose result is still open (no card in, or one
    side's): where a checker keys in a paper scorecard."""
    return tables_with_cards().filter(
        status=TableStatus.OPEN, round__tournament__stage=TournamentStage.QUALIFYING
    )


def open_tables_for_player(player: Any) -> QuerySet[TableGame]:
    """Tables of a player's entrants whose results are still open (the phone's list)."""
    return (
        TableGame.objects.exclude(status=TableStatus.VERIFIED)
        .filter(round__tournament__stage="qualifying")
        .filter(Q(first__players=player) | Q(second__players=player))
        .select_related("round")
        .distinct()
        .order_by("round__number", "table")
    )


def open_playoff_matches_for_player(player: Any, tournament: Tournament) -> QuerySet[PlayoffMatch]:
    """The player's undecided playoff match with both entrants known (the phone's card)."""
    return (
        PlayoffMatch.objects.filter(
            tournament=tournament,
            winner__isnull=True,
            top__isnull=False,
            bottom__isnull=False,
        )
        .filter(Q(top__players=player) | Q(bottom__players=player))
        .select_related("top", "bottom")
        .distinct()
    )


def table_rows() -> QuerySet[TableGame]:
    """Tables with what ``TableSerializer`` and ``can()`` read (entrants and their players,
    the cards), in a fixed number of queries however many tables."""
    return (
        TableGame.objects.select_related("round", "first", "second", "winner")
        .prefetch_related("first__players", "second__players", "scorecards")
        .order_by("round__tournament_id", "round__number", "table")
    )


def rounds_for_api(tournament: Tournament) -> QuerySet[Round]:
    """Rounds with their tables as ``table_rows`` fetches them, and byes."""
    return tournament.rounds.order_by("number").prefetch_related(
        Prefetch("games", queryset=table_rows()),
        Prefetch("byes", queryset=Bye.objects.select_related("entrant")),
    )


def playoff_match_rows() -> QuerySet[PlayoffMatch]:
    """Playoff matches with their entrants and games, in bracket order."""
    return (
        PlayoffMatch.objects.select_related("top", "bottom", "winner")
        .prefetch_related(Prefetch("games", queryset=PlayoffGame.objects.select_related("winner")))
        .order_by("tournament_id", "round", "position")
    )


def bracket_document(tournament: Tournament) -> dict[str, Any]:
    """The bracket by round (empty until drawn) and the champion once the final is won."""
    rounds: list[list[PlayoffMatch]] = []
    for match in playoff_match_rows().filter(tournament=tournament):
        while len(rounds) < match.round:
            rounds.append([])
        rounds[match.round - 1].append(match)
    final = rounds[-1][0] if rounds and len(rounds[-1]) == 1 else None
    champion = final.winner.name if final is not None and final.winner is not None else None
    return {"tournament": tournament.name, "rounds": rounds, "champion": champion}


def table_seat_names(game: TableGame) -> list[str]:
    """The players by seat for a game at this table entered deal by deal: singles, the first
    entrant in seat 0 and the second in seat 1; partnerships, the first entrant's players in
    seats 0 and 2 and the second's in 1 and 3 (so side 0 is the first entrant)."""
    first = [str(r.player) for r in game.first.roster.select_related("player")]
    second = [str(r.player) for r in game.second.roster.select_related("player")]
    if game.round.tournament.is_partnership:
        first, second = [*first, "?", "?"][:2], [*second, "?", "?"][:2]
        return [first[0], second[0], first[1], second[1]]
    return [first[0] if first else game.first.name, second[0] if second else game.second.name]


def scorecard_entry_data(game: TableGame) -> dict[str, Any]:
    """What the deal-by-deal scorecard's script reads (the league's deal form): seats named by
    their players, the sides by the entrants, the scorer's entry rules for the event's game."""
    tournament = game.round.tournament
    variant = VARIANTS[tournament.variant]
    names = table_seat_names(game)
    return {
        "table": game.pk,
        "first_dealer": 0,
        "target": tournament.target,
        "skunk_margin": tournament.skunk_margin,
        "double_skunk_margin": tournament.double_skunk_margin,
        "seats": [
            {"seat": seat, "name": name, "side": variant.side_of(seat)}
            for seat, name in enumerate(names)
        ],
        "sides": [{"name": game.first.name}, {"name": game.second.name}],
        "rules": entry_rules(variant, target=tournament.target),
        "urls": {
            "show": reverse("league:score_show"),
            "scorecards": reverse("api:tablegame-scorecards", args=[game.pk]),
            "done": reverse("tournaments:tournament", args=[tournament.pk]),
        },
    }


# --------------------------------------------------------------------------------------------
# After the night: final places, club seasons, a player's lifetime record, the books
# --------------------------------------------------------------------------------------------


@dataclass
class Night:
    """One event's outcome as the season and player pages need it, computed from rows."""

    tournament: Tournament
    standings: dict[str, Any]  # as standings_for_tournament
    records: dict[str, logic.EntrantRecord]
    players: dict[str, list[int]]  # entrant name -> player ids
    seeded: frozenset[str]
    champion: str | None
    places: dict[str, int] | None  # once the final is decided

    def entrant_of(self, player_id: int) -> str | None:
        for name, ids in self.players.items():
            if player_id in ids:
                return name
        return None


def nights_of(tournaments: list[Tournament]) -> list[Night]:
    """The outcome of each of ``tournaments`` (in their order), in five queries for them all:
    entrants, their players, verified games, byes and playoff matches."""
    ids = [t.pk for t in tournaments]
    if not ids:
        return []
    entrants: dict[int, list[tuple[int, str, str]]] = {pk: [] for pk in ids}
    name_of: dict[int, str] = {}
    seeded: dict[int, set[str]] = {pk: set() for pk in ids}
    for tid, pk, name, status, seed in (
        Entrant.objects.filter(tournament_id__in=ids)
        .order_by("number")
        .values_list("tournament_id", "pk", "name", "status", "seed")
    ):
        entrants[tid].append((pk, name, status))
        name_of[pk] = name
        if seed is not None:
            seeded[tid].add(name)
    players: dict[int, dict[str, list[int]]] = {pk: {} for pk in ids}
    for tid, entrant_id, player_id in (
        EntrantPlayer.objects.filter(entrant__tournament_id__in=ids)
        .order_by("position")
        .values_list("entrant__tournament_id", "entrant_id", "player_id")
    ):
        players[tid].setdefault(name_of[entrant_id], []).append(player_id)
    games: dict[int, list[tuple[int, int, int | None, int | None, int | None, int | None]]] = {
        pk: [] for pk in ids
    }
    for tid, *row in TableGame.objects.filter(
        round__tournament_id__in=ids, status=TableStatus.VERIFIED
    ).values_list(
        "round__tournament_id",
        "first_id",
        "second_id",
        "winner_id",
        "loser_score",
        "first_spread",
        "second_spread",
    ):
        games[tid].append(tuple(row))  # type: ignore[arg-type]
    byes: dict[int, list[int]] = {pk: [] for pk in ids}
    for tid, entrant_id in Bye.objects.filter(round__tournament_id__in=ids).values_list(
        "round__tournament_id", "entrant_id"
    ):
        byes[tid].append(entrant_id)
    matches: dict[int, list[tuple[int, int | None, int | None, int | None, bool]]] = {
        pk: [] for pk in ids
    }
    for tid, *m in PlayoffMatch.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", "round", "top_id", "bottom_id", "winner_id", "is_bye"
    ):
        matches[tid].append(tuple(m))  # type: ignore[arg-type]
    out = []
    for t in tournaments:
        data = standings_from_rows(t, entrants=entrants[t.pk], games=games[t.pk], byes=byes[t.pk])
        champion, places = _outcome(t, data, matches[t.pk], name_of, seeded[t.pk])
        out.append(
            Night(
                tournament=t,
                standings=data,
                records={s.record.entrant: s.record for s in data["ranked"]},
                players=players[t.pk],
                seeded=frozenset(seeded[t.pk]),
                champion=champion,
                places=places,
            )
        )
    return out


def _outcome(
    tournament: Tournament,
    data: dict[str, Any],
    matches: list[tuple[int, int | None, int | None, int | None, bool]],
    name_of: dict[int, str],
    seeded: set[str],
) -> tuple[str | None, dict[str, int] | None]:
    """The champion and everyone's final place, once the final is decided."""
    if not matches:
        return None, None
    rounds = max(m[0] for m in matches)
    final = [m for m in matches if m[0] == rounds]
    if len(final) != 1 or final[0][3] is None:
        return None, None
    lost_in: dict[str, int] = {}
    for rnd, top, bottom, winner, is_bye in matches:
        if is_bye or winner is None or top is None or bottom is None:
            continue
        loser = bottom if winner == top else top
        lost_in[name_of[loser]] = rnd
    ranked = [(s.record.entrant, s.rank) for s in data["ranked"]]
    in_bracket = [name for name, _rank in ranked if name in seeded]
    places = logic.final_places(ranked, in_bracket=in_bracket, lost_in=lost_in, rounds=rounds)
    return name_of[final[0][3]], places


def night_points(season: ClubSeason, night: Night) -> dict[int, int]:
    """Player id -> the club-season points ``night`` earned them (every player who played)."""
    scheme = season.scheme
    out: dict[int, int] = {}
    for name, record in night.records.items():
        place = night.places.get(name) if night.places else None
        points = scheme.for_night(game_points=record.game_points, place=place)
        for player_id in night.players.get(name, []):
            out[player_id] = max(points, out.get(player_id, 0))
    return out


def club_season_standings(season: ClubSeason) -> dict[str, Any]:
    """A club season's table: the nights counted (those whose final is decided), each
    player's points per night, nights attended and total, ranked with ties named; and the
    nights still to finish. Eight queries, whatever the number of nights."""
    all_nights = list(season.nights.order_by("date", "pk"))
    counted = [t for t in all_nights if t.stage == TournamentStage.FINISHED]
    nights = nights_of(counted)
    per_night = [night_points(season, n) for n in nights]
    ids = {pk for points in per_night for pk in points}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    return {
        "season": season,
        "nights": counted,
        "pending": [t for t in all_nights if t.stage != TournamentStage.FINISHED],
        "rows": logic.season_table(per_night, names),
        "scheme": season.scheme,
    }


def player_tournament_record(player: Player) -> dict[str, Any]:
    """``player``'s tournament record across every event they entered: per event (entrant,
    record, cut made, place, title) and in total (events, qualifying games won and lost, game
    points, spread, cuts made, best finish, titles); and their place in each club season they
    played in. Eight queries, whatever the number of events (one if they entered none)."""
    events = list(
        Tournament.objects.filter(entrants__players=player)
        .select_related("club_season__club")
        .distinct()
        .order_by("date", "pk")
    )
    empty: dict[str, Any] = {
        "events": [],
        "played": 0,
        "won": 0,
        "lost": 0,
        "game_points": 0,
        "spread": 0,
        "cuts": 0,
        "best_finish": None,
        "titles": 0,
        "club_seasons": [],
    }
    if not events:
        return empty
    seasons = {t.club_season_id: t.club_season for t in events if t.club_season is not None}
    season_nights = [
        t
        for t in Tournament.objects.filter(
            club_season_id__in=list(seasons), stage=TournamentStage.FINISHED
        ).order_by("date", "pk")
        if seasons
    ]
    wanted = {t.pk: t for t in [*events, *season_nights]}
    by_pk = {n.tournament.pk: n for n in nights_of(list(wanted.values()))}
    out = dict(empty, events=[], club_seasons=[])
    for t in events:
        night = by_pk[t.pk]
        name = night.entrant_of(player.pk)
        record = night.records.get(name or "")
        if name is None or record is None:
            continue  # entered and withdrew before playing
        place = night.places.get(name) if night.places else None
        title = night.champion == name
        out["events"].append(
            {
                "tournament": t,
                "entrant": name,
                "record": record,
                "cut": name in night.seeded,
                "place": place,
                "of": len(night.records),
                "title": title,
            }
        )
        out["played"] += 1
        out["won"] += record.won
        out["lost"] += record.lost
        out["game_points"] += record.game_points
        out["spread"] += record.spread
        out["cuts"] += name in night.seeded
        out["titles"] += title
        if place is not None and (out["best_finish"] is None or place < out["best_finish"]):
            out["best_finish"] = place
    for season_id, season in seasons.items():
        nights = [by_pk[t.pk] for t in season_nights if t.club_season_id == season_id]
        per_night = [night_points(season, n) for n in nights]
        rows = logic.season_table(per_night, {pk: str(pk) for p in per_night for pk in p})
        mine = next((r for r in rows if r.key == player.pk), None)
        if mine is not None:
            out["club_seasons"].append(
                {"season": season, "row": mine, "of": len(rows), "nights": len(nights)}
            )
    out["events"].reverse()  # newest first on the page
    return out


@dataclass
class Books:
    """An event's money: its purse settings, the ledger and where it stands."""

    purse: Purse | None
    entries: list[LedgerEntry]
    pots: list[dict[str, Any]]
    money_in: int
    money_out: int
    by_kind: dict[str, int]
    plan: list[dict[str, Any]]  # the payout table as it stands: place, cents

    @property
    def balance(self) -> int:
        """Cents in less cents out: zero when every cent that came in has gone out."""
        return self.money_in - self.money_out

    @property
    def overpaid(self) -> int:
        """Cents more out than in (the page says it in words, not as a negative number)."""
        return -self.balance


def books_for(tournament: Tournament) -> Books:
    """The books of ``tournament``: four queries (the purse, the ledger, side pots, entrants)."""
    purse = Purse.objects.filter(tournament=tournament).first()
    entries = list(
        LedgerEntry.objects.filter(tournament=tournament)
        .select_related("entrant", "pot")
        .order_by("at", "pk")
    )
    by_kind: dict[str, int] = {}
    for e in entries:
        by_kind[e.kind] = by_kind.get(e.kind, 0) + e.amount
    pots = []
    for pot in SidePot.objects.filter(tournament=tournament).order_by("kind"):
        mine = [e for e in entries if e.pot_id == pot.pk]
        pots.append(
            {
                "pot": pot,
                "entrants": [e.entrant for e in mine if e.kind == LedgerKind.POT_ENTRY],
                "in": sum(e.amount for e in mine if e.kind in POT_IN),
                "carried_in": sum(e.amount for e in mine if e.kind == LedgerKind.POT_CARRIED_IN),
                "carried_out": sum(e.amount for e in mine if e.kind == LedgerKind.POT_CARRIED_OUT),
                "winners": [(e.entrant, e.amount) for e in mine if e.kind == LedgerKind.POT_PAYOUT],
                "out": sum(e.amount for e in mine if e.kind == LedgerKind.POT_PAYOUT),
            }
        )
    plan: list[dict[str, Any]] = []
    if purse is not None:
        fees = by_kind.get(LedgerKind.FEE, 0)
        fund = fees - house_share(purse, fees)
        field = tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()
        amounts = logic.payout_amounts(
            fund, mode=purse.payout_mode, table=purse.payout_table or [], entrants=field
        )
        plan = [{"place": i, "amount": a} for i, a in enumerate(amounts, start=1)]
    money_in = sum(e.amount for e in entries if e.is_in)
    return Books(
        purse=purse,
        entries=entries,
        pots=pots,
        money_in=money_in,
        money_out=sum(e.amount for e in entries) - money_in,
        by_kind=by_kind,
        plan=plan,
    )


def house_share(purse: Purse, fees: int) -> int:
    """The house's (club's) cut of ``fees`` cents, rounded down to the cent."""
    return fees * purse.house_percent // 100


def verified_results() -> list[RatedResult]:
    """Every verified qualifying table as a rated result for the ratings (two queries): each
    entrant's players, the winner's first, at the time the table was verified."""
    tables = TableGame.objects.filter(
        status=TableStatus.VERIFIED, winner__isnull=False, verified_at__isnull=False
    )
    rows = list(tables.values_list("pk", "verified_at", "first_id", "second_id", "winner_id"))
    players: dict[int, list[int]] = {}
    for entrant_id, player_id in EntrantPlayer.objects.values_list("entrant_id", "player_id"):
        players.setdefault(entrant_id, []).append(player_id)
    out = []
    for pk, at, first, second, winner in rows:
        if at is None or winner not in (first, second):
            continue
        loser = second if winner == first else first
        out.append(
            RatedResult(
                "table",
                pk,
                at,
                winners=tuple(players.get(winner, ())),
                losers=tuple(players.get(loser, ())),
            )
        )
    return out
