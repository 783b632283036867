"""Score entry: starting a game, recording and correcting deals, confirming, voiding.

Each function has one shape (after pretix): ask ``refuse_unless()`` whether the change may
happen (the one refusal, role then the game's life, raised with its sentence if not), lock the
game row, change, settle the game's state, save, write the audit trail, then let the standings
know after commit. The scorer replays the whole game to validate every change, so the same
rule holds whichever door a deal came through, and a correction of several deals is judged as
one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.kernel import lifecycle
from league.kernel.audit import AuditAction, audit_entry, audit_log
from league.kernel.entries import fingerprint, normalise, to_entry
from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.lifecycle import Event
from league.kernel.permissions import (
    Action,
    Actor,
    Trusted,
    actor_of,
    can,
    refusal,
    refuse_unless,
    team_of,
)
from league.kernel.scoring_messages import scoring_message
from league.models import Deal, Dispute, DisputeStatus, Game, GameSeat, GameStatus, Match, Player
from league.selectors.games import stored_deal
from league.selectors.standings import COUNTED_STATUSES
from league.services.results import results_changed
from scoring.errors import InvalidDealError
from scoring.game import Game as ScoredGame
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
    season = game.match.week.season
    home, away = game.home_side, 1 - game.home_side
    game.home_score = scored.scores[home]
    game.away_score = scored.scores[away]
    game.deal_count = deal_count
    if scored.finished:
        outcome = scored.outcome(
            skunk_margin=season.skunk_margin, double_skunk_margin=season.double_skunk_margin
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


def facts_of(game: Game, *, finished: bool | None = None) -> lifecycle.Facts:
    """The facts the game's state follows from, its open disputes counted (one query), for
    settling its state: ``lifecycle.game_facts``, the facts every door reads. ``finished``
    is for a game built in memory, whose winner (an unsaved team) has no key yet."""
    open_disputes = game.disputes.filter(status__in=OPEN_DISPUTES).count() if game.pk else 0
    return lifecycle.game_facts(game, open_disputes=open_disputes, finished=finished)


def _settle(game: Game, *, user: Actor, finished: bool | None = None) -> GameStatus:
    """Put the game in the state its facts say; stamp when it finished and was confirmed.
    Returns the state it was in before."""
    before = GameStatus(game.status)
    after = lifecycle.status_of(facts_of(game, finished=finished))
    now = timezone.now()
    if after == GameStatus.IN_PROGRESS:
        game.finished_at = None
    elif game.finished_at is None:
        game.finished_at = now
    if after == GameStatus.CONFIRMED:
        if before != GameStatus.CONFIRMED or game.confirmed_at is None:
            game.confirmed_at = now
            game.confirmed_by = actor_of(user)
    else:
        game.confirmed_at = None
        game.confirmed_by = None
    game.status = after
    game.version += 1
    return before


def _counts_in_standings(status: str) -> bool:
    """Whether the standings count a game in this state (``COUNTED_STATUSES``, the aggregate's
    own list). A game in progress is not counted, so a deal that leaves it in progress changes
    no standings: no stale mark, no new results version, no recompute queued, which is every
    deal but a game's last at every table of a venue night. Its board still moves (the boards'
    signature follows the game's own ``version``)."""
    return status in COUNTED_STATUSES


def _vouch(game: Game, team_id: int | None, through: int) -> None:
    """``team_id`` vouches for deals 1..``through`` (a vouch only ever grows here)."""
    if team_id == game.match.home_id:
        game.home_vouched = max(game.home_vouched, through)
    elif team_id == game.match.away_id:
        game.away_vouched = max(game.away_vouched, through)


def _recount_rivals(game: Game) -> None:
    """Each team's first unsettled rival entry, from the deals."""
    pending = (
        Deal.objects.filter(game=game, is_rival=True, settled_at__isnull=True)
        .order_by("number")
        .select_related("entered_by")
    )
    game.home_rival = game.away_rival = 0
    for rival in pending:
        team = team_of(rival.entered_by, game.match) if rival.entered_by else None
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
    return checks.match_winner(match, match.games.exclude(status=GameStatus.VOID))


