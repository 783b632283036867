"""Writes for a tournament, one function per change of state, each of one shape: ask ``refusal()``,
check the state (a :class:`~league.kernel.errors.DomainError` with a sentence for the room), lock
the tournament row, change, log to the audit trail, and after commit tell the live pages (TV,
standings) that something moved.

Semantics chosen where the issue is silent:

- The field of a round is the checked-in entrants; registering after the first round is a late
  add (checked in at once), a withdrawal takes effect from the next round, and both are refused
  while the entrant sits at a table whose result is still open.
- A round is seated only when every game of the one before is verified, and no more rounds are
  seated than the event's qualifying games.
- Scorecards follow ``league.kernel.lifecycle`` (a table's cards as the facts of a one-deal game):
  each side enters once (its card is its vouch; a wrong card is settled by a checker, not by
  the players writing again). Two matching entries verify the game; two that disagree send it
  to the checkers, whose entry settles it. A checker may also key in a paper card for one side.
  A card entered deal by deal is checked by the league's scorer; its winner and loser's score
  come from the deals, and it matches the other side's plain card when those agree.
- The bracket is drawn from the standings of verified games; withdrawn entrants are passed over
  in the cut (the next entrant qualifies), but the count of qualifiers is of the whole field.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest import brackets
from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_log
from league.kernel.cache import bump_counter, tournament_version_key
from league.kernel.entries import normalise, to_entry
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.people import Player
from league.kernel.permissions import Action, actor_of, refuse_unless
from league.kernel.scoring_messages import scoring_message
from scoring.errors import ScoringError
from scoring.game import Game as ScoredGame
from scoring.variants import VARIANTS
from tournaments import logic
from tournaments.amounts import dollars
from tournaments.checks import NOT_AT_TABLE, table_side_of
from tournaments.models import (
    MONEY_IN,
    Bye,
    Club,
    ClubPointsMode,
    ClubSeason,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    PayoutMode,
    PlayoffGame,
    PlayoffMatch,
    Purse,
    Round,
    RoundStatus,
    Scorecard,
    SidePot,
    SidePotKind,
    Stage,
    TableGame,
    TableStatus,
    Tournament,
)
from tournaments.rules_messages import rules_message
from tournaments.selectors import (
    house_share,
    nights_of,
    standings_for_tournament,
    table_seat_names,
)

MAX_DEALS = 60  # a game to 121 ends long before: a guard on what is read, not a rule of play


def _changed(tournament_id: int) -> None:
    """After commit: bump the counter the live pages (TV, bracket) poll."""
    key = tournament_version_key(tournament_id)
    transaction.on_commit(lambda: bump_counter(key))


def _require(user: Any, action: str, obj: Any = None) -> None:
    refuse_unless(user, action, obj)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --------------------------------------------------------------------------------------------
# The event and its entrants
# --------------------------------------------------------------------------------------------


def tournament_create(
    *,
    user: Any,
    name: str,
    date: dt.date | None = None,
    kind: str = "club-night",
    variant: str = "singles-121",
    rules: logic.Rules | None = None,
    games_per_entrant: int = 9,
    draw_seed: int = 0,
) -> Tournament:
    _require(user, Action.RUN_TOURNAMENT)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("A tournament needs a name."), field="name")
    if Tournament.objects.filter(name=name).exists():
        raise ValidationFailed(
            _("There is already a tournament called %(name)s.") % {"name": name}, field="name"
        )
    if kind not in logic.KINDS:
        raise ValidationFailed(_("Unknown kind of event: %(kind)s.") % {"kind": kind})
    if variant not in logic.VARIANTS:
        raise ValidationFailed(_("Unknown variant: %(variant)s.") % {"variant": variant})
    if games_per_entrant < 1:
        raise ValidationFailed(_("Every entrant plays at least one qualifying game."))
    rules = rules or logic.Rules()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            date=date,
            kind=kind,
            variant=variant,
            games_per_entrant=games_per_entrant,
            draw_seed=draw_seed,
            target=rules.target,
            skunk_margin=rules.skunk_margin,
            double_skunk_margin=rules.double_skunk_margin,
            points_win=rules.win,
            points_skunk=rules.skunk,
            points_double_skunk=rules.double_skunk,
            points_loss=rules.loss,
            bye_game_points=rules.bye_game_points,
            bye_spread=rules.bye_spread,
            tiebreaks=list(rules.tiebreaks),
            qualify_one_in=rules.qualify_one_in,
            playoff_best_of=rules.playoff_best_of,
        )
        audit_log(
            actor=user, action=AuditAction.TOURNAMENT_CREATE, obj=tournament, after={"name": name}
        )
    return tournament


EDITABLE = (
    "name",
    "date",
    "kind",
    "variant",
    "games_per_entrant",
    "target",
    "skunk_margin",
    "double_skunk_margin",
    "points_win",
    "points_skunk",
    "points_double_skunk",
    "points_loss",
    "bye_game_points",
    "bye_spread",
    "tiebreaks",
    "qualify_one_in",
    "playoff_best_of",
    "draw_seed",
)


def tournament_update(*, user: Any, tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    """Change an event's settings. The rules are checked as a whole (an unknown tie-break, an
    even best-of are refused); once the bracket is drawn they no longer change."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        row = _lock(tournament)
        before = {k: getattr(row, k) for k in EDITABLE}
        for key, value in changes.items():
            if key in EDITABLE:
                setattr(row, key, value)
        after = {k: getattr(row, k) for k in EDITABLE}
        if after == before:
            return row
        if row.stage in (Stage.PLAYOFFS, Stage.FINISHED):
            raise Locked(_("The bracket is drawn: the event's settings no longer change."))
        try:
            row.rules.ladder  # noqa: B018 - building the rules and their ladder checks them
        except logic.RulesError as exc:  # logic says it in English: say it in the reader's
            raise ValidationFailed(rules_message(exc), field=exc.field) from None
        except ScoringError as exc:  # skunk margins the scorer cannot judge
            field = str(exc.params.get("name", "double_skunk_margin"))
            raise ValidationFailed(scoring_message(exc), field=field) from None
        if row.variant != before["variant"] and row.entrants.exists():
            raise Locked(_("Entrants are registered: singles or partnership no longer changes."))
        row.save()
        audit_log(
            actor=user,
            action=AuditAction.TOURNAMENT_UPDATE,
            obj=row,
            before={k: str(v) for k, v in before.items() if before[k] != after[k]},
            after={k: str(v) for k, v in after.items() if before[k] != after[k]},
        )
    _changed(row.pk)
    return row


