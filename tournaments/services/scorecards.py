"""Scorecards: both players' cards of a table, matched, verified or sent to the checkers."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_log
from league.kernel.entries import normalise, to_entry
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.permissions import Action, Actor, actor_of, refuse_unless
from league.kernel.scoring_messages import scoring_message
from scoring.errors import ScoringError
from scoring.game import Game as ScoredGame
from scoring.variants import VARIANTS
from tournaments import logic
from tournaments.checks import NOT_AT_TABLE, table_side_of
from tournaments.models import (
    Entrant,
    RoundStatus,
    Scorecard,
    TableGame,
    TableStatus,
)
from tournaments.selectors import (
    table_seat_names,
)
from tournaments.services._common import MAX_DEALS, _changed, _lock


def _check_result(game: TableGame, winner: Entrant, loser_score: Any) -> int:
    if winner.pk not in (game.first_id, game.second_id):
        raise ValidationFailed(
            _("The winner must be one of the two entrants at table %(table)s: %(a)s or %(b)s.")
            % {"table": game.table, "a": game.first.name, "b": game.second.name},
            field="winner",
        )
    target = game.round.tournament.target
    try:
        return logic.check_loser_score(game.round.tournament.rules, loser_score)
    except ValueError:
        raise ValidationFailed(
            _("The loser's score must be a whole number from 0 to %(top)s.") % {"top": target - 1},
            field="loser_score",
        ) from None


def result_from_deals(
    game: TableGame, deals: Any, *, first_dealer: Any = 0
) -> tuple[Entrant, int, dict[str, Any]]:
    """A game entered deal by deal, checked by the league's scorer with the league's entry
    rules for the event's game (singles or partnership, to the event's target): the winner,
    the loser's score and what is stored of the deals. Every refusal names its deal."""
    tournament = game.round.tournament
    variant = VARIANTS[tournament.variant]
    if not isinstance(deals, list) or not deals:
        raise ValidationFailed(_("Enter the game's deals, the first deal first."), field="deals")
    if len(deals) > MAX_DEALS:
        raise ValidationFailed(
            _("A game has at most %(n)s deals.") % {"n": MAX_DEALS}, field="deals"
        )
    if type(first_dealer) is not int or not 0 <= first_dealer < variant.players:
        raise ValidationFailed(
            _("Say who dealt first: a seat from 0 to %(top)s.") % {"top": variant.players - 1},
            field="first_dealer",
        )
    seats = table_seat_names(game)
    sides = [game.first.name, game.second.name]
    scored = ScoredGame(variant, first_dealer=first_dealer, target=tournament.target)
    normals = []
    for number, raw in enumerate(deals, start=1):
        if scored.finished:
            raise ValidationFailed(
                _("The game was over after deal %(n)s: nothing after it counts.")
                % {"n": number - 1},
                field=f"deals.{number}",
            )
        try:
            normal = normalise(raw, variant=variant)
            scored.record(to_entry(normal))
        except ValidationFailed as exc:
            raise ValidationFailed(
                _("Deal %(n)s: %(why)s") % {"n": number, "why": exc.message},
                field=f"deals.{number}" + (f".{exc.field}" if exc.field else ""),
            ) from None
        except ScoringError as exc:
            why = scoring_message(exc, seats=seats, sides=sides)
            field = getattr(exc, "field", None)
            raise ValidationFailed(
                _("Deal %(n)s: %(why)s") % {"n": number, "why": why},
                field=f"deals.{number}" + (f".{field}" if field else ""),
            ) from None
        normals.append(normal)
    if scored.winner is None:
        raise ValidationFailed(
            _(
                "After deal %(n)s nobody has reached %(target)s yet: enter the rest of the "
                "game, or only the winner and the loser's score."
            )
            % {"n": len(normals), "target": tournament.target},
            field="deals",
        )
    winner = game.first if scored.winner == 0 else game.second
    loser_score = scored.scores[1 - scored.winner]
    return winner, loser_score, {"first_dealer": first_dealer, "deals": normals}


def _state_to_status(state: lifecycle.CardState) -> str:
    if state in (lifecycle.CardState.VERIFIED, lifecycle.CardState.SETTLED):
        return TableStatus.VERIFIED
    if state == lifecycle.CardState.MISMATCH:
        return TableStatus.MISMATCH
    return TableStatus.OPEN


def _store_state(game: TableGame) -> None:
    """Write the table's status (and its result, once it stands) as lifecycle reads its cards."""
    cards = list(game.scorecards.order_by("at", "pk"))
    state = lifecycle.scorecard_state(game.cards)
    status = _state_to_status(state)
    if status == TableStatus.VERIFIED:
        ruling = [c for c in cards if c.by_checker]
        standing = ruling[-1] if ruling else cards[-1]
        game.winner_id = standing.winner_id
        game.loser_score = standing.loser_score
        game.verified_at = timezone.now()
    game.status = status
    game.save(update_fields=["winner", "loser_score", "status", "verified_at"])


def _where(game: TableGame) -> dict[str, object]:
    """How a table stands, for a conflict: its number and its round's."""
    return {"table": game.table, "round": game.round.number}


def _replayed(key: str | None, game: TableGame, user: Actor, result: tuple[int, int]) -> bool:
    """Whether ``key`` already stored this very card (a retry after a lost answer); a key
    that stored another card is a conflict, and nothing is stored."""
    stored = replay(
        stored_by_key(Scorecard, key),
        same=lambda card: (
            card.game_id == game.pk
            and card.result == result
            and card.entered_by_id == getattr(actor_of(user), "pk", None)
        ),
        conflict=_("This key was already used for another scorecard."),
    )
    return stored is not None


