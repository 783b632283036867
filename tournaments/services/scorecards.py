"""Scorecards: both players' cards of a table, matched, verified or sent to the checkers."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest import crosscheck
from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_entry, audit_log, audit_write_many
from league.kernel.entries import read_deal
from league.kernel.errors import Conflict, Locked, ValidationFailed
from league.kernel.idempotency import checked_key, replay
from league.kernel.permissions import Action, Actor, Trusted, actor_of, refuse_unless
from league.kernel.ratings import ratings_changed
from league.kernel.scoring_messages import scoring_message
from scoring.errors import ScoringError
from scoring.game import Game as ScoredGame
from scoring.variants import VARIANTS
from tournaments import logic
from tournaments.checks import ASKER_SIDE, NOT_AT_TABLE, PLAYS_HERE, table_side_of
from tournaments.models import (
    Entrant,
    Round,
    RoundStatus,
    Scorecard,
    TableGame,
    TableState,
    TournamentStage,
)
from tournaments.selectors import (
    standings_for_tournament,
    table_seat_names,
)
from tournaments.services._common import MAX_DEALS, _changed, _lock
from tournaments.services.bracket import table_entrant
from tournaments.services.card_read import CardTable, card_table
from tournaments.services.notify import notify_acc_card_changed


def result_check(game: TableGame, winner: Entrant, loser_score: Any) -> int:
    """The loser's score of a table's result, checked as at the table (the winner is one of its
    two entrants; the score a whole number below the target); the tournament archive's
    importer checks its games with it too."""
    if winner.pk is None:  # a game planned in memory (an archive): its entrants as objects
        at_table = winner in (game.first, game.second)
    else:
        at_table = winner.pk in (game.first_id, game.second_id)
    if not at_table:
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
            sent = read_deal(raw, variant=variant)
            normal = sent.normal
            scored.record(sent.entry)
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


def _keep_cards(game: TableGame, cards: list[Scorecard]) -> None:
    """Hold ``cards`` (all the table's, in order) as ``game.scorecards.all()``: the state, the
    ACC rule and the answer read them with no query."""
    game._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    held = game.scorecards.order_by("at", "pk")  # as ``prefetch_related`` holds it: unread
    held._result_cache = cards
    held._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"scorecards": held}  # type: ignore[attr-defined]


def _store_state(
    game: TableGame, cards: list[Scorecard] | None = None, *, as_read: bool = False
) -> None:
    """Write the table's status (and its result, once it stands) as lifecycle reads its cards
    (``cards``: all of them in order, already read; else one query), in one UPDATE.
    ``as_read``: ``game`` is as its row was read (nothing set on it since), so a status that
    stays what it was, short of verified, writes nothing (a table's first card: the table is
    still open, its result still none)."""
    if cards is None:
        cards = list(game.scorecards.order_by("at", "pk"))
    _keep_cards(game, cards)
    status = game.state.stored
    if as_read and status == game.status and status != TableState.VERIFIED:
        return
    if status == TableState.VERIFIED:
        ruling = [c for c in cards if c.by_checker]
        standing = ruling[-1] if ruling else cards[-1]
        game.winner_id = standing.winner_id
        game.loser_score = standing.loser_score
        game.first_spread, game.second_spread = standing.first_spread, standing.second_spread
        game.verified_at = timezone.now()
    if TableState.VERIFIED in (status, game.status):
        ratings_changed()  # a result stands, or stood: the ratings follow after commit
    game.status = status
    game.save(
        update_fields=[
            "winner",
            "loser_score",
            "first_spread",
            "second_spread",
            "status",
            "verified_at",
        ]
    )


def _where(game: TableGame) -> dict[str, object]:
    """How a table stands, for a conflict: its number and its round's."""
    return {"table": game.table, "round": game.round.number}


def _replayed(
    stored: Scorecard | None, game: TableGame, user: Actor, result: tuple[int, int]
) -> bool:
    """Whether ``stored`` (the card this request's key stored before, or None) is this very
    card (a retry after a lost answer); a key that stored another card is a conflict, and
    nothing is stored."""
    found = replay(
        stored,
        same=lambda card: (
            card.game_id == game.pk
            and card.result == result
            and card.entered_by_id == getattr(actor_of(user), "pk", None)
        ),
        conflict=_("This key was already used for another scorecard."),
    )
    return found is not None


def _asker(user: Actor) -> int | None:
    """The id of the account asking, when the card path may read its side with the table."""
    if isinstance(user, Trusted) or not getattr(user, "is_authenticated", False):
        return None
    pk: int | None = user.pk
    return pk


def _locked_table(game: TableGame, *related: str) -> TableGame:
    """``game`` read again with its row locked (after the tournament's, by a checker's change:
    a card locks the table's row alone, so the two never cross on one table)."""
    rows = TableGame.objects.select_for_update(of=("self",)).select_related(*related)
    return rows.get(pk=game.pk)


def _entrant(table: TableGame, entrant: Entrant | int | None, *, field: str) -> Entrant | None:
    """``entrant`` (an entrant, or a client's id) as the table's own entrant object; one not of
    the table is refused as ``table_entrant`` refuses it."""
    if entrant is None:
        return None
    pk = entrant if isinstance(entrant, int) else entrant.pk
    if isinstance(entrant, Entrant) and pk not in (table.first_id, table.second_id):
        return entrant  # refused below with the table's words (``result_check``)
    return table_entrant(table, pk, field=field)


class _FirstOfRound(Exception):
    """The table's round is still only seated: the card starts it (the round's row first)."""


def scorecard_enter(
    *,
    user: Actor,
    game: TableGame | int,
    winner: Entrant | int | None = None,
    loser_score: Any = None,
    side: Entrant | int | None = None,
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
    False) instead of a refusal, so a phone may retry safely. ``game``, ``winner`` and
    ``side`` may be ids (a request's): a table that does not exist is
    ``TableGame.DoesNotExist``.

    The path (the deal path's, bench/README.md): in one transaction, the table's row alone is
    locked, then read in one statement (``card_read``: its round, tournament, entrants, cards,
    the asker's side and the key's table), the card checked, and the card, the table's state
    and the audit written, an ACC ruling with them. The first card of a round still only
    seated lets the table go at once and starts again, marking the round started before it
    locks the table: the row order ``round_swap`` takes too."""
    key = checked_key(key)
    asker = _asker(user)
    pk = game.pk if isinstance(game, TableGame) else game
    card = {
        "winner": winner,
        "loser_score": loser_score,
        "side": side,
        "deals": deals,
        "first_dealer": first_dealer,
    }
    first_of_round = False
    round_id = 0  # the table's round, from the first read (before the round is started)
    try:
        while True:
            try:
                with transaction.atomic():
                    if first_of_round:  # the round's row first, then the table's
                        Round.objects.filter(pk=round_id, status=RoundStatus.SEATED).update(
                            status=RoundStatus.STARTED
                        )
                    read = card_table(pk, asker=asker, key=key, lock=True)
                    round_id = read.game.round_id
                    if read.game.round.status == RoundStatus.SEATED and not first_of_round:
                        raise _FirstOfRound  # the table's lock goes with the rollback
                    answer = _enter_locked(user, read, key=key, asker=asker, **card)
                break
            except _FirstOfRound:
                first_of_round = True
    except IntegrityError:  # the key stored a card at another table a moment before
        raise Conflict(_("This key was already used for another scorecard."), field="key") from None
    game, created = answer
    if created:
        _changed(game.round.tournament_id)
    return _answer(game), created


def _enter_locked(
    user: Actor,
    read: CardTable,
    *,
    key: str | None,
    asker: int | None,
    winner: Entrant | int | None,
    loser_score: Any,
    side: Entrant | int | None,
    deals: Any,
    first_dealer: Any,
) -> tuple[TableGame, bool]:
    """``scorecard_enter`` once its table is locked and read."""
    game, cards = read.game, read.cards
    if asker is not None:
        setattr(game, ASKER_SIDE, (asker, read.asker_side))
    _keep_cards(game, cards)
    side_entrant = _entrant(game, side, field="side")
    winner_entrant = _entrant(game, winner, field="winner")
    if side is None:
        action = Action.ENTER_SCORECARD
    else:
        action = Action.CHECK_SCORECARDS
        assert side_entrant is not None
        if game.side_index(side_entrant.pk) is None:
            raise ValidationFailed(_("That scorecard is not from this table."), field="side")
    stored_deals = None
    if deals is not None:
        from_deals, score_from_deals, stored_deals = result_from_deals(
            game, deals, first_dealer=first_dealer
        )
        if winner_entrant is not None and winner_entrant.pk != from_deals.pk:
            raise ValidationFailed(
                _("The deals give the game to %(name)s.") % {"name": from_deals.name},
                field="winner",
            )
        if loser_score is not None and loser_score != score_from_deals:
            raise ValidationFailed(
                _("The deals leave the loser at %(score)s.") % {"score": score_from_deals},
                field="loser_score",
            )
        winner_entrant, loser_score = from_deals, score_from_deals
    if winner_entrant is None:
        raise ValidationFailed(_("Say who won."), field="winner")
    if read.key_game is not None and read.key_game != game.pk:  # the key's card is elsewhere
        raise Conflict(_("This key was already used for another scorecard."), field="key")
    stored = next((c for c in cards if key and c.key == key), None)
    if _replayed(stored, game, user, (winner_entrant.pk, loser_score)):
        return game, False
    refuse_unless(user, action, game, current=lambda: _where(game))
    if side_entrant is None:
        side_index = table_side_of(user, game)
    else:
        side_index = game.side_index(side_entrant.pk)
    if side_index is None:  # a checker not of this table keys in a card with its side
        raise NOT_AT_TABLE.exception()
    score = result_check(game, winner_entrant, loser_score)
    entered = game.first if winner_entrant.pk == game.first_id else game.second
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
    card = Scorecard(
        game=game,
        side_id=entrant.pk,
        winner=entered,
        loser_score=score,
        entered_by=actor_of(user),
        key=key,
        deals=stored_deals,
    )
    written = [card]
    trail = []
    _keep_cards(game, [*cards, card])
    if game.state == TableState.MISMATCH and game.round.tournament.acc_rules:
        ruled = _acc_ruling(user, game)
        if ruled is not None:
            written.append(ruled[0])
            trail.append(ruled[1])
    Scorecard.objects.bulk_create(written)
    _store_state(game, [*cards, *written], as_read=True)
    trail.append(
        audit_entry(
            actor=user,
            action=AuditAction.SCORECARD_SUBMIT,
            obj=game,
            after={
                "side": entrant.name,
                "winner": entered.name,
                "loser_score": score,
                "deal_by_deal": stored_deals is not None,
                "status": game.status,
            },
        )
    )
    audit_write_many(trail)
    return game, True


def _answer(game: TableGame) -> TableGame:
    """The table as its answer reads it (``TableSerializer``), with no further query: its
    winner is one of its two entrants, already read."""
    by_pk = {game.first_id: game.first, game.second_id: game.second}
    game.winner = by_pk.get(game.winner_id)  # type: ignore[arg-type]
    return game


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
    score = result_check(game, winner, loser_score)
    with transaction.atomic():
        _lock(game.round.tournament)
        game = _locked_table(game, "round")
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


# --------------------------------------------------------------------------------------------
# ACC Rule 12.2: two cards that disagree, settled without asking the players
# --------------------------------------------------------------------------------------------


def _claim(game: TableGame, card: Scorecard) -> crosscheck.Claim:
    """A player's card as the ACC's scorecard reads it: a win or a loss for that player, the
    spread (the target less the loser's score) in the column that goes with it."""
    target = game.round.tournament.target
    spread = None if card.loser_score is None else target - card.loser_score
    return crosscheck.Claim(won=card.winner_id == card.side_id, spread=spread)


def _acc_inputs(
    game: TableGame,
) -> tuple[crosscheck.Claim, crosscheck.Claim, bool, bool] | None:
    """The two players' cards as Rule 12.2 reads them and whether each player is an apparent
    qualifier (None: not two cards)."""
    cards = {c.side_id: c for c in game.scorecards.all() if not c.by_checker}
    first, second = cards.get(game.first_id), cards.get(game.second_id)
    if first is None or second is None:
        return None
    qualifiers = _apparent_qualifiers(game.round.tournament)
    return (
        _claim(game, first),
        _claim(game, second),
        game.first.name in qualifiers,
        game.second.name in qualifiers,
    )


def acc_resolution(game: TableGame) -> crosscheck.Resolution | crosscheck.Unsettled | None:
    """What Rule 12.2 makes of the table's two players' cards (None: not two cards). The
    apparent qualifiers are the entrants inside the cut on the games verified so far; clause
    (h) applies where the event's ``acc_no_harm`` setting has it."""
    found = _acc_inputs(game)
    if found is None:
        return None
    first, second, first_qualifies, second_qualifies = found
    return crosscheck.resolve(
        first,
        second,
        first_qualifies=first_qualifies,
        second_qualifies=second_qualifies,
        no_harm=game.round.tournament.acc_no_harm,
    )


def _apparent_qualifiers(tournament: Any) -> set[str]:
    """The entrants inside the cut on the games verified so far, with everyone level with the
    last qualifier (the draw, which only orders a tie, makes no one a qualifier): before the
    first result every entrant is one, so the rule takes the worse figure for both."""
    data = standings_for_tournament(tournament)
    qualifiers = data["qualifiers"]
    if not qualifiers:
        return set()
    ranks = {s.record.entrant: s.rank for s in data["ranked"]}
    line = ranks[qualifiers[-1]]
    return {name for name, rank in ranks.items() if rank <= line}


def _acc_ruling(user: Actor, game: TableGame) -> tuple[Scorecard, Any] | None:
    """The ruling card (unsaved) and its audit entry that settle a table whose two cards
    disagree by Rule 12.2, when the rule settles it; otherwise None, and the table stays in
    the checkers' queue. One result (one win, one loss, one spread) is the table's result;
    when the rule leaves each side its own figure (12.2(b) with two different spreads, 12.2(e)
    a loss for both) the ruling keeps both signed spreads, which the standings read, and the
    table's one result is the winner's figure (none for 12.2(e)). Written by the entering
    transaction with the card that met the other, so the table never shows the disagreement
    settled half-way. The apparent qualifiers are read from the games verified when the card
    comes in (the table's row is locked, not the event's: a card of another table committing
    meanwhile counts from the next card on)."""
    inputs = _acc_inputs(game)
    if inputs is None:
        return None
    first, second, first_qualifies, second_qualifies = inputs
    found = crosscheck.resolve(
        first,
        second,
        first_qualifies=first_qualifies,
        second_qualifies=second_qualifies,
        no_harm=game.round.tournament.acc_no_harm,
    )
    if not isinstance(found, crosscheck.Resolution) or not found.clauses:
        return None
    target = game.round.tournament.target
    spreads: tuple[int, int] | None = None
    if not found.one_result:
        spreads = (found.first.signed, found.second.signed)
    side = found.first if found.first.won else found.second if found.second.won else None
    winner = None if side is None else game.first if side is found.first else game.second
    loser_score = None if side is None else target - side.spread
    ruling = Scorecard(
        game=game,
        winner=winner,
        loser_score=loser_score,
        by_checker=True,
        acc_clause=found.clause,
        first_spread=spreads[0] if spreads else None,
        second_spread=spreads[1] if spreads else None,
    )
    after: dict[str, object] = {
        "clause": found.clause,
        "winner": winner.name if winner else None,
        "loser_score": loser_score,
    }
    if spreads:
        after["spreads"] = {game.first.name: spreads[0], game.second.name: spreads[1]}
    entry = audit_entry(  # the player whose card met the other's: the rule, not they, decided
        actor=user,
        action=AuditAction.SCORECARD_ACC_RESOLVE,
        obj=game,
        after=after,
        reason=f"ACC Rule {found.clause}",
    )
    # 12.2(i): the apparent qualifiers whose card the ruling changed are told, after commit.
    told = crosscheck.qualifiers_to_tell(
        first, second, found, first_qualifies=first_qualifies, second_qualifies=second_qualifies
    )
    if told:
        sides = {"first": (game.first, found.first), "second": (game.second, found.second)}
        notify_acc_card_changed(game, [sides[side] for side in told], clause=found.clause)
    return ruling, entry


def acc_clause_of(game: TableGame) -> str:
    """The clause of the ACC ruling that settled ``game`` ("12.2(a)"), or "" (one query)."""
    ruling = game.scorecards.filter(by_checker=True).order_by("at", "pk").last()
    return ruling.acc_clause if ruling else ""


def scorecard_acc_reverse(*, user: Actor, game: TableGame) -> TableGame:
    """A checker undoes the ACC rule's ruling of a table: the two players' cards are back in
    the checkers' queue, for the checker to settle. Only the rule's own ruling is undone (a
    checker's later ruling stands: settle the table again instead)."""
    refuse_unless(user, Action.CHECK_SCORECARDS)  # the role: the table's result stands
    if table_side_of(user, game) is not None:
        raise PLAYS_HERE.exception()
    with transaction.atomic():
        tournament = _lock(game.round.tournament)
        if tournament.stage in (TournamentStage.PLAYOFFS, TournamentStage.FINISHED):
            raise Locked(
                _("The bracket is drawn: the qualifying results no longer change."),
                current=_where(game),
            )
        game = _locked_table(game, "round__tournament", "first", "second")
        rulings = list(game.scorecards.filter(by_checker=True).order_by("at", "pk"))
        if not rulings or not rulings[-1].acc_clause:
            raise ValidationFailed(
                _("Table %(table)s was not settled by the ACC rule: nothing to undo.")
                % {"table": game.table}
            )
        ruling = rulings[-1]
        clause, score = ruling.acc_clause, ruling.loser_score
        winner = ruling.winner.name if ruling.winner else None
        ruling.delete()
        game.winner, game.loser_score, game.verified_at = None, None, None
        game.first_spread = game.second_spread = None
        _store_state(game)
        audit_log(
            actor=user,
            action=AuditAction.SCORECARD_ACC_REVERSE,
            obj=game,
            before={"clause": clause, "winner": winner, "loser_score": score},
            after={"status": game.status},
        )
    _changed(game.round.tournament_id)
    return game
