"""Recording deals: a deal entered from a phone, the other team's agreement or rival entry,
several deals corrected as one change (a team's own entry sent again with other numbers is
one), and the game's state each settles (scores, vouches, the lifecycle's state, the standings).

Each function has one shape (after pretix): ask ``refuse_unless()`` whether the change may
happen (the one refusal, role then the game's life, raised with its sentence if not), lock the
game row, change, settle the game's state, save, write the audit trail, then let the standings
know after commit. The scorer replays the whole game to validate every change, so the same
rule holds whichever door a deal came through, and a correction of several deals is judged as
one. A deal's whole path runs in this module (so the helpers the other score-entry modules
share live here: ``tests/api/test_deal_path.py`` pins that a deal enters it once and never
climbs back in).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import BigIntegerField, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.checks import team_of
from league.kernel import entries, lifecycle
from league.kernel.audit import AuditAction, audit_log
from league.kernel.entries import fingerprint, normalise, read_deal, to_entry
from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.lifecycle import Event
from league.kernel.permissions import Action, Actor, actor_of, can, permit, refuse_unless
from league.kernel.ratings import ratings_changed
from league.kernel.scoring_messages import scoring_message
from league.models import (
    Deal,
    Dispute,
    DisputeStatus,
    Game,
    GameStatus,
    Match,
    Player,
    Team,
)
from league.selectors.games import stored_deal
from league.selectors.standings import COUNTED_STATUSES
from league.services.notify import notify_result_to_confirm
from league.services.results import results_changed
from scoring.errors import InvalidDealError
from scoring.game import DealEntry, DealResult, validate_deal
from scoring.game import Game as ScoredGame
from scoring.outcome import outcome_for
from scoring.variants import Variant

OPEN_DISPUTES = (DisputeStatus.OPEN, DisputeStatus.IN_REVIEW)


def variant_of(game: Game) -> Variant:
    return game.match.week.season.game_variant


def seat_names(game: Game) -> list[str]:
    return [s.player.name for s in game.seats.select_related("player").order_by("seat")]


def game_state(game: Game) -> dict[str, Any]:
    """How a game stands now: what a client that lost a race is told."""
    return {
        "game": game.pk,
        "status": game.status,
        "deals": game.deal_count,
        "next_deal": game.deal_count + 1,
        "home_score": game.home_score,
        "away_score": game.away_score,
        "version": game.version,
    }


def side_names(game: Game) -> list[str]:
    """The teams by the scorer's side number."""
    home, away = game.match.home.name, game.match.away.name
    return [home, away] if game.home_side == 0 else [away, home]


def _human(exc: InvalidDealError, game: Game, number: int) -> ValidationFailed:
    """The scorer's refusal in the reader's language, seats named by their players and sides
    by their teams, so the message reads like the table talks."""
    return scorer_refusal(exc, seats=seat_names(game), sides=side_names(game), number=number)


def scorer_refusal(
    exc: InvalidDealError, *, seats: Sequence[str], sides: Sequence[str], number: int
) -> ValidationFailed:
    """The scorer's refusal of deal ``number`` with the seats and sides named."""
    message = scoring_message(exc, seats=list(seats), sides=list(sides))
    return ValidationFailed(message, field=exc.field, deal=number)


def _replay(
    game: Game, normals: Sequence[Mapping[str, Any]], *, changed: frozenset[int] = frozenset()
) -> ScoredGame:
    """Replay deals through the scorer; raise ValidationFailed naming the first bad deal.

    ``changed`` are the deals being entered or corrected: a failure in another deal is a deal
    the change has made impossible, and the message says which."""
    season = game.match.week.season
    scored = ScoredGame(variant_of(game), first_dealer=game.first_dealer, target=season.target)
    for number, normal in enumerate(normals, start=1):
        try:
            scored.record(to_entry(normal))
        except InvalidDealError as exc:
            error = _human(exc, game, number)
            if changed and number not in changed:
                error.message = _(
                    "With this change, deal %(n)s no longer fits: %(why)s Correct it too."
                ) % {"n": number, "why": error.message}
                error.args = (error.message,)
            raise error from None
    return scored


def _current_deals(game: Game, *, key: str | None = None) -> list[Deal]:
    """The game's current deals by number; with ``key``, also the deal sent with that key,
    whatever game it is of (a key is unique)."""
    wanted = Q(game=game, is_current=True)
    if key:
        wanted |= Q(key=key)
    return list(Deal.objects.filter(wanted).order_by("number"))


