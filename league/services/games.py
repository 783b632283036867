"""A game's life: starting a game, then confirming, closing, voiding, cancelling and re-scoring
it (deals and corrections: ``deals`` and ``corrections``; many games at once: ``game_build``).

Each function has the shape ``league.services.deals`` states: ask, lock, change, settle, save,
audit, then let the standings know after commit.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.checks import team_of
from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.lifecycle import Event
from league.kernel.permissions import Action, Actor, Trusted, actor_of, refuse_unless
from league.models import (
    Dispute,
    DisputeStatus,
    Game,
    GameSeat,
    GameStatus,
    Match,
    Player,
    Team,
)
from league.selectors.games import stored_deal
from league.services.deals import (
    OPEN_DISPUTES,
    _apply_scores,
    _current_deals,
    _fresh,
    _lock,
    _replay,
    _season_id,
    _settle,
    _vouch,
    game_state,
    seat_names,
)
from league.services.forfeits import forfeit_points_of, void_locked
from league.services.notify import notify_result_closed
from league.services.results import results_changed
from scoring.game import Game as ScoredGame
from scoring.variants import Variant

# --- Starting a game -----------------------------------------------------------------------------


def games_per_match(match: Match) -> int:
    return checks.games_per_match(match)


def match_decided(match: Match) -> Any:
    """The team that has won a playoff match (a majority of its games), else None. A league
    match plays all its games: each one earns league points."""
    return checks.playoff_winner(match, match.games.exclude(status=GameStatus.VOID))


def game_start(
    *,
    match: Match | int,
    user: Actor,
    seats: Sequence[Player | int | str],
    first_dealer: int = 0,
    number: int | None = None,
    key: str | None = None,
) -> Game:
    """Open a game of ``match`` (a Match, or the id a request named: a match of a season being
    imported is not found, ``Match.DoesNotExist``) with players seated clockwise (partners
    opposite).

    ``number`` is 1..games per match (by default the lowest one free: a voided game's number
    is free again, for the replay). Games are played one at a time: none starts while a game
    of the match is under way (``checks.start_refusal``). ``key`` (made by the phone) makes
    the request safe to send twice: the same key gives back the same game.

    Three reads, all in the transaction that locks the match: the match (with its season, the
    starter's teams and the game its key started before), its games, and its two rosters, from
    which the seats are found; then the game, its seats and the audit entry are written. The
    game comes back with its seats and (no) deals attached, for the answer to show.
    """
    sent_key = key if isinstance(key, str) else None  # checked below, after the refusal
    try:
        with transaction.atomic():
            match = _lock_match(match, asker=getattr(user, "pk", None), key=sent_key)
            refuse_unless(user, Action.KEEP_SCORE, match)
            key = checked_key(key)
            key_game = getattr(match, "key_game", None)
            if key_game is not None and (
                existing := _started_before(key, match, seats, first_dealer)
            ):
                return existing  # a retry: the game it started may be under way by now
            every = _read_once(Game.objects.filter(match=match))  # what the refusal reads
            match._prefetched_objects_cache = {"games": every}  # type: ignore[attr-defined]
            games = [g for g in every if g.status != GameStatus.VOID]
            try:
                refuse_unless(user, Action.START_GAME, match)
            except Conflict:
                # A retry that waited for the lock while its first send committed (the locked
                # read's subquery saw the database from before the wait, on PostgreSQL).
                if key and key_game is None:
                    existing = _started_before(key, match, seats, first_dealer)
                    if existing is not None:
                        return existing
                raise
            variant = match.week.season.game_variant
            rosters = _rosters(match)
            found = [_seated(p, rosters, season_id=match.week.season_id) for p in seats]
            players = [player for player, _sub in found]
            subs = frozenset(player.name for player, sub in found if sub)
            _check_seating(players, variant)
            home_side = _home_side(match, players, variant, rosters=rosters, subs=subs)
            _check_first_dealer(first_dealer, variant)
            limit = games_per_match(match)
            if number is not None:
                _check_number(number, limit)
            taken = {g.number for g in games}
            if number in taken:
                raise Conflict(_("Game %(n)s of this match has already started.") % {"n": number})
            if number is None:
                number = next(n for n in range(1, limit + 1) if n not in taken)
            game = Game.objects.create(
                match=match,
                number=number,
                first_dealer=first_dealer,
                home_side=home_side,
                entered_by=actor_of(user),
                start_key=key or None,
                **_starting_scores(match, home_side, first_dealer),
            )
            rows = GameSeat.objects.bulk_create(
                GameSeat(game=game, seat=seat, player=p, is_sub=p.name in subs)
                for seat, p in enumerate(players)
            )
            audit_log(
                actor=user,
                action=AuditAction.GAME_START,
                obj=game,
                after=_start_audit(number, players, first_dealer, subs=subs),
            )
    except IntegrityError:
        match = match if isinstance(match, Match) else Match.objects.get(pk=match)
        if (existing := _started_before(key, match, seats, first_dealer)) is not None:
            return existing
        raise Conflict(_("Someone else started this game a moment ago.")) from None
    seated = GameSeat.objects.filter(game=game).order_by("seat")
    game._prefetched_objects_cache = {"seats": _read_once(seated, rows)}  # type: ignore[attr-defined]
    game.current_deals = []  # type: ignore[attr-defined]
    return game


def _read_once(rows: QuerySet[Any], result: list[Any] | None = None) -> QuerySet[Any]:
    """``rows`` evaluated now (or holding ``result``, rows already in hand), as a prefetch
    holds them: ``.all()`` answers from them, a filtered copy asks the database."""
    rows._result_cache = list(rows) if result is None else result
    rows._prefetch_done = True  # type: ignore[attr-defined]
    return rows


def _lock_match(match: Match | int, *, asker: int | None, key: str | None) -> Match:
    """``match`` locked (only its row), read in the same statement with its week, season and
    teams, the teams of it that ``asker`` plays for (``checks.ASKER_TEAMS``) and ``key_game``,
    the game ``key`` started before (None: a new key)."""
    rows = Match.objects.select_for_update(of=("self",)).select_related(
        "week__season__league", "home", "away"
    )
    if isinstance(match, Match):
        rows = rows.filter(pk=match.pk)
    else:  # named by a request: a season being imported shows nothing yet
        rows = rows.filter(pk=match, week__season__importing=False)
    if asker is not None:
        members = Team.players.through.objects.filter(player__user_id=asker)
        rows = rows.annotate(
            asker_home=Exists(members.filter(team_id=OuterRef("home_id"))),
            asker_away=Exists(members.filter(team_id=OuterRef("away_id"))),
        )
    if key:
        rows = rows.annotate(key_game=Subquery(Game.objects.filter(start_key=key).values("pk")[:1]))
    locked: Match = rows.get()
    teams = set()
    if getattr(locked, "asker_home", False):
        teams.add(locked.home_id)
    if getattr(locked, "asker_away", False):
        teams.add(locked.away_id)
    setattr(locked, checks.ASKER_TEAMS, (asker, frozenset(teams)))
    return locked


def _rosters(match: Match) -> tuple[list[Player], list[Player]]:
    """The players of the match's home and away teams, in one query."""
    home: list[Player] = []
    away: list[Player] = []
    rows = Team.players.through.objects.filter(team_id__in=(match.home_id, match.away_id))
    for row in rows.select_related("player"):
        (home if row.team_id == match.home_id else away).append(row.player)
    return home, away


def _seated(
    value: Player | int | str, rosters: tuple[list[Player], list[Player]], *, season_id: int
) -> tuple[Player, bool]:
    """The player a seat names and whether they sit as a sub: found in the match's rosters (no
    query), else on the season's sub list (one query, only for a seat no roster fills), else
    as ``_player`` finds anyone (a player of neither team is then refused by ``_home_side``)."""
    for player in (*rosters[0], *rosters[1]):
        if (
            (isinstance(value, Player) and player.pk == value.pk)
            or (type(value) is int and player.pk == value)
            or (isinstance(value, str) and player.name == value)
        ):
            return player, False
    listed = Player.objects.filter(sub_for_seasons__season_id=season_id)
    if isinstance(value, Player):
        listed = listed.filter(pk=value.pk)
    elif type(value) is int:
        listed = listed.filter(pk=value)
    elif isinstance(value, str):
        listed = listed.filter(name=value)
    else:
        listed = listed.none()
    sub = listed.first()
    if sub is not None:
        return sub, True
    return _player(value), False


def _start_audit(
    number: int, players: Sequence[Player], first_dealer: int, *, subs: Collection[str] = ()
) -> dict[str, Any]:
    after: dict[str, Any] = {
        "number": number,
        "seats": [p.name for p in players],
        "first_dealer": first_dealer,
    }
    if subs:
        after["subs"] = sorted(subs)
    return after


def _check_seating(players: Sequence[Player], variant: Variant) -> None:
    """Refuse a table with the wrong number of players or a player in two seats."""
    if len(players) != variant.players:
        raise ValidationFailed(
            _("Seat %(n)s players for this game.") % {"n": variant.players}, field="seats"
        )
    if len({p.name for p in players}) != len(players):  # names are unique, and known unsaved
        raise ValidationFailed(_("A player can sit in only one seat."), field="seats")


def _check_first_dealer(first_dealer: Any, variant: Variant) -> None:
    if type(first_dealer) is not int or not 0 <= first_dealer < variant.players:
        raise ValidationFailed(
            _("The first dealer is one of the %(n)s seats.") % {"n": variant.players},
            field="first_dealer",
        )


def _check_number(number: Any, limit: int) -> None:
    if type(number) is not int or not 1 <= number <= limit:
        raise ValidationFailed(
            _("A match here has games 1 to %(n)s.") % {"n": limit}, field="number"
        )


def _starting_scores(match: Match, home_side: int, first_dealer: int) -> dict[str, int]:
    """What the scores are before the first deal: 0-0, except in the five-card game, where the
    dealer's opponent takes three for last at the start."""
    season = match.week.season
    scored = ScoredGame(season.game_variant, first_dealer=first_dealer, target=season.target)
    start = scored.scores
    return {"home_score": start[home_side], "away_score": start[1 - home_side]}


def _started_before(
    key: str | None, match: Match, seats: Sequence[Any], first_dealer: int
) -> Game | None:
    """The game ``key`` started before, if this request is the same one (a retry); None for a
    new key; a Conflict if the key started another game."""
    return replay(
        stored_by_key(Game, key, field="start_key"),
        same=lambda game: _same_start(game, match, seats, first_dealer),
        conflict=_("This key already started another game."),
        current=game_state,
    )


def _same_start(game: Game, match: Match, seats: Sequence[Any], first_dealer: int) -> bool:
    """Whether a start request asks for the game it made: the same match, seats and dealer."""
    names = seat_names(game)
    asked = [p.name if isinstance(p, Player) else _player(p).name for p in seats]
    return game.match_id == match.pk and names == asked and game.first_dealer == first_dealer


def _home_side(
    match: Match,
    players: Sequence[Player],
    variant: Variant,
    rosters: tuple[Sequence[Player], Sequence[Player]] | None = None,
    subs: Collection[str] = frozenset(),
) -> int:
    """Which side (0: seats 0 and 2) the home team sits on; refuses a wrong seating.
    ``rosters`` (home, away players) spares the queries when the caller holds them. ``subs``
    are the names seated from the season's sub list: a sub plays for the team of the side
    they sit on (beside a player of that team, or beside a second sub when both of the team's
    players are absent; in singles, the side the other team does not sit on). A side of subs
    alone is the team's whose players sit on neither side, so at least one player of a team
    must sit at the table."""
    if rosters is None:
        rosters = (list(match.home.players.all()), list(match.away.players.all()))
    home_names = {p.name for p in rosters[0]}
    away_names = {p.name for p in rosters[1]}
    home_side = None
    for seat, player in enumerate(players):
        if player.name in subs:
            continue  # a sub plays for the team of the side they sit on, found below
        if player.name in home_names:
            this_home_side = variant.side_of(seat)
        elif player.name in away_names:
            this_home_side = 1 - variant.side_of(seat)
        else:
            raise ValidationFailed(
                _(
                    "%(name)s does not play for either team in this match, and is not on the "
                    "season's sub list."
                )
                % {"name": player.name},
                field=f"seats.{seat}",
            )
        if home_side is None:
            home_side = this_home_side
        elif home_side != this_home_side:
            raise ValidationFailed(
                _("Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4."),
                field="seats",
            )
    if home_side is None:
        raise ValidationFailed(_("Seat at least one player of each team."), field="seats")
    return home_side


def _player(value: Player | int | str) -> Player:
    if isinstance(value, Player):
        return value
    try:
        if type(value) is int:
            return Player.objects.get(pk=value)
        if isinstance(value, str):
            return Player.objects.get(name=value)
    except Player.DoesNotExist:
        pass
    raise ValidationFailed(_("No player called %(name)s.") % {"name": value}, field="seats")


# --- Confirming, voiding, re-scoring ------------------------------------------------------------


def game_confirm(*, game: Game, user: Actor) -> Game:
    """A team that still has to vouch for a finished game confirms it: it vouches for every
    deal. The game is confirmed once both teams have vouched. A trusted caller (an import, whose
    archive is the record) vouches for both teams."""
    with transaction.atomic():
        # Asked of the game as it stands, locked: a press a moment late is refused for why.
        game = _lock(game)
        if isinstance(user, Trusted):
            lifecycle.require(Event.CONFIRM, game.status, current=game_state(game))
            game.home_vouched = game.away_vouched = game.deal_count
        else:
            refuse_unless(user, Action.CONFIRM_GAME, game, current=lambda: game_state(game))
            _vouch(game, team_of(user, game.match), game.deal_count)
        _settle(game, user=user)
        game.save()
        audit_log(actor=user, action=AuditAction.GAME_CONFIRM, obj=game, after=_confirm_audit(game))
        results_changed(season_id=_season_id(game))
    return game


def game_close(*, game: Game, user: Actor, now: Any = None) -> Game | None:
    """The league closes a finished game nobody confirmed or disputed within the season's grace
    period: both teams are taken to have vouched for it, and its history says "closed by the
    league". Asked again of the game locked, so a confirmation, a dispute or a rival entry a
    moment earlier wins: a game that is not finished any more, whose teams disagree on a deal,
    or that is not due yet, is left as it is (None)."""
    with transaction.atomic():
        game = _lock(game)
        if game.status != GameStatus.FINISHED or not closing_due(game, now=now):
            return None
        hours = game.match.week.season.close_after_hours
        game.home_vouched = game.away_vouched = game.deal_count
        _settle(game, user=user)
        if game.status != GameStatus.CONFIRMED:
            raise AssertionError(f"game {game.pk} did not close: {game.status}")
        game.save()
        audit_log(
            actor=user,
            action=AuditAction.GAME_CLOSE,
            obj=game,
            after={"status": game.status, "hours": hours},
        )
        results_changed(season_id=_season_id(game))
        notify_result_closed(game)  # both teams hear it, after commit
    return game


def closing_due(game: Game, *, now: Any = None) -> bool:
    """Whether the league closes this finished game now: its season closes results, its grace
    period has run since it finished, and neither team entered a deal differently (a
    disagreement is settled by people, never by the clock)."""
    hours = game.match.week.season.close_after_hours
    if not hours or game.finished_at is None or game.home_rival or game.away_rival:
        return False
    now = now or timezone.now()
    return game.finished_at + timedelta(hours=hours) <= now


def _confirm_audit(game: Game) -> dict[str, Any]:
    return {"status": game.status}


def awaiting_teams_of(game: Game) -> list[Any]:
    """The teams the game still waits for (what the page asks), in home, away order."""
    waiting = lifecycle.awaiting_teams(game)
    return [t for t in (game.match.home, game.match.away) if t.pk in waiting]


def game_void(*, game: Game, user: Actor, reason: str) -> Game:
    """Void a game (a judge's or league admin's decision, never on their own team's game): it
    no longer counts, its deals are kept, and its number is free for a replay."""
    game = _fresh(game)
    refuse_unless(user, Action.VOID_GAME, game, current=lambda: game_state(game))
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the game is voided."), field="reason")
    with transaction.atomic():
        game = _lock(game)
        lifecycle.require(Event.VOID, game.status, current=game_state(game))
        void_locked(game, user=user, reason=reason, ruling=_("The game was voided."))
        results_changed(season_id=_season_id(game))
    return game


def game_cancel(*, game: Game, user: Actor) -> Game:
    """Cancel a game started by mistake, before its first deal (a decision of either team, or
    of a league admin). It is voided, the model's one way for a game to leave the record while
    its trail stays: it counts nowhere, its number is free again for the game really played
    next, and its history says who started it and who cancelled it."""
    game = _fresh(game)
    refuse_unless(user, Action.CANCEL_GAME, game, current=lambda: game_state(game))
    with transaction.atomic():
        game = _lock(game)
        # Asked of the game as it stands, locked (and of a trusted caller too): a deal entered
        # a moment ago keeps the game.
        refused = checks.cancel_refusal(game)
        if refused is not None:
            raise refused.exception(current=game_state(game))
        before = game.status
        game.status = GameStatus.VOID
        game.version += 1
        game.save()
        Dispute.objects.filter(game=game, status__in=OPEN_DISPUTES).update(
            status=DisputeStatus.DISMISSED,
            ruling=_("The game was cancelled before its first deal."),
            ruled_at=timezone.now(),
        )
        audit_log(
            actor=user,
            action=AuditAction.GAME_CANCEL,
            obj=game,
            before={"status": before},
            after={"status": game.status},
        )
    return game


def game_rescore(*, game: Game) -> Game:
    """Re-derive a game's outcome and league points under its season's rules as they are now
    (after an audited change of the rules). The deals stand as they are."""
    game = _lock(game)
    lifecycle.require(Event.RESCORE, game.status)
    if game.forfeit_id is not None:  # no deal to replay: the forfeit's points as they are now
        points = forfeit_points_of(game.match.week.season)
        home_won = game.winner_id == game.match.home_id
        game.home_points, game.away_points = (points, 0) if home_won else (0, points)
        game.version += 1
        game.save()
        results_changed(season_id=_season_id(game))
        return game
    deals = _current_deals(game)
    scored = _replay(game, [stored_deal(d) for d in deals])
    _apply_scores(game, scored, len(deals))
    game.version += 1
    game.save()
    results_changed(season_id=_season_id(game))
    return game