def _players(names: Iterable[Player | str]) -> list[Player]:
    out = []
    for p in names:
        out.append(p if isinstance(p, Player) else Player.objects.get_or_create(name=p.strip())[0])
    return out


def _open_table_of(entrant: Entrant) -> TableGame | None:
    return (
        TableGame.objects.filter(round__tournament_id=entrant.tournament_id)
        .exclude(status=TableStatus.VERIFIED)
        .filter(first=entrant)
        .first()
        or TableGame.objects.filter(round__tournament_id=entrant.tournament_id, second=entrant)
        .exclude(status=TableStatus.VERIFIED)
        .first()
    )


def entrant_register(
    *,
    user: Any,
    tournament: Tournament,
    name: str,
    players: Sequence[Player | str] = (),
    check_in: bool = False,
) -> Entrant:
    """Register an entrant; a singles entrant with no player named is the player of its name.
    After the first round it is a late add, checked in at once for the next round."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("An entrant needs a name."), field="name")
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage not in (Stage.REGISTRATION, Stage.QUALIFYING):
            raise Locked(_("The qualifying rounds are over: no more entrants can join."))
        if tournament.entrants.filter(name=name).exists():
            raise ValidationFailed(
                _("%(name)s is already entered in this tournament.") % {"name": name},
                field="name",
            )
        roster = list(players) or ([name] if not tournament.is_partnership else [])
        if tournament.is_partnership and len(roster) != 2:
            raise ValidationFailed(
                _("A partnership entrant is a team of two players; %(count)s were given.")
                % {"count": len(roster)},
                field="players",
            )
        late = tournament.stage == Stage.QUALIFYING
        number = (
            tournament.entrants.order_by("-number").values_list("number", flat=True).first() or 0
        ) + 1
        entrant = Entrant.objects.create(
            tournament=tournament,
            name=name,
            number=number,
            status=EntrantStatus.CHECKED_IN if (check_in or late) else EntrantStatus.REGISTERED,
        )
        for position, player in enumerate(_players(roster)):
            EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
        audit_log(
            actor=user,
            action=AuditAction.ENTRANT_REGISTER,
            obj=entrant,
            after={"name": name, "players": [str(p) for p in roster], "late": late},
        )
    _changed(tournament.pk)
    return entrant


def entrant_check_in(*, user: Any, entrant: Entrant) -> Entrant:
    _require(user, Action.RUN_TOURNAMENT, entrant.tournament)
    with transaction.atomic():
        _lock(entrant.tournament)
        entrant = Entrant.objects.get(pk=entrant.pk)
        if entrant.status == EntrantStatus.WITHDRAWN:
            raise Locked(_("%(name)s has withdrawn.") % {"name": entrant.name})
        before = entrant.status
        entrant.status = EntrantStatus.CHECKED_IN
        entrant.save(update_fields=["status"])
        audit_log(actor=user, action=AuditAction.ENTRANT_CHECK_IN, obj=entrant, before=before)
    _changed(entrant.tournament_id)
    return entrant


def entrant_withdraw(*, user: Any, entrant: Entrant) -> Entrant:
    """Withdraw an entrant from the next round on (their games so far still count)."""
    _require(user, Action.RUN_TOURNAMENT, entrant.tournament)
    with transaction.atomic():
        _lock(entrant.tournament)
        entrant = Entrant.objects.get(pk=entrant.pk)
        table = _open_table_of(entrant)
        if table is not None:
            raise Locked(
                _(
                    "%(name)s is seated at table %(table)s of round %(round)s: "
                    "settle that game first."
                )
                % {"name": entrant.name, "table": table.table, "round": table.round.number}
            )
        before = entrant.status
        entrant.status = EntrantStatus.WITHDRAWN
        entrant.save(update_fields=["status"])
        audit_log(actor=user, action=AuditAction.ENTRANT_WITHDRAW, obj=entrant, before=before)
    _changed(entrant.tournament_id)
    return entrant


# --------------------------------------------------------------------------------------------
# Seating
# --------------------------------------------------------------------------------------------


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


def round_seat_next(*, user: Any, tournament: Tournament) -> Round:
    """Seat the next qualifying round of the checked-in field at numbered tables."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage not in (Stage.REGISTRATION, Stage.QUALIFYING):
            raise Locked(_("The qualifying rounds are over."))
        last = tournament.rounds.order_by("-number").first()
        if last is not None:
            open_games = last.games.exclude(status=TableStatus.VERIFIED).count()
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
        seating = logic.seat_round(field, index=number - 1, met=met, byes=byes)
        rnd = _store_round(tournament, number, seating)
        if tournament.stage == Stage.REGISTRATION:
            tournament.stage = Stage.QUALIFYING
            tournament.save(update_fields=["stage"])
        audit_log(
            actor=user,
            action=AuditAction.ROUND_SEAT,
            obj=rnd,
            after={"round": number, "tables": len(seating.tables), "bye": seating.bye},
        )
    _changed(tournament.pk)
    return rnd