def _lock(game: Game) -> Game:
    """The game row, locked for this transaction (only that row: the season, week and league
    rows are read, not locked, so the tables of a venue never queue on one row)."""
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("match__week__season__league", "match__home", "match__away")
        .get(pk=game.pk)
    )


def _fresh(game: Game) -> Game:
    """The game as it stands now (the caller's copy may be a moment old): permissions and the
    lifecycle are asked about the game as it is."""
    return Game.objects.select_related("match__week__season", "match__home", "match__away").get(
        pk=game.pk
    )


def _season_id(game: Game) -> int:
    return game.match.week.season_id


# --- The game's state ----------------------------------------------------------------------------


def _apply_scores(game: Game, scored: ScoredGame, deal_count: int) -> None:
    """Derive scores, winner, margin, skunk and league points from the replayed game."""
    _apply_result(game, scored.scores, scored.finished, deal_count, game.match.week.season)


def _apply_result(
    game: Game, scores: Sequence[int], finished: bool, deal_count: int, season: Any
) -> None:
    """Scores, winner, margin, skunk and league points from the scores per side after
    ``deal_count`` deals, ``finished`` when a side reached the game hole."""
    home, away = game.home_side, 1 - game.home_side
    game.home_score = scores[home]
    game.away_score = scores[away]
    game.deal_count = deal_count
    if finished:
        outcome = outcome_for(
            tuple(scores),
            target=season.target,
            skunk_margin=season.skunk_margin,
            double_skunk_margin=season.double_skunk_margin,
        )
        home_won = outcome.winner == home
        game.winner = game.match.home if home_won else game.match.away
        game.margin = outcome.margin
        game.skunk_level = int(outcome.skunk_level)
        game.home_points = season.league_points(won=home_won, skunk_level=game.skunk_level)
        game.away_points = season.league_points(won=not home_won, skunk_level=game.skunk_level)
    else:
        game.winner = None
        game.margin = None
        game.skunk_level = 0
        game.home_points = game.away_points = 0


def _settle(
    game: Game,
    *,
    user: Actor,
    finished: bool | None = None,
    actor: Any = None,
    stored: bool = True,
) -> GameStatus:
    """Put the game in the state its facts say (``lifecycle.game_status``, one call); stamp
    when it finished and was confirmed. Returns the state it was in before. The open disputes
    are counted (one query) only for a finished game: a game in progress is in progress
    whatever is disputed. ``finished`` is for a game built in memory, whose winner (an unsaved
    team) has no key yet; ``actor``, the account, when the caller has it (``Permit.actor``).

    ``stored=False`` for a game built in memory (``GameBuild``): nothing of it is saved yet, so
    nothing follows (no ratings' update, no request to confirm); its writer queues the ratings'
    update once, after its last batch. (Queued per game, the update ran at once outside any
    transaction: a 3,200-game season's check replayed the ratings 3,200 times, 4.0 s -> 32 s.)"""
    before = GameStatus(game.status)
    done = game.winner_id is not None if finished is None else finished
    open_disputes = (
        game.disputes.filter(status__in=OPEN_DISPUTES).count() if game.pk and done else 0
    )
    after = lifecycle.game_status(game, open_disputes=open_disputes, finished=finished)
    now = timezone.now()
    if after == GameStatus.IN_PROGRESS:
        game.finished_at = None
    elif game.finished_at is None:
        game.finished_at = now
    if after == GameStatus.CONFIRMED:
        if before != GameStatus.CONFIRMED or game.confirmed_at is None:
            game.confirmed_at = now
            game.confirmed_by = actor if actor is not None else actor_of(user)
    else:
        game.confirmed_at = None
        game.confirmed_by = None
    game.status = after
    game.version += 1
    if not stored:
        return before
    if GameStatus.CONFIRMED in (before, after):
        ratings_changed()  # confirmed, or a confirmed game changed: the ratings follow
    if after == GameStatus.FINISHED and before != GameStatus.FINISHED:
        notify_result_to_confirm(game)  # sent after commit, once per game
    return before