def game_start(
    *,
    match: Match,
    user: Actor,
    seats: Sequence[Player | int | str],
    first_dealer: int = 0,
    number: int | None = None,
    key: str | None = None,
) -> Game:
    """Open a game of ``match`` with players seated clockwise (partners opposite).

    ``number`` is 1..games per match (by default the lowest one free: a voided game's number
    is free again, for the replay). Games are played one at a time: none starts while a game
    of the match is under way (``checks.start_refusal``). ``key`` (made by the phone) makes
    the request safe to send twice: the same key gives back the same game.
    """
    refuse_unless(user, Action.KEEP_SCORE, match)
    key = checked_key(key)
    if (existing := _started_before(key, match, seats, first_dealer)) is not None:
        return existing  # a retry: the game it started may be under way by now
    refuse_unless(user, Action.START_GAME, match)
    variant = match.week.season.game_variant
    players = [_player(p) for p in seats]
    _check_seating(players, variant)
    home_side = _home_side(match, players, variant)
    _check_first_dealer(first_dealer, variant)
    limit = games_per_match(match)
    if number is not None:
        _check_number(number, limit)
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=match.pk).first()
            games = list(match.games.exclude(status=GameStatus.VOID))
            taken = {g.number for g in games}
            if number in taken:
                raise Conflict(_("Game %(n)s of this match has already started.") % {"n": number})
            # Asked again of the games as they are, locked (and of a trusted caller too).
            refused = checks.start_refusal(match, games)
            if refused is not None:
                raise refused.exception()
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
            GameSeat.objects.bulk_create(
                GameSeat(game=game, seat=seat, player=p) for seat, p in enumerate(players)
            )
            audit_log(
                actor=user,
                action=AuditAction.GAME_START,
                obj=game,
                after=_start_audit(number, players, first_dealer),
            )
    except IntegrityError:
        if (existing := _started_before(key, match, seats, first_dealer)) is not None:
            return existing
        raise Conflict(_("Someone else started this game a moment ago.")) from None
    return game


def _start_audit(number: int, players: Sequence[Player], first_dealer: int) -> dict[str, Any]:
    return {"number": number, "seats": [p.name for p in players], "first_dealer": first_dealer}


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
) -> int:
    """Which side (0: seats 0 and 2) the home team sits on; refuses a wrong seating.
    ``rosters`` (home, away players) spares the queries when the caller holds them."""
    if rosters is None:
        rosters = (list(match.home.players.all()), list(match.away.players.all()))
    home_names = {p.name for p in rosters[0]}
    away_names = {p.name for p in rosters[1]}
    home_side = None
    for seat, player in enumerate(players):
        if player.name in home_names:
            this_home_side = variant.side_of(seat)
        elif player.name in away_names:
            this_home_side = 1 - variant.side_of(seat)
        else:
            raise ValidationFailed(
                _("%(name)s does not play for either team in this match.") % {"name": player.name},
                field=f"seats.{seat}",
            )
        if home_side is None:
            home_side = this_home_side
        elif home_side != this_home_side:
            raise ValidationFailed(
                _("Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4."),
                field="seats",
            )
    return home_side or 0


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
    game: Game,
    user: Actor,
    number: int | None,
    data: Mapping[str, Any],
    key: str | None = None,
) -> tuple[Deal, bool]:
    """Record deal ``number`` of ``game``. Returns ``(deal, created)``.

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
    """
    try:
        with transaction.atomic():
            # The game is read once, locked: who may enter and what the game allows are asked
            # of it as it stands (a refusal rolls back and writes nothing).
            game = _lock(game)
            refused = refusal(user, Action.RECORD_DEAL, game)
            if refused is not None and not _may_send_rival(user, game):
                raise refused.exception(current=game_state(game))
            if number is not None and (type(number) is not int or not 1 <= number <= 999):
                raise ValidationFailed(
                    _("The deal number must be a whole number from 1."), field="number"
                )
            key = checked_key(key)
            normal = normalise(data, variant=variant_of(game))
            # The game's deals and the deal this key sent before, if any, in one query.
            rows = _current_deals(game, key=key)
            existing = replay(
                next((d for d in rows if key and d.key == key), None),
                same=lambda deal: deal.game_id == game.pk and _same_entry(deal, normal, number),
                conflict=_("This entry was already sent with different numbers."),
                current=lambda _deal: game_state(game),
            )
            if existing is not None:
                return existing, False
            expected = game.deal_count + 1
            if number is None:
                number = expected
            if number < expected:
                return _second_entry(game, number, data, normal, user, key=key)
            if refused is not None:  # a player sent a deal past the last: the state says no
                raise refused.exception(current=game_state(game))
            if number != expected:
                raise Conflict(
                    _("The next deal to enter is deal %(next)s.") % {"next": expected},
                    field="number",
                    current=game_state(game),
                )
            deals = [d for d in rows if d.game_id == game.pk and d.is_current]
            scored = _replay(game, [stored_deal(d) for d in deals] + [normal])
            deal = _save_deal(game, number, 1, normal, scored, user, key=key)
            _apply_scores(game, scored, len(deals) + 1)
            _vouch(game, team_of(user, game.match), number)
            before = _settle(game, user=user)
            game.save()
            audit_log(
                actor=user,
                action=AuditAction.DEAL_RECORD,
                obj=deal,
                after=_deal_audit(number, normal),
            )
            if _counts_in_standings(before) or _counts_in_standings(game.status):
                results_changed(season_id=_season_id(game))
            return deal, True
    except IntegrityError:
        # Someone else stored this deal number (or key) a moment before us.
        game.refresh_from_db()
        existing = replay(
            stored_by_key(Deal, key),
            same=lambda deal: _same_entry(deal, normal, number),
            conflict=None,  # another deal under this key: the refusal below
        )
        if existing is not None:
            return existing, False
        raise Conflict(
            _("Someone else entered this deal a moment ago; send it again to compare."),
            current=game_state(game),
        ) from None