def _store_round(tournament: Tournament, number: int, seating: logic.Seating[int]) -> Round:
    rnd = Round.objects.create(tournament=tournament, number=number)
    TableGame.objects.bulk_create(
        TableGame(round=rnd, table=i, first_id=a, second_id=b)
        for i, (a, b) in enumerate(seating.tables, start=1)
    )
    if seating.bye is not None:
        Bye.objects.create(round=rnd, entrant_id=seating.bye)
    return rnd


def round_swap(*, user: Any, round: Round, a: Entrant, b: Entrant) -> Round:
    """Swap two entrants' seats (a table or the bye) before the round starts."""
    _require(user, Action.RUN_TOURNAMENT, round.tournament)
    if a.pk == b.pk:
        raise ValidationFailed(_("Pick two different entrants to swap."))
    with transaction.atomic():
        _lock(round.tournament)
        rnd = Round.objects.get(pk=round.pk)
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


def round_start(*, user: Any, round: Round) -> Round:
    _require(user, Action.RUN_TOURNAMENT, round.tournament)
    with transaction.atomic():
        _lock(round.tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.status == RoundStatus.SEATED:
            rnd.status = RoundStatus.STARTED
            rnd.save(update_fields=["status"])
            audit_log(actor=user, action=AuditAction.ROUND_START, obj=rnd)
    _changed(rnd.tournament_id)
    return rnd


# --------------------------------------------------------------------------------------------
# Scorecards
# --------------------------------------------------------------------------------------------


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


def _replayed(key: str | None, game: TableGame, user: Any, result: tuple[int, int]) -> bool:
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
    user: Any,
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
                        "%(name)s's scorecard is already in. If it is wrong, settle the table "
                        "in the checkers' queue."
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
    user: Any,
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


def scorecard_settle(*, user: Any, game: TableGame, winner: Entrant, loser_score: Any) -> TableGame:
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


# --------------------------------------------------------------------------------------------
# The cut and the bracket
# --------------------------------------------------------------------------------------------


def bracket_draw(*, user: Any, tournament: Tournament) -> list[PlayoffMatch]:
    """Draw the bracket from the standings: seeds, byes to the top seeds, every round's slots."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage != Stage.QUALIFYING:
            raise Locked(_("The bracket is drawn once, at the end of the qualifying rounds."))
        open_games = TableGame.objects.filter(round__tournament=tournament).exclude(
            status=TableStatus.VERIFIED
        )
        if open_games.exists():
            g = open_games.select_related("round").first()
            assert g is not None
            raise Locked(
                _("Table %(table)s of round %(round)s has no verified result yet.")
                % {"table": g.table, "round": g.round.number}
            )
        data = standings_for_tournament(tournament)
        if not data["qualifiers"]:
            raise ValidationFailed(_("Nobody has qualified yet."))
        matches = _store_bracket(tournament, data["qualifiers"])
        tournament.stage = Stage.PLAYOFFS
        tournament.save(update_fields=["stage"])
        audit_log(
            actor=user,
            action=AuditAction.BRACKET_DRAW,
            obj=tournament,
            after={"qualifiers": data["qualifiers"], "bracket": data["bracket"]},
        )
    _changed(tournament.pk)
    return matches


def _store_bracket(tournament: Tournament, qualifiers: list[str]) -> list[PlayoffMatch]:
    by_name = {e.name: e for e in tournament.entrants.all()}
    seeds: dict[int, Entrant] = {}
    for i, name in enumerate(qualifiers, start=1):
        entrant = by_name[name]
        entrant.seed = i
        entrant.save(update_fields=["seed"])
        seeds[i] = entrant
    slots = brackets.bracket(len(qualifiers))
    matches: list[PlayoffMatch] = []
    size = len(slots)
    rnd = 1
    while size >= 1:
        for pos in range(size):
            match = PlayoffMatch(tournament=tournament, round=rnd, position=pos)
            if rnd == 1:
                high, low = slots[pos]
                match.top = seeds[high]
                match.bottom = seeds[low] if low is not None else None
                match.is_bye = low is None
            matches.append(match)
        size //= 2
        rnd += 1
    PlayoffMatch.objects.bulk_create(matches)
    stored = list(tournament.playoff_matches.order_by("round", "position"))
    for match in stored:
        if match.is_bye:
            _decide(tournament, match, match.top)
    return stored


def _decide(tournament: Tournament, match: PlayoffMatch, winner: Entrant | None) -> None:
    """Set a match's winner and send them on to the next round (or end the event)."""
    assert winner is not None
    match.winner = winner
    match.save(update_fields=["winner"])
    nxt = PlayoffMatch.objects.filter(
        tournament=tournament, round=match.round + 1, position=match.position // 2
    ).first()
    if nxt is None:
        tournament.stage = Stage.FINISHED
        tournament.save(update_fields=["stage"])
        return
    if match.position % 2 == 0:
        nxt.top = winner
        nxt.save(update_fields=["top"])
    else:
        nxt.bottom = winner
        nxt.save(update_fields=["bottom"])


def playoff_game_record(
    *, user: Any, match: PlayoffMatch, winner: Entrant, loser_score: Any
) -> PlayoffMatch:
    """One game of a playoff match; the match ends at a majority, and no game may follow."""
    _require(user, Action.RUN_TOURNAMENT, match.tournament)
    with transaction.atomic():
        tournament = _lock(match.tournament)
        match = PlayoffMatch.objects.select_related("top", "bottom").get(pk=match.pk)
        where = _("playoff round %(round)s, match %(match)s") % {
            "round": match.round,
            "match": match.position + 1,
        }
        if match.winner_id is not None:
            raise Locked(
                _("The match (%(where)s) is decided: %(winner)s won it; no game may follow.")
                % {"where": where, "winner": match.winner.name if match.winner else ""}
            )
        if match.top is None or match.bottom is None:
            raise Locked(_("The match (%(where)s) waits for its two entrants.") % {"where": where})
        if winner.pk not in (match.top_id, match.bottom_id):
            raise ValidationFailed(
                _("The winner must be %(a)s or %(b)s (%(where)s).")
                % {"a": match.top.name, "b": match.bottom.name, "where": where},
                field="winner",
            )
        try:
            score = logic.check_loser_score(tournament.rules, loser_score)
        except ValueError:
            raise ValidationFailed(
                _("The loser's score must be a whole number from 0 to %(top)s.")
                % {"top": tournament.target - 1},
                field="loser_score",
            ) from None
        number = match.games.count() + 1
        PlayoffGame.objects.create(
            match=match,
            number=number,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(user),
        )
        winners = list(match.games.order_by("number").values_list("winner_id", flat=True))
        decided = brackets.match_winner(winners, best_of=tournament.playoff_best_of)
        if decided is not None:
            _decide(tournament, match, winner)
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFF_GAME_RECORD,
            obj=match,
            after={"game": number, "winner": winner.name, "loser_score": score},
        )
    _changed(tournament.pk)
    return match