def _standings_follow(game: Game, before: str) -> None:
    """Let the standings know of a change to ``game`` that was in state ``before``, if they
    count it in either state (``COUNTED_STATUSES``, the aggregate's own list). A game in
    progress is not counted, so a deal, an agreement or a rival entry that leaves it in
    progress changes no standings: no stale mark, no new results version, no recompute
    queued, which is every deal but a game's last at every table of a venue night. Its board
    still moves (the boards' signature follows the game's own ``version``)."""
    if before in COUNTED_STATUSES or game.status in COUNTED_STATUSES:
        results_changed(season_id=_season_id(game))


def _vouch(game: Game, team_id: int | None, through: int) -> None:
    """``team_id`` vouches for deals 1..``through`` (a vouch only ever grows here)."""
    if team_id == game.match.home_id:
        game.home_vouched = max(game.home_vouched, through)
    elif team_id == game.match.away_id:
        game.away_vouched = max(game.away_vouched, through)


def _recount_rivals(game: Game) -> None:
    """Each team's first unsettled rival entry, from the deals."""
    pending = Deal.objects.filter(game=game, is_rival=True, settled_at__isnull=True).order_by(
        "number"
    )
    roster = checks.roster_of(game.match)  # each enterer's team, one read for the match
    game.home_rival = game.away_rival = 0
    for rival in pending:
        team = roster.get(rival.entered_by_id) if rival.entered_by_id else None
        if team == game.match.home_id and not game.home_rival:
            game.home_rival = rival.number
        elif team == game.match.away_id and not game.away_rival:
            game.away_rival = rival.number


# --- Recording deals -----------------------------------------------------------------------------


def deal_record(
    *,
    game: Game | int,
    user: Actor,
    number: int | None,
    data: Mapping[str, Any],
    key: str | None = None,
) -> tuple[Deal, bool]:
    """Record deal ``number`` of ``game`` (a Game, or the id a request named: a game of a
    season being imported is not found, ``Game.DoesNotExist``). Returns ``(deal, created)``.

    - The same ``key`` with the same deal returns the stored deal (``created`` False); the same
      key with other numbers is a Conflict.
    - A deal number already entered, sent again with the same numbers (the other team's phone,
      say), is an agreement: the sender's team vouches for it, and the stored deal comes back.
    - Sent again with other numbers by the team that entered it (the same person, or a
      partner), it is a correction of that team's own entry (``deals_correct``, with its rule:
      until the game is confirmed, the other team asked to look again), never a rival.
    - Sent with other numbers by the other team, it is kept as a *rival* entry
      (``deal.is_rival``), shown to both teams beside the stored one until it is settled;
      nothing typed is dropped.
    - A deal past the next one is a Conflict that says how the game stands.

    The next deal costs one read (the statement that locks the game reads with it its season,
    the sender's teams and what its key stored before) and three writes (the deal, the game,
    the audit entry): the scorer checks it from the game's stored scores (``GameState``), not by
    reading and replaying the deals before it, and the refusal is asked once (``permit``).
    """
    asked = number
    try:
        with transaction.atomic():
            # The game is read once, locked: who may enter and what the game allows are asked
            # of it as it stands (a refusal rolls back and writes nothing).
            sent_key = key if isinstance(key, str) else None  # checked below, after the refusal
            game = _lock_for_entry(game, asker=getattr(user, "pk", None), key=sent_key)
            allowed = permit(user, Action.RECORD_DEAL, game)
            refused = allowed.refused
            mine = getattr(game.match, checks.ASKER_TEAMS)[1]
            # A player whose game ended may still send their entry of a stored deal; an
            # outsider (no team here) may not, and is not asked again.
            if refused is not None and not (mine and _may_send_rival(user, game)):
                raise refused.exception(current=game_state(game))
            if number is not None and (type(number) is not int or not 1 <= number <= 999):
                raise ValidationFailed(
                    _("The deal number must be a whole number from 1."), field="number"
                )
            key = checked_key(key)
            season = game.match.week.season
            variant = season.game_variant
            expected = game.deal_count + 1
            sent = read_deal(data, variant=variant, number=number or expected)
            locked = game

            def sent_before(stored: Deal | None) -> Deal | None:
                """The deal this key stored, if this request is the same one (a retry)."""
                return replay(
                    stored,
                    same=lambda deal: (
                        deal.game_id == locked.pk and _same_entry(deal, sent.normal, asked)
                    ),
                    conflict=_("This entry was already sent with different numbers."),
                    current=lambda _deal: game_state(locked),
                )

            key_deal = getattr(game, "key_deal", None)
            # This key stored a deal before: a retry (the stored deal back), or a conflict.
            if key_deal is not None and (existing := sent_before(Deal.objects.get(pk=key_deal))):
                return existing, False
            # A retry that waited for the lock while its first send committed: on PostgreSQL
            # the locked read's subquery saw the database from before the wait, so the key is
            # asked again (one query) where such a retry lands, a deal already stored or one
            # refused as the next.
            again = key is not None and key_deal is None
            if number is None:
                number = expected
            if number < expected:
                if again and (existing := sent_before(stored_by_key(Deal, key))) is not None:
                    return existing, False
                return _second_entry(
                    game, number, data, sent.normal, user, key=key, mine=mine, actor=allowed.actor
                )
            if refused is not None:  # a player sent a deal past the last: the state says no
                raise refused.exception(current=game_state(game))
            if number != expected:
                raise Conflict(
                    _("The next deal to enter is deal %(next)s.") % {"next": expected},
                    field="number",
                    current=game_state(game),
                )
            try:
                result = _next_deal(game, sent.entry, variant, season.target, number)
            except ValidationFailed:
                if again and (existing := sent_before(stored_by_key(Deal, key))) is not None:
                    return existing, False
                raise
            deal = _new_deal(
                game,
                number,
                1,
                sent.normal,
                result.scores_after,
                allowed.actor,
                key=key,
                fingerprint=sent.fingerprint,
            )
            deal.save(force_insert=True)
            _apply_result(game, result.scores_after, result.finished, number, season)
            _vouch(game, min(mine) if mine else None, number)
            before = _settle(game, user=user, actor=allowed.actor)
            game.save()
            audit_log(
                actor=user,
                action=AuditAction.DEAL_RECORD,
                obj=deal,
                after={"number": number, **sent.normal},
                account=allowed.actor,
            )
            _standings_follow(game, before)
            return deal, True
    except IntegrityError:
        # Someone else stored this deal number (or key) a moment before us.
        game = game if isinstance(game, Game) else Game.objects.get(pk=game)
        game.refresh_from_db()
        existing = replay(
            stored_by_key(Deal, key),
            same=lambda deal: _same_entry(deal, sent.normal, asked),
            conflict=None,  # another deal under this key: the refusal below
        )
        if existing is not None:
            return existing, False
        raise Conflict(
            _("Someone else entered this deal a moment ago; send it again to compare."),
            current=game_state(game),
        ) from None