def _same_entry(deal: Deal, normal: Mapping[str, Any], number: int | None) -> bool:
    """Whether ``deal`` is what this request sends (a retry): the same numbers under the same
    deal number (the stored one when the request names none)."""
    return deal.fingerprint == fingerprint(normal, deal.number if number is None else number)


def _deal_audit(number: int, normal: Mapping[str, Any]) -> dict[str, Any]:
    return {"number": number, **normal}


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
) -> tuple[Deal, bool]:
    """Deal ``number`` sent again: an agreement (same numbers); with other numbers, a
    correction when the sender's team entered it (a team is never its own rival), else a
    rival entry."""
    lifecycle.require(Event.CORRECT_DEAL, game.status, current=game_state(game))
    current = Deal.objects.get(game=game, number=number, is_current=True)
    agrees = same_deal(current, normal)
    if not agrees and _own_entry(current, user, game.match):
        corrected = deals_correct(
            game=game,
            corrections={number: data},
            user=user,
            reason=_("Sent again with other numbers by the team that entered it."),
            key=key,
        )
        return corrected[number], True  # type: ignore[return-value]
    team = team_of(user, game.match)
    if agrees:
        _vouch(game, team, number)
        _settle(game, user=user)
        game.save()
        audit_log(actor=user, action=AuditAction.DEAL_AGREE, obj=current, after={"number": number})
        results_changed(season_id=_season_id(game))
        return current, False
    same = Deal.objects.filter(
        game=game, number=number, is_rival=True, settled_at__isnull=True, entered_by=actor_of(user)
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
        entered_by=actor_of(user),
        home_after=current.home_after,
        away_after=current.away_after,
        **_deal_fields(normal),
    )
    _recount_rivals(game)
    _settle(game, user=user)
    game.save()
    audit_log(
        actor=user,
        action=AuditAction.DEAL_RIVAL,
        obj=rival,
        before={"number": number, **stored_deal(current)},
        after={"number": number, **normal},
    )
    results_changed(season_id=_season_id(game))
    return rival, True


def _own_entry(deal: Deal, user: Actor, match: Match) -> bool:
    """Whether ``deal`` is the sender's own entry: they entered it, or their team did."""
    if deal.entered_by_id is not None and deal.entered_by_id == getattr(user, "pk", None):
        return True
    team = team_of(user, match)
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
) -> Deal:
    deal = _new_deal(game, number, version, normal, scored, user, key=key, reason=reason)
    deal.save(force_insert=True)
    return deal


def _new_deal(
    game: Game,
    number: int,
    version: int,
    normal: Mapping[str, Any],
    scored: ScoredGame,
    user: Actor,
    *,
    key: str | None = None,
    reason: str = "",
) -> Deal:
    """Deal ``number`` of ``game`` as the replay ``scored`` counts it, not yet saved."""
    after = scored.deals[number - 1].scores_after
    home, away = game.home_side, 1 - game.home_side
    return Deal(
        game=game,
        number=number,
        version=version,
        home_after=after[home],
        away_after=after[away],
        key=key or None,
        fingerprint=fingerprint(normal, number),
        entered_by=actor_of(user),
        reason=reason,
        **_deal_fields(normal),
    )