def table_entrant(game: TableGame, entrant_id: int | None, *, field: str) -> Entrant | None:
    """The entrant of this table with id ``entrant_id`` (a client's reference), else a refusal
    naming the table's two entrants."""
    if entrant_id is None:
        return None
    for entrant in (game.first, game.second):
        if entrant.pk == entrant_id:
            return entrant
    if field == "side":
        raise ValidationFailed(_("That scorecard is not from this table."), field=field)
    raise ValidationFailed(
        _("The winner must be one of the two entrants at table %(table)s: %(a)s or %(b)s.")
        % {"table": game.table, "a": game.first.name, "b": game.second.name},
        field=field,
    )


def match_entrant(match: PlayoffMatch, entrant_id: int) -> Entrant:
    """The entrant of this playoff match with id ``entrant_id``, else a refusal naming both."""
    for entrant in (match.top, match.bottom):
        if entrant is not None and entrant.pk == entrant_id:
            return entrant
    names = [e.name for e in (match.top, match.bottom) if e is not None]
    raise ValidationFailed(
        _("The winner must be one of this match's entrants: %(names)s.")
        % {"names": " / ".join(names) or "-"},
        field="winner",
    )


# --------------------------------------------------------------------------------------------
# Club seasons
# --------------------------------------------------------------------------------------------
#
# Semantics chosen where the issue is silent: a night counts toward its club season once its
# final is decided (stage "finished"); a partnership's points go to each of its two players;
# players are the same person across nights by their Player record.


