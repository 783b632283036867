"""Writes for a tournament, one function per change of state, each of one shape: ask ``can()``,
check the state (a :class:`~league.errors.DomainError` with a sentence for the room), lock the
tournament row, change, log to the audit trail, and after commit tell the live pages (TV,
standings) that something moved.

Semantics chosen where the issue is silent:

- The field of a round is the checked-in entrants; registering after the first round is a late
  add (checked in at once), a withdrawal takes effect from the next round, and both are refused
  while the entrant sits at a table whose result is still open.
- A round is seated only when every game of the one before is verified, and no more rounds are
  seated than the event's qualifying games.
- Scorecards: each side enters once (entering again replaces that side's entry until the game is
  verified). Two matching entries verify the game; two that disagree send it to the checkers,
  whose entry settles it. A checker may also key in a paper card for one side.
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

from league.cache import bump_counter, tournament_version_key
from league.errors import Locked, NotAllowed, ValidationFailed
from league.models import Player
from league.permissions import Action, actor_of, can, player_of
from league.services.audit import audit_log
from league.tournaments import logic
from league.tournaments.models import (
    Bye,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    PlayoffGame,
    PlayoffMatch,
    Round,
    RoundStatus,
    Scorecard,
    Stage,
    TableGame,
    TableStatus,
    Tournament,
)
from league.tournaments.selectors import standings_for_tournament


def _changed(tournament_id: int) -> None:
    """After commit: bump the counter the live pages (TV, bracket) poll."""
    key = tournament_version_key(tournament_id)
    transaction.on_commit(lambda: bump_counter(key))


def _require(user: Any, action: str, obj: Any = None) -> None:
    if not can(user, action, obj):
        raise NotAllowed(_("You are not allowed to %(action)s.") % {"action": Action(action).label})


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
        audit_log(actor=user, action="tournament_create", obj=tournament, after={"name": name})
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
            row.rules  # noqa: B018 - building the rules checks them
        except logic.RulesError as exc:
            raise ValidationFailed(str(exc), field="tiebreaks") from None
        if row.variant != before["variant"] and row.entrants.exists():
            raise Locked(_("Entrants are registered: singles or partnership no longer changes."))
        row.save()
        audit_log(
            actor=user,
            action="tournament_update",
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
            action="entrant_register",
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
        audit_log(actor=user, action="entrant_check_in", obj=entrant, before=before)
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
        audit_log(actor=user, action="entrant_withdraw", obj=entrant, before=before)
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
            action="round_seat",
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
        audit_log(actor=user, action="round_swap", obj=rnd, after={"swapped": [a.name, b.name]})
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
            audit_log(actor=user, action="round_start", obj=rnd)
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


def _verify(game: TableGame, winner_id: int, loser_score: int) -> None:
    game.winner_id = winner_id
    game.loser_score = loser_score
    game.status = TableStatus.VERIFIED
    game.verified_at = timezone.now()
    game.save(update_fields=["winner", "loser_score", "status", "verified_at"])


def scorecard_submit(
    *,
    user: Any,
    game: TableGame,
    winner: Entrant,
    loser_score: Any,
    side: Entrant | None = None,
) -> TableGame:
    """A side's entry of the result: a player's own (their side is found from their account),
    or a checker keying in one side's paper card (``side`` given). Two matching entries verify
    the game; two that disagree send it to the checkers' queue."""
    if side is None:
        _require(user, Action.ENTER_SCORECARD, game)
        player = player_of(user)
        side = game.side_of_player(player) if player is not None else None
        if side is None:
            raise NotAllowed(_("You do not play at this table."))
    else:
        _require(user, Action.CHECK_SCORECARDS, game)
        if side.pk not in (game.first_id, game.second_id):
            raise ValidationFailed(_("That scorecard is not from this table."), field="side")
    score = _check_result(game, winner, loser_score)
    with transaction.atomic():
        _lock(game.round.tournament)
        game = TableGame.objects.select_related("round").get(pk=game.pk)
        if game.status == TableStatus.VERIFIED:
            raise Locked(
                _("Table %(table)s of round %(round)s is already verified.")
                % {"table": game.table, "round": game.round.number}
            )
        Scorecard.objects.filter(game=game, side_id=side.pk, by_checker=False).delete()
        Scorecard.objects.create(
            game=game,
            side_id=side.pk,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(user),
        )
        if game.round.status == RoundStatus.SEATED:
            game.round.status = RoundStatus.STARTED
            game.round.save(update_fields=["status"])
        cards = list(Scorecard.objects.filter(game=game, by_checker=False))
        if len(cards) == 2:
            one, two = cards
            if (one.winner_id, one.loser_score) == (two.winner_id, two.loser_score):
                _verify(game, one.winner_id, one.loser_score)
            else:
                game.status = TableStatus.MISMATCH
                game.save(update_fields=["status"])
        audit_log(
            actor=user,
            action="scorecard_submit",
            obj=game,
            after={
                "side": side.name,
                "winner": winner.name,
                "loser_score": score,
                "status": game.status,
            },
        )
    _changed(game.round.tournament_id)
    return game


def scorecard_settle(*, user: Any, game: TableGame, winner: Entrant, loser_score: Any) -> TableGame:
    """A checker's entry: it settles the game, whatever the players wrote."""
    _require(user, Action.CHECK_SCORECARDS, game)
    score = _check_result(game, winner, loser_score)
    with transaction.atomic():
        _lock(game.round.tournament)
        game = TableGame.objects.select_related("round").get(pk=game.pk)
        if game.status == TableStatus.VERIFIED:
            raise Locked(
                _("Table %(table)s of round %(round)s is already verified.")
                % {"table": game.table, "round": game.round.number}
            )
        Scorecard.objects.create(
            game=game,
            winner=winner,
            loser_score=score,
            by_checker=True,
            entered_by=actor_of(user),
        )
        _verify(game, winner.pk, score)
        audit_log(
            actor=user,
            action="scorecard_settle",
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
            action="bracket_draw",
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
    slots = logic.bracket(len(qualifiers))
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
        decided = logic.match_winner(winners, best_of=tournament.playoff_best_of)
        if decided is not None:
            _decide(tournament, match, winner)
        audit_log(
            actor=user,
            action="playoff_game_record",
            obj=match,
            after={"game": number, "winner": winner.name, "loser_score": score},
        )
    _changed(tournament.pk)
    return match