def _lock_for_entry(game: Game | int, *, asker: int | None, key: str | None) -> Game:
    """``game`` locked, read in the one statement that takes the lock with what recording a
    deal asks of it: its match, week and season, the team of the match that ``asker`` (a
    user's id) plays for (``checks.ASKER_TEAMS``, so the refusal costs no query of teams), and
    ``key_deal``, the id of the deal ``key`` stored before (None: a new key).

    The two are plain SQL subqueries (``_ASKER_TEAM``, ``_KEY_DEAL``): written as ORM
    subqueries, compiling them cost 1.8 ms of CPU a deal, more than the rest of the statement."""
    rows = Game.objects.select_for_update(of=("self",)).select_related(
        "match__week__season", "match__home", "match__away"
    )
    if isinstance(game, Game):
        rows = rows.filter(pk=game.pk)
    else:  # named by a request: a season being imported shows nothing yet
        rows = rows.filter(pk=game, match__week__season__importing=False)
    if asker is not None:
        rows = rows.annotate(
            asker_team=RawSQL(_ASKER_TEAM, [asker], output_field=BigIntegerField())
        )
    if key:
        rows = rows.annotate(key_deal=RawSQL(_KEY_DEAL, [key], output_field=BigIntegerField()))
    locked: Game = rows.get()
    team = getattr(locked, "asker_team", None)
    # A player plays for one team a season (``refuse_players_taken``): one team, or none.
    setattr(locked.match, checks.ASKER_TEAMS, (asker, frozenset() if team is None else {team}))
    return locked


def _sql_names() -> dict[str, str]:
    roster, player, deal = Team.players.through._meta, Player._meta, Deal._meta
    return {
        "roster": roster.db_table,
        "player": player.db_table,
        "deal": deal.db_table,
        "match": Match._meta.db_table,  # the alias the game's select_related join gives it
    }