def _next_version(game: Game, number: int) -> int:
    last = game.deals.filter(number=number).order_by("-version").values_list("version", flat=True)
    return (last.first() or 0) + 1


# --- Corrections ---------------------------------------------------------------------------------


def deal_correct(
    *, game: Game, number: int, user: Actor, data: Mapping[str, Any], reason: str
) -> Deal:
    """The team that entered deal ``number`` corrects it before the game is confirmed: a new
    version, the whole game replayed. The other team's vouch stops before the corrected deal
    (it has to look again), unless the correction agrees with its own entry of that deal."""
    if not isinstance(user, Trusted) and team_of(user, game.match) is None:
        raise checks.CORRECT.exception()  # an outsider learns nothing of the game's deals
    deal = game.deals.filter(number=number, is_current=True).select_related("entered_by").first()
    if deal is None:
        raise ValidationFailed(_("This game has no deal %(n)s.") % {"n": number}, field="number")
    refuse_unless(user, Action.CORRECT_DEAL, deal, current=lambda: game_state(game))
    new = deals_correct(game=game, corrections={number: data}, user=user, reason=reason)
    return new[number]  # type: ignore[return-value]


def deals_correct(
    *,
    game: Game,
    corrections: Mapping[int, Mapping[str, Any] | None],
    user: Actor,
    reason: str,
    ruling: Dispute | None = None,
    key: str | None = None,
) -> dict[int, Deal | None]:
    """Correct any set of deals at once (deal number -> the whole deal; None strikes out a
    deal at the end of the game): the corrected game is replayed and validated as one, so a
    typo that changes who reached the target is fixed in one go. A team's correction (one deal,
    checked by ``deal_correct``, or sent again as an entry by ``deal_record`` with its ``key``,
    which the new version keeps so that the same request sent twice finds it) or a judge's
    ruling (``ruling``, from ``dispute_rule``). Returns the new versions (None for a
    struck-out deal)."""
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
            after={**after, **({"dispute": ruling.pk} if ruling is not None else {})},
            reason=reason,
        )
        results_changed(season_id=_season_id(game))
    return changed


def _settle_rivals_agreeing(game: Game, changed: Mapping[int, Deal | None]) -> None:
    """A correction that takes the other team's numbers settles their rival entry."""
    now = timezone.now()
    for number, deal in changed.items():
        if deal is None:
            continue
        Deal.objects.filter(
            game=game,
            number=number,
            is_rival=True,
            settled_at__isnull=True,
            fingerprint=deal.fingerprint,
        ).update(settled_at=now)


def _agrees(game: Game, team: int, changed: Mapping[int, Deal | None]) -> bool:
    """Whether ``team`` had entered exactly the corrected numbers itself (a rival now settled)."""
    for number, deal in changed.items():
        if deal is None:
            return False
        rivals = Deal.objects.filter(
            game=game, number=number, is_rival=True, fingerprint=deal.fingerprint
        ).select_related("entered_by")
        if not any(team_of(r.entered_by, game.match) == team for r in rivals if r.entered_by):
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
        before = game.status
        game.status = GameStatus.VOID
        game.version += 1
        game.save()
        Dispute.objects.filter(game=game, status__in=OPEN_DISPUTES).update(
            status=DisputeStatus.DISMISSED,
            ruling=_("The game was voided."),
            ruled_at=timezone.now(),
        )
        audit_log(
            actor=user,
            action=AuditAction.GAME_VOID,
            obj=game,
            before={"status": before},
            after={"status": game.status},
            reason=reason,
        )
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
    ) -> None:
        season = match.week.season
        self.variant = season.game_variant
        self.user = user
        self.players = list(players)
        _check_seating(self.players, self.variant)
        home_side = _home_side(match, self.players, self.variant, rosters)
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
            GameSeat(game=self.game, seat=seat, player=p) for seat, p in enumerate(self.players)
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
        normal = normalise(data, variant=self.variant)
        try:
            self.scored.record(to_entry(normal))
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
                _new_deal(self.game, number, 1, normal, self.scored, self.user)
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
                after=_start_audit(game.number, self.players, game.first_dealer),
            )
        ]
        entries += [
            audit_entry(
                actor=user, action=AuditAction.DEAL_RECORD, obj=deal, after=_deal_audit(n, normal)
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