def club_create(*, user: Any, name: str, venue: str = "") -> Club:
    _require(user, Action.MANAGE_CLUBS)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("A club needs a name."), field="name")
    with transaction.atomic():
        if Club.objects.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a club called %(name)s.") % {"name": name}, field="name"
            )
        club = Club.objects.create(name=name, venue=venue.strip())
        audit_log(actor=user, action=AuditAction.CLUB_CREATE, obj=club, after={"name": name})
    return club


def _check_points(mode: str, threshold: Any, table: Any) -> tuple[int, list[int]]:
    if mode not in ClubPointsMode.values:
        raise ValidationFailed(_("Unknown way of scoring a night: %(mode)s.") % {"mode": mode})
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
        raise ValidationFailed(
            _("The threshold is a whole number of game points, 0 or more."), field="threshold"
        )
    if not isinstance(table, list | tuple) or not all(
        isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in table
    ):
        raise ValidationFailed(
            _("The points table is a list of whole numbers, one per place: 10, 8, 6, ..."),
            field="points_table",
        )
    if mode == ClubPointsMode.TABLE and not table:
        raise ValidationFailed(
            _("Scoring by place needs a points table: the points for 1st, 2nd, ..."),
            field="points_table",
        )
    return threshold, [int(p) for p in table]


def club_season_create(
    *,
    user: Any,
    club: Club,
    name: str,
    starts: dt.date | None = None,
    points_mode: str = ClubPointsMode.GAME_POINTS,
    threshold: int = logic.ClubPoints().threshold,
    points_table: Sequence[int] = logic.ClubPoints().table,
) -> ClubSeason:
    _require(user, Action.MANAGE_CLUBS)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("A club season needs a name."), field="name")
    threshold, table = _check_points(points_mode, threshold, list(points_table))
    with transaction.atomic():
        if ClubSeason.objects.filter(club=club, name=name).exists():
            raise ValidationFailed(
                _("%(club)s already has a season called %(name)s.")
                % {"club": club.name, "name": name},
                field="name",
            )
        season = ClubSeason.objects.create(
            club=club,
            name=name,
            starts=starts,
            points_mode=points_mode,
            threshold=threshold,
            points_table=table,
        )
        audit_log(
            actor=user,
            action=AuditAction.CLUB_SEASON_CREATE,
            obj=season,
            after={"name": name, "mode": points_mode, "threshold": threshold, "table": table},
        )
    return season


def club_season_update(*, user: Any, season: ClubSeason, changes: dict[str, Any]) -> ClubSeason:
    """Change a season's name, first night or scoring; the table is recomputed from the
    nights, so a change of scoring applies to every night, played or not."""
    _require(user, Action.MANAGE_CLUBS, season)
    fields = ("name", "starts", "points_mode", "threshold", "points_table")
    with transaction.atomic():
        row = ClubSeason.objects.select_for_update().get(pk=season.pk)
        before = {k: getattr(row, k) for k in fields}
        for key in fields:
            if key in changes:
                setattr(row, key, changes[key])
        row.name = str(row.name).strip()
        if not row.name:
            raise ValidationFailed(_("A club season needs a name."), field="name")
        if (
            ClubSeason.objects.filter(club_id=row.club_id, name=row.name)
            .exclude(pk=row.pk)
            .exists()
        ):
            raise ValidationFailed(
                _("%(club)s already has a season called %(name)s.")
                % {"club": row.club.name, "name": row.name},
                field="name",
            )
        row.threshold, row.points_table = _check_points(
            row.points_mode, row.threshold, row.points_table
        )
        after = {k: getattr(row, k) for k in fields}
        if after == before:
            return row
        row.save()
        audit_log(
            actor=user,
            action=AuditAction.CLUB_SEASON_UPDATE,
            obj=row,
            before={k: str(v) for k, v in before.items() if before[k] != after[k]},
            after={k: str(v) for k, v in after.items() if before[k] != after[k]},
        )
    return row


