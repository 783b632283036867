"""Seating: each qualifying round seated at numbered tables, no repeat opponent."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.permissions import Action, Actor
from tournaments import logic
from tournaments.models import (
    Bye,
    Entrant,
    EntrantStatus,
    Round,
    RoundStatus,
    Scorecard,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)
from tournaments.services._common import _changed, _lock, _require


def _history(tournament: Tournament) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    met: dict[int, dict[int, int]] = {}
    for a, b in TableGame.objects.filter(round__tournament=tournament).values_list(
        "first_id", "second_id"
    ):
        met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
        met.setdefault(b, {})[a] = met.get(b, {}).get(a, 0) + 1
    byes: dict[int, int] = {}
    for e in Bye.objects.filter(round__tournament=tournament).values_list("entrant_id", flat=True):
        byes[e] = byes.get(e, 0) + 1
    return met, byes


def round_seat_next(*, user: Actor, tournament: Tournament) -> Round:
    """Seat the next qualifying round of the checked-in field at numbered tables."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage not in (TournamentStage.REGISTRATION, TournamentStage.QUALIFYING):
            raise Locked(_("The qualifying rounds are over."))
        last = tournament.rounds.order_by("-number").first()
        if last is not None:
            open_games = last.games.exclude(status=TableState.VERIFIED).count()
            if open_games:
                raise Locked(
                    _("Round %(round)s still has %(count)s game(s) without a verified result.")
                    % {"round": last.number, "count": open_games}
                )
        number = (last.number if last else 0) + 1
        if number > tournament.games_per_entrant:
            raise Locked(
                _("All %(count)s qualifying rounds have been seated.")
                % {"count": tournament.games_per_entrant}
            )
        field = list(
            tournament.entrants.filter(status=EntrantStatus.CHECKED_IN)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        if len(field) < 2:
            raise ValidationFailed(_("Check in at least two entrants before seating a round."))
        met, byes = _history(tournament)
        seating = _seating(tournament, number, field, last, met, byes)
        rnd = _store_round(tournament, number, seating)
        if tournament.stage == TournamentStage.REGISTRATION:
            tournament.stage = TournamentStage.QUALIFYING
            tournament.save(update_fields=["stage"])
        audit_log(
            actor=user,
            action=AuditAction.ROUND_SEAT,
            obj=rnd,
            after={"round": number, "tables": len(seating.tables), "bye": seating.bye},
        )
    _changed(tournament.pk)
    return rnd


def _seating(
    tournament: Tournament,
    number: int,
    field: list[int],
    last: Round | None,
    met: dict[int, dict[int, int]],
    byes: dict[int, int],
) -> logic.Seating[int]:
    """Round ``number``'s seating. Where the event plays two games a pairing, an even round
    is the previous one again with the sides swapped (who deals first alternates), as long as
    its field is unchanged; an odd round is a new pairing. "Keep apart" pairs never share a
    table when the field can be seated otherwise."""
    pairs = tournament.games_per_opponent == 2
    if pairs and number % 2 == 0 and last is not None:
        previous = logic.Seating(
            tables=list(last.games.order_by("table").values_list("first_id", "second_id")),
            bye=last.byes.values_list("entrant_id", flat=True).first(),
        )
        seated = {e for table in previous.tables for e in table} | {previous.bye} - {None}
        if seated == set(field):
            return logic.second_game(previous)
    names = dict(tournament.entrants.values_list("name", "pk"))
    apart = [
        (names[a], names[b])
        for a, b in (tuple(pair) for pair in tournament.keep_apart or () if len(pair) == 2)
        if a in names and b in names
    ]
    index = (number - 1) // 2 if pairs else number - 1
    return logic.seat_round(field, index=index, met=logic.with_kept_apart(met, apart), byes=byes)


def _store_round(tournament: Tournament, number: int, seating: logic.Seating[int]) -> Round:
    rnd = Round.objects.create(tournament=tournament, number=number)
    TableGame.objects.bulk_create(
        TableGame(round=rnd, table=i, first_id=a, second_id=b)
        for i, (a, b) in enumerate(seating.tables, start=1)
    )
    if seating.bye is not None:
        Bye.objects.create(round=rnd, entrant_id=seating.bye)
    return rnd


def round_swap(*, user: Actor, round: Round, a: Entrant, b: Entrant) -> Round:
    """Swap two entrants' seats (a table or the bye) before the round starts."""
    _require(user, Action.RUN_TOURNAMENT, round.tournament)
    if a.pk == b.pk:
        raise ValidationFailed(_("Pick two different entrants to swap."))
    with transaction.atomic():
        _lock(round.tournament)
        # The round's row locked too: a first card marks the round started before it locks its
        # table (services.scorecards), so a swap and a card never pass each other.
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.status != RoundStatus.SEATED or Scorecard.objects.filter(game__round=rnd).exists():
            raise Locked(
                _("Round %(round)s has started: seats can no longer be swapped.")
                % {"round": rnd.number}
            )
        seats: dict[int, tuple[Any, str]] = {}
        for game in rnd.games.all():
            seats[game.first_id] = (game, "first_id")
            seats[game.second_id] = (game, "second_id")
        for bye in rnd.byes.all():
            seats[bye.entrant_id] = (bye, "entrant_id")
        for e in (a, b):
            if e.pk not in seats:
                raise ValidationFailed(
                    _("%(name)s is not seated in round %(round)s.")
                    % {"name": e.name, "round": rnd.number}
                )
        (obj_a, attr_a), (obj_b, attr_b) = seats[a.pk], seats[b.pk]
        if obj_a is obj_b:
            raise ValidationFailed(
                _("%(a)s and %(b)s sit at the same table already.") % {"a": a.name, "b": b.name}
            )
        setattr(obj_a, attr_a, b.pk)
        setattr(obj_b, attr_b, a.pk)
        obj_a.save(update_fields=[attr_a.removesuffix("_id")])
        obj_b.save(update_fields=[attr_b.removesuffix("_id")])
        audit_log(
            actor=user, action=AuditAction.ROUND_SWAP, obj=rnd, after={"swapped": [a.name, b.name]}
        )
    _changed(rnd.tournament_id)
    return rnd


def round_start(*, user: Actor, round: Round) -> Round:
    _require(user, Action.RUN_TOURNAMENT, round.tournament)
    with transaction.atomic():
        _lock(round.tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.status == RoundStatus.SEATED:
            rnd.status = RoundStatus.STARTED
            rnd.started_at = timezone.now()  # the round clock counts from here
            rnd.save(update_fields=["status", "started_at"])
            audit_log(actor=user, action=AuditAction.ROUND_START, obj=rnd)
    _changed(rnd.tournament_id)
    return rnd