# The team of the locked game's match that a user (the parameter) plays for: the lowest id, as
# ``checks.team_of`` answers.
_ASKER_TEAM = (
    "SELECT MIN(r.team_id) FROM {roster} r INNER JOIN {player} p ON p.id = r.player_id "
    "WHERE p.user_id = %s AND r.team_id IN ({match}.home_id, {match}.away_id)"
).format(**_sql_names())
# The deal a key (the parameter) stored before, whatever game it is of (a key is unique).
_KEY_DEAL = 'SELECT d.id FROM {deal} d WHERE d."key" = %s'.format(**_sql_names())


def _next_deal(
    game: Game, entry: DealEntry, variant: Variant, target: int, number: int
) -> DealResult:
    """Deal ``number`` checked by the scorer as the next deal of ``game``, from where the game
    stands (its stored scores and deal count), without replaying the deals before it."""
    start = ScoredGame(variant, first_dealer=game.first_dealer, target=target)
    home, away = game.home_side, 1 - game.home_side
    scores = [0, 0]
    scores[home], scores[away] = game.home_score, game.away_score
    state = dataclasses.replace(start.state, scores=tuple(scores), deals=game.deal_count)
    try:
        return validate_deal(state, entry)
    except InvalidDealError as exc:
        raise _human(exc, game, number) from None


def _same_entry(deal: Deal, normal: Mapping[str, Any], number: int | None) -> bool:
    """Whether ``deal`` is what this request sends (a retry): the same numbers under the same
    deal number (the stored one when the request names none)."""
    return deal.fingerprint == fingerprint(normal, deal.number if number is None else number)


def _may_send_rival(user: Actor, game: Game) -> bool:
    """A player may still send their entry of a deal already stored, after the game ended
    (their phone was behind): it is compared, never dropped."""
    return can(user, Action.CORRECT_DEAL, game)


def _second_entry(
    game: Game,
    number: int,
    data: Mapping[str, Any],
    normal: Mapping[str, Any],
    user: Actor,
    *,
    key: str | None,
    mine: Collection[int],
    actor: Any,
) -> tuple[Deal, bool]:
    """Deal ``number`` sent again: an agreement (same numbers); with other numbers, a
    correction when the sender's team entered it (a team is never its own rival), else a
    rival entry. ``mine`` (the sender's team, from the locked read) and ``actor`` (the
    account, from the one ``permit``) come with the game: an agreement, as common as a deal
    where both teams' phones enter, asks neither the permissions nor the teams again."""
    if game.status not in lifecycle.ALLOWED[Event.CORRECT_DEAL]:  # only a trusted sender
        lifecycle.require(Event.CORRECT_DEAL, game.status, current=game_state(game))
    # Read with who entered it (the answer names them); its game is the locked one, already
    # read with its season (the audit entry and the answer find them there).
    current = Deal.objects.select_related("entered_by").get(
        game=game, number=number, is_current=True
    )
    current.game = game
    agrees = same_deal(current, normal)
    team = min(mine) if mine else None
    if not agrees and _own_entry(current, actor, team, game.match):
        corrected = deals_correct(
            game=game,
            corrections={number: data},
            user=user,
            reason=_("Sent again with other numbers by the team that entered it."),
            key=key,
        )
        return corrected[number], True  # type: ignore[return-value]
    if agrees:
        _vouch(game, team, number)
        before = _settle(game, user=user, actor=actor)
        game.save()
        audit_log(
            actor=user,
            action=AuditAction.DEAL_AGREE,
            obj=current,
            after={"number": number},
            account=actor,
        )
        _standings_follow(game, before)
        return current, False
    same = Deal.objects.filter(
        game=game, number=number, is_rival=True, settled_at__isnull=True, entered_by=actor
    ).first()
    if same is not None and same_deal(same, normal):
        return same, False
    rival = Deal.objects.create(
        game=game,
        number=number,
        version=_next_version(game, number),
        is_current=False,
        is_rival=True,
        key=key or None,
        fingerprint=fingerprint(normal, number),
        entered_by=actor,
        home_after=current.home_after,
        away_after=current.away_after,
        **_deal_fields(normal),
    )
    _recount_rivals(game)
    before = _settle(game, user=user, actor=actor)
    game.save()
    audit_log(
        actor=user,
        action=AuditAction.DEAL_RIVAL,
        obj=rival,
        before={"number": number, **stored_deal(current)},
        after={"number": number, **normal},
        account=actor,
    )
    _standings_follow(game, before)
    return rival, True