def night_assign_season(
    *, user: Any, tournament: Tournament, season: ClubSeason | None
) -> Tournament:
    """Count ``tournament`` toward a club season (None: toward none). Allowed at any stage:
    a director may attach a night already played."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        row = _lock(tournament)
        if row.club_season_id == (season.pk if season else None):
            return row
        before = str(row.club_season) if row.club_season_id else ""
        row.club_season = season
        row.save(update_fields=["club_season"])
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_ASSIGN_SEASON,
            obj=row,
            before=before,
            after=str(season) if season else "",
        )
    _changed(row.pk)
    return row


# --------------------------------------------------------------------------------------------
# Money
# --------------------------------------------------------------------------------------------
#
# Semantics chosen where the issue is silent:
# - An event keeps money once its purse is set (``purse_set``); every amount is whole cents.
# - The house (club) share is a percent of the entry fees, rounded down to the cent; the rest
#   of the fees is the prize fund, paid by the payout table once the final is decided. Places
#   shared (the two semi-final losers are both 3rd) share those places' amounts.
# - Side pot money stays in its pot: its winners share what its entrants paid in.
# - The ledger balances when every cent in (fees, pot entries) has gone out (payouts, pots
#   won, the house share, refunds); the night closes only then, and once closed its books no
#   longer change.


def _purse(tournament: Tournament) -> Purse:
    purse = Purse.objects.select_for_update().filter(tournament=tournament).first()
    if purse is None:
        raise ValidationFailed(
            _("%(name)s keeps no money: set its entry fee first.") % {"name": tournament.name}
        )
    if purse.is_closed:
        raise Locked(_("The night is closed: its books no longer change."))
    return purse


def _cents(value: Any, *, field: str, allow_zero: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise ValidationFailed(
            _("An amount is a whole number of cents (1250 for $12.50), more than 0.")
            if not allow_zero
            else _("An amount is a whole number of cents (1250 for $12.50), 0 or more."),
            field=field,
        )
    return value


def purse_set(
    *,
    user: Any,
    tournament: Tournament,
    entry_fee: int,
    house_percent: int = 10,
    payout_mode: str = PayoutMode.PERCENT,
    payout_table: Sequence[int] = (),
) -> Purse:
    """Set (or change) an event's entry fee, house share and payout table. A percent table
    must add up to 100 (empty: the default, about the top quarter)."""
    _require(user, Action.KEEP_MONEY, tournament)
    fee = _cents(entry_fee, field="entry_fee")
    if isinstance(house_percent, bool) or not isinstance(house_percent, int):
        raise ValidationFailed(_("The house share is a whole percent."), field="house_percent")
    if not 0 <= house_percent <= 100:
        raise ValidationFailed(
            _("The house share is a percent from 0 to 100."), field="house_percent"
        )
    if payout_mode not in PayoutMode.values:
        raise ValidationFailed(_("Payouts are in percent or in fixed amounts."))
    table = [_cents(v, field="payout_table") for v in payout_table]
    if payout_mode == PayoutMode.PERCENT and table and sum(table) != 100:
        raise ValidationFailed(
            _("The payout percents add up to %(sum)s%%; they must make 100%%.")
            % {"sum": sum(table)},
            field="payout_table",
        )
    with transaction.atomic():
        _lock(tournament)
        purse = Purse.objects.select_for_update().filter(tournament=tournament).first()
        if purse is not None and purse.is_closed:
            raise Locked(_("The night is closed: its books no longer change."))
        if (
            purse is not None
            and LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.PAYOUT).exists()
        ):
            raise Locked(
                _("Payouts are recorded: remove them before changing the fee or the table.")
            )
        before = (
            None
            if purse is None
            else {
                "entry_fee": purse.entry_fee,
                "house_percent": purse.house_percent,
                "payout_mode": purse.payout_mode,
                "payout_table": purse.payout_table,
            }
        )
        purse = purse or Purse(tournament=tournament)
        purse.entry_fee = fee
        purse.house_percent = house_percent
        purse.payout_mode = payout_mode
        purse.payout_table = table
        purse.save()
        audit_log(
            actor=user,
            action=AuditAction.PURSE_SET,
            obj=tournament,
            before=before,
            after={
                "entry_fee": fee,
                "house_percent": house_percent,
                "payout_mode": payout_mode,
                "payout_table": table,
            },
        )
    return purse


def side_pot_set(*, user: Any, tournament: Tournament, kind: str, fee: int) -> SidePot:
    """Open a side pot (skunk, 28/29 hand) at ``fee`` cents a head, or change its entry
    before anyone has bought in."""
    _require(user, Action.KEEP_MONEY, tournament)
    if kind not in SidePotKind.values:
        raise ValidationFailed(_("Unknown side pot: %(kind)s.") % {"kind": kind}, field="kind")
    fee = _cents(fee, field="fee", allow_zero=False)
    with transaction.atomic():
        _lock(tournament)
        _purse(tournament)
        pot = SidePot.objects.filter(tournament=tournament, kind=kind).first()
        if pot is not None and pot.fee != fee and pot.entries.exists():
            raise Locked(
                _("Entrants have bought into the %(pot)s: its entry no longer changes.")
                % {"pot": pot.get_kind_display()}
            )
        if pot is None:
            pot = SidePot.objects.create(tournament=tournament, kind=kind, fee=fee)
        elif pot.fee != fee:
            pot.fee = fee
            pot.save(update_fields=["fee"])
        audit_log(actor=user, action=AuditAction.SIDE_POT_SET, obj=tournament, after={kind: fee})
    return pot


def _entry(
    *,
    user: Any,
    tournament: Tournament,
    kind: str,
    amount: int,
    entrant: Entrant | None = None,
    pot: SidePot | None = None,
    place: int | None = None,
    note: str = "",
) -> LedgerEntry:
    return LedgerEntry.objects.create(
        tournament=tournament,
        kind=kind,
        amount=amount,
        entrant=entrant,
        pot=pot,
        place=place,
        note=note,
        entered_by=actor_of(user),
    )


def _own_entrant(tournament: Tournament, entrant: Entrant | None) -> None:
    if entrant is not None and entrant.tournament_id != tournament.pk:
        raise ValidationFailed(
            _("%(name)s is not an entrant of %(event)s.")
            % {"name": entrant.name, "event": tournament.name},
            field="entrant",
        )


def fees_collect(
    *, user: Any, tournament: Tournament, entrants: Sequence[Entrant] | None = None
) -> list[LedgerEntry]:
    """Record the entry fee of ``entrants`` (default: every entrant not withdrawn) who have
    not paid it yet; twice is harmless."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if purse.entry_fee == 0:
            raise ValidationFailed(_("The entry fee is 0: there is nothing to collect."))
        if entrants is None:
            wanted = list(tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN))
        else:
            wanted = list(entrants)
            for e in wanted:
                _own_entrant(tournament, e)
        paid = set(
            LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.FEE).values_list(
                "entrant_id", flat=True
            )
        )
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.FEE,
                amount=purse.entry_fee,
                entrant=e,
            )
            for e in wanted
            if e.pk not in paid
        ]
        audit_log(
            actor=user,
            action=AuditAction.FEES_COLLECT,
            obj=tournament,
            after={"fees": len(made), "each": purse.entry_fee},
        )
    return made


