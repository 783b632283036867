"""Score entry: starting a game, recording and correcting deals, confirming, voiding.

Each function has one shape (after pretix): ask ``refuse_unless()`` whether the change may
happen (the one refusal, role then the game's life, raised with its sentence if not), lock the
game row, change, settle the game's state, save, write the audit trail, then let the standings
know after commit. The scorer replays the whole game to validate every change, so the same
rule holds whichever door a deal came through, and a correction of several deals is judged as
one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import BigIntegerField, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.kernel import entries, lifecycle, stored_texts
from league.kernel.audit import AuditAction, audit_entry, audit_log
from league.kernel.entries import fingerprint, normalise, read_deal, to_entry
from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.lifecycle import Event
from league.kernel.permissions import (
    Action,
    Actor,
    Trusted,
    actor_of,
    can,
    permit,
    refuse_unless,
    team_of,
)
from league.kernel.ratings import ratings_changed
from league.kernel.scoring_messages import scoring_message
from league.models import (
    Deal,
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
from league.selectors.standings import COUNTED_STATUSES
from league.services.forfeits import forfeit_points_of, void_locked
from league.services.notify import notify_result_closed, notify_result_to_confirm
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
    game: Game, *, user: Actor, finished: bool | None = None, actor: Any = None
) -> GameStatus:
    """Put the game in the state its facts say (``lifecycle.game_status``, one call); stamp
    when it finished and was confirmed. Returns the state it was in before. The open disputes
    are counted (one query) only for a finished game: a game in progress is in progress
    whatever is disputed. ``finished`` is for a game built in memory, whose winner (an unsaved
    team) has no key yet; ``actor``, the account, when the caller has it (``Permit.actor``)."""
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
# ``permissions.team_of`` answers.
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


# --- Corrections ---------------------------------------------------------------------------------


def deal_correct(
    *,
    game: Game,
    number: int,
    user: Actor,
    data: Mapping[str, Any],
    reason: str = "",
    reason_code: str = "",
    rival: Any = None,
) -> Deal:
    """The team that entered deal ``number`` corrects it before the game is confirmed: a new
    version, the whole game replayed. The other team's vouch stops before the corrected deal
    (it has to look again), unless the correction agrees with its own entry of that deal.

    Why: ``reason`` as the captain wrote it, or ``reason_code`` for a reason the system words
    in each reader's language: ``took_rival`` with ``rival`` (the id of the other entry of
    this deal whose numbers ``data`` takes)."""
    if not isinstance(user, Trusted) and team_of(user, game.match) is None:
        raise checks.CORRECT.exception()  # an outsider learns nothing of the game's deals
    deal = game.deals.filter(number=number, is_current=True).select_related("entered_by").first()
    if deal is None:
        raise ValidationFailed(_("This game has no deal %(n)s.") % {"n": number}, field="number")
    refuse_unless(user, Action.CORRECT_DEAL, deal, current=lambda: game_state(game))
    params: dict[str, Any] = {}
    if reason_code:
        params = _took_rival(game, number, data, reason_code, rival)
        reason = stored_texts.written(reason_code, params)
    new = deals_correct(
        game=game,
        corrections={number: data},
        user=user,
        reason=reason,
        reason_code=reason_code,
        reason_params=params,
    )
    if number not in new:  # the deal already stands so: nothing to correct
        return game.deals.get(number=number, is_current=True)
    return new[number]  # type: ignore[return-value]


def _took_rival(
    game: Game, number: int, data: Mapping[str, Any], code: str, rival: Any
) -> dict[str, Any]:
    """The parameters of a correction's ``code`` (``took_rival``), checked: the other entry of
    deal ``number`` it names exists, and the corrected deal has its numbers."""
    if code != stored_texts.TOOK_RIVAL:
        raise ValidationFailed(
            _(
                "Pegboard does not know this reason: say in your own words why the deal is "
                "corrected."
            ),
            field="reason_code",
        )
    entry = None
    if type(rival) is int:
        entry = (
            Deal.objects.filter(pk=rival, game=game, number=number, is_rival=True)
            .select_related("entered_by")
            .first()
        )
    if entry is None:
        raise ValidationFailed(
            _("Deal %(n)s has no other entry to take the numbers of.") % {"n": number},
            field="rival",
        )
    who = entry.entered_by.get_username() if entry.entered_by else "?"
    if not isinstance(data, Mapping) or not same_deal(
        entry, normalise(data, variant=variant_of(game))
    ):
        raise ValidationFailed(
            _(
                "These are not the numbers %(who)s entered for deal %(n)s: say in your own "
                "words why the deal is corrected."
            )
            % {"who": who, "n": number},
            field="deal",
        )
    return {"n": number, "who": who, "rival": entry.pk}


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


def rival_withdraw(*, rival: Deal, user: Actor) -> Game:
    """A team accepts the stored numbers of a deal it entered differently: its rival entry is
    settled (kept on record) and its vouch holds again."""
    refuse_unless(user, Action.WITHDRAW_RIVAL, rival, current=lambda: game_state(rival.game))
    with transaction.atomic():
        game = _lock(rival.game)
        updated = Deal.objects.filter(pk=rival.pk, settled_at__isnull=True).update(
            settled_at=timezone.now()
        )
        if not updated:
            raise Conflict(_("This entry is already settled."), current=game_state(game))
        _vouch(game, team_of(user, game.match), rival.number)
        _recount_rivals(game)
        _settle(game, user=user)
        game.save()
        audit_log(
            actor=user, action=AuditAction.RIVAL_WITHDRAW, obj=rival, after={"number": rival.number}
        )
        results_changed(season_id=_season_id(game))
    return game


def settle_after_ruling(game: Game, *, judge: Any) -> None:
    """A ruling settles every pending rival entry of the game; on a finished game it vouches
    for both teams (the judge's decision stands for them). Call inside the ruling's
    transaction, with the game locked."""
    Deal.objects.filter(game=game, is_rival=True, settled_at__isnull=True).update(
        settled_at=timezone.now()
    )
    _recount_rivals(game)
    if game.winner_id is not None:
        game.home_vouched = game.away_vouched = game.deal_count
    _settle(game, user=judge)
    game.save()


def game_resettle(*, game: Game, user: Actor) -> Game:
    """Put a game in the state its facts say (after a dispute was raised or withdrawn)."""
    game = _lock(game)
    before = _settle(game, user=user)
    game.save()
    if before != game.status:
        results_changed(season_id=_season_id(game))
    return game


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


# --- Many games at once, for a trusted bulk writer (the season import) --------------------------


class GameBuild:
    """A game built in memory, deal by deal, through the checks ``game_start``, ``deal_record``
    and ``game_confirm`` make (the same functions, not copies), for a trusted caller that
    stores many games at once with bulk inserts: nothing here touches the database, so a whole
    season is validated before its first row is written.

    ``match`` and its week, season and teams may be unsaved; ``rosters`` are the players of the
    home and away teams. After :meth:`finish`, save ``game``, then ``seats`` and
    :meth:`deal_rows` (their foreign keys follow the saved game), then :meth:`audit_entries`.
    """

    def __init__(
        self,
        *,
        match: Match,
        number: int,
        players: Sequence[Player],
        first_dealer: int,
        user: Actor,
        rosters: tuple[Sequence[Player], Sequence[Player]],
        subs: Collection[str] = frozenset(),
    ) -> None:
        season = match.week.season
        self.variant = season.game_variant
        self.user = user
        self.players = list(players)
        _check_seating(self.players, self.variant)
        home_side = _home_side(match, self.players, self.variant, rosters, subs=subs)
        _check_first_dealer(first_dealer, self.variant)
        _check_number(number, games_per_match(match))
        self.game = Game(
            match=match,
            number=number,
            first_dealer=first_dealer,
            home_side=home_side,
            entered_by=actor_of(user),
            **_starting_scores(match, home_side, first_dealer),
        )
        self.seats = [
            GameSeat(game=self.game, seat=seat, player=p, is_sub=p.name in subs)
            for seat, p in enumerate(self.players)
        ]
        self.scored = ScoredGame(self.variant, first_dealer=first_dealer, target=season.target)
        self.normals: list[dict[str, Any]] = []
        self.deals: list[Deal] = []
        self.confirmed = False
        self._seat_names = [p.name for p in self.players]
        home, away = match.home.name, match.away.name
        self._side_names = [home, away] if home_side == 0 else [away, home]

    @property
    def is_over(self) -> bool:
        """Whether a side has reached the target: no deal may follow."""
        return self.scored.finished

    def record(self, data: Mapping[str, Any]) -> None:
        """The next deal, refused as ``deal_record`` refuses it (ValidationFailed)."""
        number = len(self.normals) + 1
        sent = read_deal(data, variant=self.variant)
        normal = sent.normal
        try:
            self.scored.record(sent.entry)
        except InvalidDealError as exc:
            raise scorer_refusal(
                exc, seats=self._seat_names, sides=self._side_names, number=number
            ) from None
        self.normals.append(normal)

    def finish(self) -> None:
        """Scores, outcome and state from the deals; a finished game is confirmed as
        ``game_confirm`` confirms for a trusted caller (it vouches for both teams)."""
        game = self.game
        _apply_scores(game, self.scored, len(self.normals))
        _vouch(game, team_of(self.user, game.match), len(self.normals))
        finished = self.scored.finished
        _settle(game, user=self.user, finished=finished)
        if game.status == GameStatus.FINISHED:
            lifecycle.require(Event.CONFIRM, game.status)
            game.home_vouched = game.away_vouched = game.deal_count
            _settle(game, user=self.user, finished=finished)
            self.confirmed = True

    def deal_rows(self) -> list[Deal]:
        """The game's deals as ``deal_record`` stores them (built once, when needed, so a
        whole season checked in memory does not hold every row at once)."""
        if not self.deals:
            self.deals = [
                _new_deal(
                    self.game,
                    number,
                    1,
                    normal,
                    self.scored.deals[number - 1].scores_after,
                    actor_of(self.user),
                )
                for number, normal in enumerate(self.normals, start=1)
            ]
        return self.deals

    def release(self) -> None:
        """Let the deals go once they are stored (the game row and its scores stay)."""
        self.deals, self.normals, self.seats = [], [], []

    def audit_entries(self) -> list[Any]:
        """The audit trail the services write for this game (start, each deal, the
        confirmation), unsaved, for a bulk insert once the game and its deals have keys."""
        game, user = self.game, self.user
        entries = [
            audit_entry(
                actor=user,
                action=AuditAction.GAME_START,
                obj=game,
                after=_start_audit(
                    game.number,
                    self.players,
                    game.first_dealer,
                    subs=[s.player.name for s in self.seats if s.is_sub],
                ),
            )
        ]
        entries += [
            audit_entry(
                actor=user, action=AuditAction.DEAL_RECORD, obj=deal, after={"number": n, **normal}
            )
            for n, (deal, normal) in enumerate(zip(self.deals, self.normals, strict=True), 1)
        ]
        if self.confirmed:
            entries.append(
                audit_entry(
                    actor=user,
                    action=AuditAction.GAME_CONFIRM,
                    obj=game,
                    after=_confirm_audit(game),
                )
            )
        return entries