def _own_entry(deal: Deal, actor: Any, team: int | None, match: Match) -> bool:
    """Whether ``deal`` is the sender's own entry: they (the account ``actor``) entered it, or
    their team (``team``) did."""
    if deal.entered_by_id is not None and deal.entered_by_id == getattr(actor, "pk", None):
        return True
    return team is not None and checks.entered_by_team(deal, match) == team


def same_deal(deal: Deal, normal: Mapping[str, Any]) -> bool:
    """Whether a stored deal says exactly what ``normal`` says (the same numbers and cards,
    however the submission spelt his heels)."""
    stored = stored_deal(deal)
    return all(stored[k] == v for k, v in _deal_fields(normal).items() if k != "starter") and (
        (deal.starter or None) == (normal.get("starter") or None)
    )


def _deal_fields(normal: Mapping[str, Any]) -> dict[str, Any]:
    starter = normal.get("starter") or ""
    return {
        "dealer": normal["dealer"],
        "starter": starter,
        "heels": bool(normal.get("heels")) or starter.startswith("J"),
        "pegging": normal["pegging"],
        "shows": normal["shows"],
        "crib": normal.get("crib"),
        "cards": normal.get("cards"),
    }


def _save_deal(
    game: Game,
    number: int,
    version: int,
    normal: Mapping[str, Any],
    scored: ScoredGame,
    user: Actor,
    *,
    key: str | None = None,
    reason: str = "",
    reason_code: str = "",
    reason_params: Mapping[str, Any] | None = None,
) -> Deal:
    after = scored.deals[number - 1].scores_after
    deal = _new_deal(game, number, version, normal, after, actor_of(user), key=key, reason=reason)
    deal.reason_code, deal.reason_params = reason_code, dict(reason_params or {})
    deal.save(force_insert=True)
    return deal


def _new_deal(
    game: Game,
    number: int,
    version: int,
    normal: Mapping[str, Any],
    after: Sequence[int],
    actor: Any,
    *,
    key: str | None = None,
    reason: str = "",
    fingerprint: str | None = None,
) -> Deal:
    """Deal ``number`` of ``game``, the scores per side ``after`` it, entered by ``actor``
    (the account: ``actor_of``), not yet saved."""
    home, away = game.home_side, 1 - game.home_side
    return Deal(
        game=game,
        number=number,
        version=version,
        home_after=after[home],
        away_after=after[away],
        key=key or None,
        fingerprint=fingerprint or entries.fingerprint(normal, number),
        entered_by=actor,
        reason=reason,
        **_deal_fields(normal),
    )


def _next_version(game: Game, number: int) -> int:
    last = game.deals.filter(number=number).order_by("-version").values_list("version", flat=True)
    return (last.first() or 0) + 1


# --- Several deals corrected as one change (a team's own entry sent again comes here too) ---------