def side_pot_enter(*, user: Any, pot: SidePot, entrants: Sequence[Entrant]) -> list[LedgerEntry]:
    """Record ``entrants`` buying into ``pot`` (those already in are left as they are)."""
    tournament = pot.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        for e in entrants:
            _own_entrant(tournament, e)
        if pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists():
            raise Locked(
                _("The %(pot)s has been won: nobody else can buy in.")
                % {"pot": pot.get_kind_display()}
            )
        inside = set(
            pot.entries.filter(kind=LedgerKind.POT_ENTRY).values_list("entrant_id", flat=True)
        )
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.POT_ENTRY,
                amount=pot.fee,
                entrant=e,
                pot=pot,
            )
            for e in entrants
            if e.pk not in inside
        ]
        audit_log(
            actor=user,
            action=AuditAction.SIDE_POT_ENTER,
            obj=tournament,
            after={"pot": pot.kind, "entrants": [e.name for e in entrants]},
        )
    return made


def side_pot_award(*, user: Any, pot: SidePot, winners: Sequence[Entrant]) -> list[LedgerEntry]:
    """Pay ``pot`` to its ``winners`` (who must have bought in): they share what came in,
    the odd cents to the first named."""
    tournament = pot.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    label = pot.get_kind_display()
    if not winners:
        raise ValidationFailed(_("Name who won the %(pot)s.") % {"pot": label}, field="winners")
    if len({w.pk for w in winners}) != len(winners):
        raise ValidationFailed(_("A winner is named twice."), field="winners")
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        if pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists():
            raise Locked(_("The %(pot)s has already been paid out.") % {"pot": label})
        entries = list(pot.entries.filter(kind=LedgerKind.POT_ENTRY))
        inside = {e.entrant_id for e in entries}
        for w in winners:
            if w.pk not in inside:
                raise ValidationFailed(
                    _("%(name)s did not buy into the %(pot)s, so cannot win it.")
                    % {"name": w.name, "pot": label},
                    field="winners",
                )
        total = sum(e.amount for e in entries)
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.POT_PAYOUT,
                amount=share,
                entrant=w,
                pot=pot,
            )
            for w, share in zip(winners, logic.split_cents(total, len(winners)), strict=True)
            if share > 0
        ]
        audit_log(
            actor=user,
            action=AuditAction.SIDE_POT_AWARD,
            obj=tournament,
            after={"pot": pot.kind, "winners": [w.name for w in winners], "total": total},
        )
    return made


