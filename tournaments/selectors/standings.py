"""A tournament's standings and the cut, the seating of a round and the bracket."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from contest import brackets
from league.kernel.cache import read_counter, tournament_version_key
from league.kernel.errors import DomainError
from tournaments import logic
from tournaments.models import (
    Bye,
    EntrantStatus,
    PlayoffMatch,
    Round,
    TableGame,
    TableState,
    Tournament,
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
            round__tournament=tournament, status=TableState.VERIFIED
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