def deals_correct(
    *,
    game: Game,
    corrections: Mapping[int, Mapping[str, Any] | None],
    user: Actor,
    reason: str,
    ruling: Dispute | None = None,
    key: str | None = None,
    reason_code: str = "",
    reason_params: Mapping[str, Any] | None = None,
) -> dict[int, Deal | None]:
    """Correct any set of deals at once (deal number -> the whole deal; None strikes out a
    deal at the end of the game): the corrected game is replayed and validated as one, so a
    typo that changes who reached the target is fixed in one go. A team's correction (one deal,
    checked by ``deal_correct``, or sent again as an entry by ``deal_record`` with its ``key``,
    which the new version keeps so that the same request sent twice finds it) or a judge's
    ruling (``ruling``, from ``dispute_rule``). Returns the new versions (None for a
    struck-out deal). A reason the system wrote comes as its words (``reason``) and its
    ``reason_code`` and ``reason_params`` (league.kernel.stored_texts), stored on each new
    version and on the audit entry, read in each reader's language."""
    if ruling is None:
        for deal in game.deals.filter(number__in=list(corrections), is_current=True):
            refuse_unless(user, Action.CORRECT_DEAL, deal, current=lambda: game_state(game))
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the deal is corrected."), field="reason")
    if not corrections:
        raise ValidationFailed(_("Say which deals are corrected."), field="corrections")
    variant = variant_of(game)
    normals_in = {}
    for number, data in corrections.items():
        if type(number) is not int:
            raise ValidationFailed(_("A deal number is a whole number."), field="corrections")
        normals_in[number] = None if data is None else normalise(data, variant=variant)
    with transaction.atomic():
        game = _lock(game)
        event = Event.RULE if ruling is not None else Event.CORRECT_DEAL
        lifecycle.require(event, game.status, current=game_state(game))
        deals = _current_deals(game)
        for number in normals_in:
            if not 1 <= number <= len(deals):
                raise ValidationFailed(
                    _("This game has no deal %(n)s.") % {"n": number}, field="corrections"
                )
        struck = sorted(n for n, v in normals_in.items() if v is None)
        if struck and struck != list(range(len(deals) - len(struck) + 1, len(deals) + 1)):
            raise ValidationFailed(
                _("Only the last deals of a game can be struck out."), field="corrections"
            )
        keep = len(deals) - len(struck)
        normals = [
            n if (n := normals_in.get(d.number)) is not None else stored_deal(d)
            for d in deals[:keep]
        ]
        scored = _replay(game, normals, changed=frozenset(normals_in))
        if scored.finished and len(scored.deals) < keep:
            raise ValidationFailed(
                _("The game ends in deal %(n)s now: strike out the deals after it.")
                % {"n": len(scored.deals)},
                field="corrections",
            )
        changed: dict[int, Deal | None] = {}
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        for deal in deals:
            if deal.number not in normals_in:
                continue
            normal = normals_in[deal.number]
            if normal is not None and same_deal(deal, normal):
                continue  # the deal as it stands: nothing to correct
            deal.is_current = False
            deal.save(update_fields=["is_current"])
            before[str(deal.number)] = stored_deal(deal)
            if normal is None:
                changed[deal.number] = None
                after[str(deal.number)] = None
                continue
            changed[deal.number] = _save_deal(
                game,
                deal.number,
                _next_version(game, deal.number),
                normal,
                scored,
                user,
                key=key,
                reason=reason,
                reason_code=reason_code,
                reason_params=reason_params,
            )
            after[str(deal.number)] = normal
        if not changed:
            return {}
        for later in deals[:keep]:  # running totals after a changed deal may have moved
            if later.number not in changed:
                totals = scored.deals[later.number - 1].scores_after
                Deal.objects.filter(pk=later.pk).update(
                    home_after=totals[game.home_side], away_after=totals[1 - game.home_side]
                )
        _apply_scores(game, scored, keep)
        first = min(changed)
        if ruling is None:
            mine = team_of(user, game.match)
            _settle_rivals_agreeing(game, changed)
            for team, field in ((game.match.home_id, "home"), (game.match.away_id, "away")):
                if team == mine:
                    _vouch(game, team, first)
                elif not _agrees(game, team, changed):
                    setattr(
                        game, f"{field}_vouched", min(getattr(game, f"{field}_vouched"), first - 1)
                    )
        _recount_rivals(game)
        _settle(game, user=user)
        game.save()
        audit_log(
            actor=user,
            action=AuditAction.DEALS_CORRECT if ruling is not None else AuditAction.DEAL_CORRECT,
            obj=game,
            before=before,
            after={
                **after,
                **({"dispute": ruling.pk} if ruling is not None else {}),
                **(
                    {"reason_code": reason_code, "reason_params": dict(reason_params or {})}
                    if reason_code
                    else {}
                ),
            },
            reason=reason,
        )
        results_changed(season_id=_season_id(game))
    return changed


def _settle_rivals_agreeing(game: Game, changed: Mapping[int, Deal | None]) -> None:
    """A correction that takes the other team's numbers settles their rival entry (the same
    numbers and cards, however each request spelt an empty field: ``same_deal``)."""
    now = timezone.now()
    for number, deal in changed.items():
        if deal is None:
            continue
        shape = stored_deal(deal)
        rivals = Deal.objects.filter(
            game=game, number=number, is_rival=True, settled_at__isnull=True
        )
        agreeing = [r.pk for r in rivals if same_deal(r, shape)]
        if agreeing:
            Deal.objects.filter(pk__in=agreeing).update(settled_at=now)


def _agrees(game: Game, team: int, changed: Mapping[int, Deal | None]) -> bool:
    """Whether ``team`` had entered exactly the corrected numbers itself (a rival now settled)."""
    for number, deal in changed.items():
        if deal is None:
            return False
        shape = stored_deal(deal)
        rivals = Deal.objects.filter(game=game, number=number, is_rival=True).select_related(
            "entered_by"
        )
        if not any(
            team_of(r.entered_by, game.match) == team and same_deal(r, shape)
            for r in rivals
            if r.entered_by
        ):
            return False
    return True
