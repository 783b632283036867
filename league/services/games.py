"""Score entry: starting a game, recording and correcting deals, confirming and voiding games.

Each function has one shape (after pretix): check the state and the role (raise a domain error
with a human message), lock, change, save, write the audit trail, then schedule side effects with
``transaction.on_commit``. The scorer replays the game's deals to validate every change, so the
same rule holds whichever door a deal came through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.models import Deal, Game, GameSeat, GameStatus, Match, Player, Season, Team
from league.permissions import Action, can, is_league_admin, teams_of
from league.services.audit import audit_log
from league.services.entries import fingerprint, normalise, to_entry
from scoring.errors import InvalidDealError
from scoring.game import Game as ScoredGame
from scoring.variants import Variant, get_variant


def variant_of(game: Game) -> Variant:
    return get_variant(game.match.week.season.league.variant)


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


def _human(exc: InvalidDealError, game: Game, number: int) -> ValidationFailed:
    """Name seats by their players so the message reads like the table talks."""
    message = str(exc)
    names = seat_names(game)
    for seat, name in enumerate(names):
        message = message.replace(f"seat {seat}", name).replace(f"Seat {seat}", name)
    return ValidationFailed(message, field=getattr(exc, "field", None), deal=number)


def _replay(
    game: Game, normals: Sequence[Mapping[str, Any]], *, changed: int | None = None
) -> ScoredGame:
    """Replay deals through the scorer; raise ValidationFailed naming the first bad deal.

    ``changed`` is the deal being entered or corrected: a failure in another deal is a deal the
    change has made impossible, and the message says which."""
    league = game.match.week.season.league
    scored = ScoredGame(variant_of(game), first_dealer=game.first_dealer, target=league.target)
    for number, normal in enumerate(normals, start=1):
        try:
            scored.record(to_entry(normal))
        except InvalidDealError as exc:
            error = _human(exc, game, number)
            if changed is not None and number != changed:
                error.message = _(
                    "With this change, deal %(n)s no longer fits: %(why)s Correct it too."
                ) % {"n": number, "why": error.message}
                error.args = (error.message,)
            raise error from None
    return scored


def _stored(deal: Deal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer,
        "starter": deal.starter or None,
        "heels": deal.heels,
        "pegging": deal.pegging,
        "shows": deal.shows,
        "crib": deal.crib,
        "cards": deal.cards,
    }


def _current_deals(game: Game) -> list[Deal]:
    return list(game.deals.filter(is_current=True).order_by("number"))


def _apply_scores(game: Game, scored: ScoredGame, deals: Sequence[Deal]) -> None:
    """Derive scores, status, winner, margin, skunk and league points from the replayed game."""
    league = game.match.week.season.league
    home, away = game.home_side, 1 - game.home_side
    game.home_score = scored.scores[home]
    game.away_score = scored.scores[away]
    game.deal_count = len(deals)
    if scored.finished:
        outcome = scored.outcome(
            skunk_margin=league.skunk_margin, double_skunk_margin=league.double_skunk_margin
        )
        winner_team = game.match.home if outcome.winner == home else game.match.away
        game.winner = winner_team
        game.margin = outcome.margin
        game.skunk_level = int(outcome.skunk_level)
        home_won = outcome.winner == home
        game.home_points = league.league_points(won=home_won, skunk_level=game.skunk_level)
        game.away_points = league.league_points(won=not home_won, skunk_level=game.skunk_level)
        if game.status == GameStatus.IN_PROGRESS:
            game.finished_at = timezone.now()
            game.status = (
                GameStatus.FINISHED if league.requires_confirmation else GameStatus.CONFIRMED
            )
            if game.status == GameStatus.CONFIRMED:
                game.confirmed_at = game.finished_at
    else:
        game.winner = None
        game.margin = None
        game.skunk_level = 0
        game.home_points = game.away_points = 0
        if game.status in (GameStatus.FINISHED, GameStatus.CONFIRMED):
            game.status = GameStatus.IN_PROGRESS
            game.finished_at = game.confirmed_at = None
            game.confirmed_by = None
    game.version += 1


def _results_changed(season: Season | int) -> None:
    """Mark standings stale in this transaction; recompute them once it commits."""
    season_id = season if isinstance(season, int) else season.pk
    Season.objects.filter(pk=season_id).update(
        standings_stale=True, results_version=F("results_version") + 1
    )

    # One recompute per season per transaction, however many deals it wrote (an import).
    connection = transaction.get_connection()
    for _sids, queued, _robust in connection.run_on_commit:
        if getattr(queued, "pegboard_season", None) == season_id:
            return

    def schedule() -> None:
        from league.services.standings import schedule_recompute

        schedule_recompute(season_id)

    schedule.pegboard_season = season_id  # type: ignore[attr-defined]
    transaction.on_commit(schedule)


def _season_id(game: Game) -> int:
    return game.match.week.season_id


def _lock(game: Game) -> Game:
    return (
        Game.objects.select_for_update()
        .select_related("match__week__season__league", "match__home", "match__away")
        .get(pk=game.pk)
    )


# --- Starting a game ----------------------------------------------------------------------------


def game_start(
    *,
    match: Match,
    user: Any,
    seats: Sequence[Player | int | str],
    first_dealer: int = 0,
    number: int | None = None,
    check_permission: bool = True,
) -> Game:
    """Open the next game of ``match`` with players seated clockwise (partners opposite).

    ``check_permission=False`` is for callers that checked the role themselves (a season import).
    """
    if check_permission and not can(user, Action.START_GAME, match):
        raise NotAllowed(_("Only the players of these two teams can start their games."))
    league = match.week.season.league
    variant = get_variant(league.variant)
    players = [_player(p) for p in seats]
    if len(players) != variant.players:
        raise ValidationFailed(
            _("Seat %(n)s players for this game.") % {"n": variant.players}, field="seats"
        )
    if len({p.pk for p in players}) != len(players):
        raise ValidationFailed(_("A player can sit in only one seat."), field="seats")
    home_ids = set(match.home.players.values_list("pk", flat=True))
    away_ids = set(match.away.players.values_list("pk", flat=True))
    sides: list[int | None] = []
    for seat, player in enumerate(players):
        if player.pk in home_ids:
            sides.append(0)
        elif player.pk in away_ids:
            sides.append(1)
        else:
            raise ValidationFailed(
                _("%(name)s does not play for either team in this match.") % {"name": player.name},
                field=f"seats.{seat}",
            )
    home_side = None
    for seat, side in enumerate(sides):
        seat_side = variant.side_of(seat)
        expected_home = side == 0
        this_home_side = seat_side if expected_home else 1 - seat_side
        if home_side is None:
            home_side = this_home_side
        elif home_side != this_home_side:
            raise ValidationFailed(
                _("Partners sit opposite each other: seats 1 and 3 play against seats 2 and 4."),
                field="seats",
            )
    if not 0 <= first_dealer < variant.players:
        raise ValidationFailed(
            _("There is no seat %(seat)s.") % {"seat": first_dealer}, field="first_dealer"
        )
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        taken = set(match.games.values_list("number", flat=True))
        if number is None:
            number = max(taken, default=0) + 1
        if number in taken:
            raise Conflict(_("Game %(n)s of this match has already started.") % {"n": number})
        if number > league.games_per_match:
            raise ValidationFailed(
                _("This league plays %(n)s games a match.") % {"n": league.games_per_match},
                field="number",
            )
        game = Game.objects.create(
            match=match,
            number=number,
            first_dealer=first_dealer,
            home_side=home_side or 0,
            entered_by=user if getattr(user, "is_authenticated", False) else None,
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=seat, player=p) for seat, p in enumerate(players)
        )
        audit_log(
            actor=user,
            action="game_start",
            obj=game,
            game=game,
            season=match.week.season,
            after={"seats": [p.name for p in players], "first_dealer": first_dealer},
        )
    return game


def _player(value: Player | int | str) -> Player:
    if isinstance(value, Player):
        return value
    try:
        if isinstance(value, int):
            return Player.objects.get(pk=value)
        return Player.objects.get(name=value)
    except Player.DoesNotExist:
        raise ValidationFailed(
            _("No player called %(name)s.") % {"name": value}, field="seats"
        ) from None


# --- Recording and correcting deals ------------------------------------------------------------


def deal_record(
    *,
    game: Game,
    user: Any,
    number: int | None,
    data: Mapping[str, Any],
    key: str | None = None,
    check_permission: bool = True,
) -> tuple[Deal, bool]:
    """Record deal ``number`` of ``game``. Returns ``(deal, created)``.

    The same ``key`` with the same deal returns the stored deal (``created`` False); the same key
    with a different deal, or a deal number someone else has already entered, is a Conflict.
    """
    if check_permission and not can(user, Action.RECORD_DEAL, game.match):
        raise NotAllowed(_("Only the players of these two teams can enter their scores."))
    variant = variant_of(game)
    normal = normalise(data, variant=variant)
    if number is not None and type(number) is not int:
        raise ValidationFailed(_("The deal number must be a whole number."), field="number")
    try:
        with transaction.atomic():
            game = _lock(game)
            if key:
                existing = Deal.objects.filter(key=key).first()
                if existing is not None:
                    if existing.game_id == game.pk and existing.fingerprint == fingerprint(
                        normal, existing.number if number is None else number
                    ):
                        return existing, False
                    raise Conflict(
                        _("This entry was already sent with different numbers."),
                        field="key",
                        current=game_state(game),
                    )
            if game.status == GameStatus.VOID:
                raise Locked(_("This game was voided."), current=game_state(game))
            if game.status != GameStatus.IN_PROGRESS:
                raise Locked(
                    _("This game is over; ask a judge to correct it."), current=game_state(game)
                )
            expected = game.deal_count + 1
            if number is None:
                number = expected
            if number != expected:
                raise Conflict(
                    _("Deal %(n)s was already entered; the next deal is %(next)s.")
                    % {"n": number, "next": expected}
                    if number < expected
                    else _("The next deal to enter is deal %(next)s.") % {"next": expected},
                    field="number",
                    current=game_state(game),
                )
            deals = _current_deals(game)
            scored = _replay(game, [_stored(d) for d in deals] + [normal])
            deal = _save_deal(game, number, 1, normal, scored, user, key=key)
            _apply_scores(game, scored, [*deals, deal])
            game.save()
            audit_log(
                actor=user,
                action="deal_record",
                obj=deal,
                game=game,
                season=game.match.week.season,
                after={"number": number, **normal},
            )
            _results_changed(_season_id(game))
            return deal, True
    except IntegrityError:
        # Someone else stored this deal number (or key) a moment before us.
        game.refresh_from_db()
        if key:
            existing = Deal.objects.filter(key=key).first()
            if existing is not None and existing.fingerprint == fingerprint(
                normal, existing.number if number is None else number
            ):
                return existing, False
        raise Conflict(
            _("Someone else entered this deal first."), current=game_state(game)
        ) from None


def _save_deal(
    game: Game,
    number: int,
    version: int,
    normal: Mapping[str, Any],
    scored: ScoredGame,
    user: Any,
    *,
    key: str | None = None,
    reason: str = "",
) -> Deal:
    after = scored.deals[number - 1].scores_after
    home, away = game.home_side, 1 - game.home_side
    starter = normal.get("starter") or ""
    heels = bool(normal.get("heels")) or starter.startswith("J")
    return Deal.objects.create(
        game=game,
        number=number,
        version=version,
        dealer=normal["dealer"],
        starter=starter,
        heels=heels,
        pegging=normal["pegging"],
        shows=normal["shows"],
        crib=normal.get("crib"),
        cards=normal.get("cards"),
        home_after=after[home],
        away_after=after[away],
        key=key or None,
        fingerprint=fingerprint(normal, number),
        entered_by=user if getattr(user, "is_authenticated", False) else None,
        reason=reason,
    )


def deal_correct(
    *,
    game: Game,
    number: int,
    user: Any,
    data: Mapping[str, Any],
    reason: str,
    check_permission: bool = True,
) -> Deal:
    """A judge's or league admin's correction: a new version of deal ``number``, replayed.

    The old version is kept (``is_current`` False). The game re-finishes itself: it may end
    earlier or later than before; a correction that would leave later deals after the end of
    the game is refused with a message naming them.
    """
    if check_permission and not can(user, Action.CORRECT_DEAL, game):
        raise NotAllowed(_("Only a judge or a league admin can correct a deal."))
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the deal is corrected."), field="reason")
    variant = variant_of(game)
    normal = normalise(data, variant=variant)
    with transaction.atomic():
        game = _lock(game)
        if game.status == GameStatus.VOID:
            raise Locked(_("This game was voided."), current=game_state(game))
        deals = _current_deals(game)
        if not 1 <= number <= len(deals):
            raise ValidationFailed(
                _("This game has no deal %(n)s.") % {"n": number}, field="number"
            )
        old = deals[number - 1]
        normals = [_stored(d) for d in deals]
        normals[number - 1] = normal
        scored = _replay(game, normals, changed=number)
        old.is_current = False
        old.save(update_fields=["is_current"])
        new = _save_deal(
            game, number, _next_version(game, number), normal, scored, user, reason=reason
        )
        deals[number - 1] = new
        # later deals' running totals may have moved
        for later in deals[number:]:
            after = scored.deals[later.number - 1].scores_after
            Deal.objects.filter(pk=later.pk).update(
                home_after=after[game.home_side], away_after=after[1 - game.home_side]
            )
        was_status = game.status
        _apply_scores(game, scored, deals)
        if was_status == GameStatus.CONFIRMED and scored.finished:
            game.status = GameStatus.CONFIRMED
        game.save()
        audit_log(
            actor=user,
            action="deal_correct",
            obj=new,
            game=game,
            season=game.match.week.season,
            before={"number": number, **_stored(old)},
            after={"number": number, **normal},
            reason=reason,
        )
        _results_changed(_season_id(game))
    return new


def _next_version(game: Game, number: int) -> int:
    last = game.deals.filter(number=number).order_by("-version").values_list("version", flat=True)
    return (last.first() or 0) + 1


# --- Confirming and voiding --------------------------------------------------------------------


def game_confirm(*, game: Game, user: Any) -> Game:
    """The other team confirms a finished game; it is then locked to all but judges and admins.

    Two confirmations at once give one: the status change is a conditional UPDATE.
    """
    game = Game.objects.select_related("match__week__season__league").get(pk=game.pk)
    if not can(user, Action.CONFIRM_GAME, game.match):
        raise NotAllowed(_("Only a player of the other team can confirm this game."))
    if game.status == GameStatus.CONFIRMED:
        raise Conflict(_("This game is already confirmed."), current=game_state(game))
    if game.status != GameStatus.FINISHED:
        raise ValidationFailed(_("Only a finished game can be confirmed."))
    if not is_league_admin(user):
        enterers, entering_teams = _who_entered(game)
        if user.pk in enterers:
            raise NotAllowed(_("You entered this game, so the other team must confirm it."))
        if teams_of(user, game.match) & entering_teams:
            raise NotAllowed(_("Your team entered this game, so the other team must confirm it."))
    with transaction.atomic():
        now = timezone.now()
        changed = Game.objects.filter(pk=game.pk, status=GameStatus.FINISHED).update(
            status=GameStatus.CONFIRMED,
            confirmed_by=user,
            confirmed_at=now,
            version=F("version") + 1,
        )
        if changed != 1:
            game.refresh_from_db()
            raise Conflict(_("This game was confirmed a moment ago."), current=game_state(game))
        game.refresh_from_db()
        audit_log(
            actor=user,
            action="game_confirm",
            obj=game,
            game=game,
            season=game.match.week.season,
            after={"status": game.status},
        )
        _results_changed(_season_id(game))
    return game


def _who_entered(game: Game) -> tuple[set[int], set[int]]:
    """The users who started the game or entered any of its deals, and their teams in it."""
    users = set(
        Deal.objects.filter(game=game, entered_by__isnull=False).values_list(
            "entered_by", flat=True
        )
    )
    if game.entered_by_id:
        users.add(game.entered_by_id)
    teams = set(
        Team.objects.filter(
            pk__in=(game.match.home_id, game.match.away_id), players__user__in=users
        ).values_list("pk", flat=True)
    )
    return users, teams


def game_void(*, game: Game, user: Any, reason: str) -> Game:
    """Void a game (a judge's or admin's decision): it no longer counts; its deals are kept."""
    if not can(user, Action.VOID_GAME, game):
        raise NotAllowed(_("Only a judge or a league admin can void a game."))
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the game is voided."), field="reason")
    with transaction.atomic():
        game = _lock(game)
        if game.status == GameStatus.VOID:
            raise Conflict(_("This game is already void."), current=game_state(game))
        before = game.status
        game.status = GameStatus.VOID
        game.version += 1
        game.save()
        audit_log(
            actor=user,
            action="game_void",
            obj=game,
            game=game,
            season=game.match.week.season,
            before={"status": before},
            after={"status": game.status},
            reason=reason,
        )
        _results_changed(_season_id(game))
    return game
