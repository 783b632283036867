"""The tables: the checkers' queue and rulings, the tables awaiting cards, a player's open
tables and matches, and what the API and the scorecard page read of them."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.urls import reverse

from scoring.game import entry_rules
from scoring.variants import VARIANTS
from tournaments.models import (
    Bye,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Scorecard,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)


def checkers_queue() -> QuerySet[TableGame]:
    """Games whose two scorecards disagree, oldest first, with both entries."""
    return (
        TableGame.objects.filter(status=TableState.MISMATCH)
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
            status=TableState.VERIFIED, scorecards__by_checker=True, scorecards__acc_clause__gt=""
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
        status=TableState.OPEN, round__tournament__stage=TournamentStage.QUALIFYING
    )


def open_tables_for_player(player: Any) -> QuerySet[TableGame]:
    """Tables of a player's entrants whose results are still open (the phone's list)."""
    return (
        TableGame.objects.exclude(status=TableState.VERIFIED)
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