def payouts_record(*, user: Any, tournament: Tournament) -> list[LedgerEntry]:
    """Once the final is decided: the house share of the fees, then the prize fund paid by
    the payout table to the final places (shared places share their amounts)."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if tournament.stage != Stage.FINISHED:
            raise Locked(_("Payouts are made once the final is decided."))
        ledger = LedgerEntry.objects.filter(tournament=tournament)
        if ledger.filter(kind__in=[LedgerKind.PAYOUT, LedgerKind.HOUSE]).exists():
            raise Locked(_("The payouts are already recorded."))
        fees = sum(ledger.filter(kind=LedgerKind.FEE).values_list("amount", flat=True))
        if fees == 0:
            raise ValidationFailed(_("No entry fee has been collected: there is nothing to pay."))
        house = house_share(purse, fees)
        fund = fees - house
        night = nights_of([tournament])[0]
        assert night.places is not None  # the final is decided
        field = tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()
        amounts = logic.payout_amounts(
            fund, mode=purse.payout_mode, table=purse.payout_table or [], entrants=field
        )
        if sum(amounts) > fund:
            raise ValidationFailed(
                _(
                    "The payout table pays %(table)s but the prize fund is %(fund)s: "
                    "lower the amounts or the house share."
                )
                % {"table": dollars(sum(amounts)), "fund": dollars(fund)},
                field="payout_table",
            )
        by_name = {e.name: e for e in tournament.entrants.all()}
        made = []
        if house:
            made.append(
                _entry(user=user, tournament=tournament, kind=LedgerKind.HOUSE, amount=house)
            )
        shares = logic.payouts_by_entrant(night.places, amounts)
        for name in sorted(shares, key=lambda n: (night.places[n], n)):  # type: ignore[index]
            made.append(
                _entry(
                    user=user,
                    tournament=tournament,
                    kind=LedgerKind.PAYOUT,
                    amount=shares[name],
                    entrant=by_name[name],
                    place=night.places[name],
                )
            )
        audit_log(
            actor=user,
            action=AuditAction.PAYOUTS_RECORD,
            obj=tournament,
            after={"house": house, "payouts": shares},
        )
    return made


MANUAL_KINDS = (LedgerKind.FEE, LedgerKind.PAYOUT, LedgerKind.HOUSE, LedgerKind.REFUND)


def ledger_entry_add(
    *,
    user: Any,
    tournament: Tournament,
    kind: str,
    amount: int,
    entrant: Entrant | None = None,
    note: str = "",
) -> LedgerEntry:
    """A movement of money the director records by hand: a fee paid at the door, a payout in
    cash, the house's share, a refund. Side pots go through their own services."""
    _require(user, Action.KEEP_MONEY, tournament)
    if kind not in MANUAL_KINDS:
        raise ValidationFailed(
            _("Record side pot money through its pot, not by hand."), field="kind"
        )
    amount = _cents(amount, field="amount", allow_zero=False)
    _own_entrant(tournament, entrant)
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        entry = _entry(
            user=user,
            tournament=tournament,
            kind=kind,
            amount=amount,
            entrant=entrant,
            note=note.strip()[:200],
        )
        audit_log(
            actor=user,
            action=AuditAction.LEDGER_ENTRY_ADD,
            obj=tournament,
            after={"kind": kind, "amount": amount, "entrant": entrant.name if entrant else ""},
        )
    return entry


def ledger_entry_remove(*, user: Any, entry: LedgerEntry) -> None:
    """Take back a ledger entry made in error (before the night is closed)."""
    tournament = entry.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        _lock(tournament)
        _purse(tournament)
        row = LedgerEntry.objects.filter(pk=entry.pk).first()
        if row is None:
            return
        before = {"kind": row.kind, "amount": row.amount, "entrant": str(row.entrant or "")}
        row.delete()
        audit_log(actor=user, action=AuditAction.LEDGER_ENTRY_REMOVE, obj=tournament, before=before)


def night_close(*, user: Any, tournament: Tournament) -> Purse:
    """Close the night's books: refused unless the final is decided and the ledger balances
    to the cent, with the difference named."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if tournament.stage != Stage.FINISHED:
            raise Locked(_("The night closes once the final is decided."))
        money_in = money_out = 0
        for kind, amount in LedgerEntry.objects.filter(tournament=tournament).values_list(
            "kind", "amount"
        ):
            if kind in MONEY_IN:
                money_in += amount
            else:
                money_out += amount
        difference = money_in - money_out
        if difference > 0:
            raise ValidationFailed(
                _(
                    "The books do not balance: %(diff)s more came in (%(in)s) than went out "
                    "(%(out)s). Record where it went before closing the night."
                )
                % {"diff": dollars(difference), "in": dollars(money_in), "out": dollars(money_out)}
            )
        if difference < 0:
            raise ValidationFailed(
                _(
                    "The books do not balance: %(diff)s more went out (%(out)s) than came in "
                    "(%(in)s). Find the missing money before closing the night."
                )
                % {"diff": dollars(-difference), "in": dollars(money_in), "out": dollars(money_out)}
            )
        purse.closed_at = timezone.now()
        purse.closed_by = actor_of(user)
        purse.save(update_fields=["closed_at", "closed_by"])
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_CLOSE,
            obj=tournament,
            after={"in": money_in, "out": money_out},
        )
    _changed(tournament.pk)
    return purse