def scorecard_enter(
    *,
    user: Actor,
    game: TableGame,
    winner: Entrant | None = None,
    loser_score: Any = None,
    side: Entrant | None = None,
    deals: Any = None,
    first_dealer: Any = 0,
    key: Any = None,
) -> tuple[TableGame, bool]:
    """A side's card of the result, ``(game, created)``: a player's own (their side is found
    from their account), or a checker keying in one side's paper card (``side`` given).
    The card gives the winner and the loser's score, or the game deal by deal (``deals``,
    checked by the scorer, which then gives both). Two matching cards verify the game; two
    that disagree send it to the checkers' queue. Each side enters once (lifecycle: a side's
    card is its vouch); the same ``key`` sent again returns the stored card (``created``
    False) instead of a refusal, so a phone may retry safely."""
    key = checked_key(key)
    if side is None:
        action = Action.ENTER_SCORECARD
        side_index = table_side_of(user, game)
    else:
        action = Action.CHECK_SCORECARDS
        side_index = game.side_index(side.pk)
        if side_index is None:
            raise ValidationFailed(_("That scorecard is not from this table."), field="side")
    stored_deals = None
    if deals is not None:
        from_deals, score_from_deals, stored_deals = result_from_deals(
            game, deals, first_dealer=first_dealer
        )
        if winner is not None and winner.pk != from_deals.pk:
            raise ValidationFailed(
                _("The deals give the game to %(name)s.") % {"name": from_deals.name},
                field="winner",
            )
        if loser_score is not None and loser_score != score_from_deals:
            raise ValidationFailed(
                _("The deals leave the loser at %(score)s.") % {"score": score_from_deals},
                field="loser_score",
            )
        winner, loser_score = from_deals, score_from_deals
    if winner is None:
        raise ValidationFailed(_("Say who won."), field="winner")
    if _replayed(key, game, user, (winner.pk, loser_score)):
        return TableGame.objects.get(pk=game.pk), False
    refuse_unless(user, action, game, current=lambda: _where(game))
    if side_index is None:  # a checker who does not play here keys in a card with its side
        raise NOT_AT_TABLE.exception()
    score = _check_result(game, winner, loser_score)
    with transaction.atomic():
        _lock(game.round.tournament)
        game = TableGame.objects.select_related("round", "first", "second").get(pk=game.pk)
        if _replayed(key, game, user, (winner.pk, score)):
            return game, False
        where = _where(game)
        entrant = game.first if side_index == 0 else game.second
        event = lifecycle.Event.ENTER_SCORECARD
        if action == Action.CHECK_SCORECARDS:  # a paper card: the refusal names its side
            lifecycle.require(event, lifecycle.status_of(game.facts), current=where)
            if not lifecycle.allows_side(event, game.facts, side_index):
                raise Locked(
                    _(
                        "The scorecard for %(name)s is already in. If it is wrong, settle the "
                        "table in the checkers' queue."
                    )
                    % {"name": entrant.name},
                    current=where,
                )
        lifecycle.require_side(event, game.facts, side_index, current=where)
        Scorecard.objects.create(
            game=game,
            side_id=entrant.pk,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(user),
            key=key,
            deals=stored_deals,
        )
        if game.round.status == RoundStatus.SEATED:
            game.round.status = RoundStatus.STARTED
            game.round.save(update_fields=["status"])
        _store_state(game)
        audit_log(
            actor=user,
            action=AuditAction.SCORECARD_SUBMIT,
            obj=game,
            after={
                "side": entrant.name,
                "winner": winner.name,
                "loser_score": score,
                "deal_by_deal": stored_deals is not None,
                "status": game.status,
            },
        )
    _changed(game.round.tournament_id)
    return game, True


def scorecard_submit(
    *,
    user: Actor,
    game: TableGame,
    winner: Entrant | None = None,
    loser_score: Any = None,
    side: Entrant | None = None,
    deals: Any = None,
    first_dealer: Any = 0,
    key: Any = None,
) -> TableGame:
    """``scorecard_enter``, answering the table's game only."""
    return scorecard_enter(
        user=user,
        game=game,
        winner=winner,
        loser_score=loser_score,
        side=side,
        deals=deals,
        first_dealer=first_dealer,
        key=key,
    )[0]


def scorecard_settle(
    *, user: Actor, game: TableGame, winner: Entrant, loser_score: Any
) -> TableGame:
    """A checker's entry: it settles the game, whatever the players wrote (lifecycle: a ruling
    vouches for both sides)."""
    refuse_unless(user, Action.CHECK_SCORECARDS, game, current=lambda: _where(game))
    score = _check_result(game, winner, loser_score)
    with transaction.atomic():
        _lock(game.round.tournament)
        game = TableGame.objects.select_related("round").get(pk=game.pk)
        lifecycle.require(
            lifecycle.Event.SETTLE_SCORECARDS,
            lifecycle.status_of(game.facts),
            current={"table": game.table, "round": game.round.number},
        )
        Scorecard.objects.create(
            game=game,
            winner=winner,
            loser_score=score,
            by_checker=True,
            entered_by=actor_of(user),
        )
        _store_state(game)
        audit_log(
            actor=user,
            action=AuditAction.SCORECARD_SETTLE,
            obj=game,
            after={"winner": winner.name, "loser_score": score},
        )
    _changed(game.round.tournament_id)
    return game
