"""Forfeits and no-shows: a team that did not turn up (or left) loses the match's games not yet
played, by the season's forfeit rule, and a judge may undo it.

One shape (as ``league.services.deals``): ask ``refuse_unless()`` (who may, and whether the
match has anything left to forfeit), lock the match, change, audit, let the standings know. The
awarded games are ordinary confirmed games that name their ``Forfeit``: the match tallies, the
standings, weeks won and the playoffs count them through the same code as games played, so a
forfeit never has its own arithmetic. A game under way when the forfeit is recorded is voided
(its deals are kept) and its number is awarded. The rule (``Season.forfeit_games``,
``forfeit_points``, ``forfeit_wins_week``) is read when the forfeit is recorded; a change of
the season's rules re-scores forfeited games with the others (``forfeit_points_of``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, actor_of, refuse_unless
from league.kernel.ratings import ratings_changed
from league.models import Dispute, DisputeStatus, Forfeit, Game, GameStatus, Match, Season, Team
from league.services.notify import notify_forfeit
from league.services.results import results_changed

OPEN_DISPUTES = (DisputeStatus.OPEN, DisputeStatus.IN_REVIEW)


def forfeit_points_of(season: Season) -> int:
    """League points the present team earns for each game won by forfeit."""
    if season.forfeit_points is not None:
        return season.forfeit_points
    return season.points_per_win


def _match(match: Match) -> Match:
    return (
        Match.objects.select_related("week__season", "home", "away")
        .prefetch_related("forfeits", "games")
        .get(pk=match.pk)
    )


def _reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the match is forfeited."), field="reason")
    return reason.strip()


def _team(match: Match, team: Team | int | str) -> Team:
    """The team that forfeits: one of the match's two."""
    pk = team.pk if isinstance(team, Team) else team
    for candidate in (match.home, match.away):
        if str(candidate.pk) == str(pk):
            return candidate
    raise ValidationFailed(
        _("Choose which of the two teams forfeits: %(home)s or %(away)s.")
        % {"home": match.home.name, "away": match.away.name},
        field="team",
    )


def match_forfeit(*, match: Match, team: Team | int | str, reason: str, user: Actor) -> Forfeit:
    """Record that ``team`` forfeits ``match`` (all of it, or the games left to play): the other
    team wins the games the season's rule awards, at the forfeit's points, with no skunk and no
    spread. A judge or a league admin whose team does not play decides it."""
    match = _match(match)
    refuse_unless(user, Action.RECORD_FORFEIT, match)
    reason = _reason(reason)
    absent = _team(match, team)
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        match = _match(match)  # asked again of the match as it stands, locked
        refuse_unless(user, Action.RECORD_FORFEIT, match)
        season = match.week.season
        present = match.away if absent.pk == match.home_id else match.home
        games = [g for g in match.games.all() if g.status != GameStatus.VOID]
        numbers = checks.forfeit_numbers(match, games)
        forfeit = Forfeit.objects.create(
            match=match, team=absent, reason=reason, recorded_by=actor_of(user)
        )
        for game in games:
            if game.number in numbers:  # under way: the forfeit takes its place
                void_locked(game, user=user, reason=reason, ruling=_("The match was forfeited."))
        points = _award(match, forfeit, present, numbers, user=user, reason=reason)
        audit_log(
            actor=user,
            action=AuditAction.FORFEIT_RECORD,
            obj=forfeit,
            after={"team": absent.name, "match": match.pk, "games": numbers, "points": points},
            reason=reason,
        )
        results_changed(season_id=season.pk)
        notify_forfeit(forfeit, undone=False)  # both teams hear it, after commit
    return forfeit


def _award(
    match: Match, forfeit: Forfeit, present: Team, numbers: list[int], *, user: Actor, reason: str
) -> int:
    """The games ``numbers`` of ``match``, won by ``present`` by ``forfeit``: confirmed, with
    no deal, at the season's forfeit points (returned), each on its game's record."""
    points = forfeit_points_of(match.week.season)
    now = timezone.now()
    home_won = present.pk == match.home_id
    for number in numbers:
        game = Game.objects.create(
            match=match,
            number=number,
            forfeit=forfeit,
            status=GameStatus.CONFIRMED,
            winner=present,
            margin=0,
            home_points=points if home_won else 0,
            away_points=0 if home_won else points,
            entered_by=actor_of(user),
            finished_at=now,
            confirmed_by=actor_of(user),
            confirmed_at=now,
        )
        audit_log(
            actor=user,
            action=AuditAction.FORFEIT_RECORD,
            obj=game,
            after={"team": forfeit.team.name, "winner": present.name, "points": points},
            reason=reason,
        )
    return points


def forfeit_numbers_check(match: Match, numbers: list[int], *, played: int) -> None:
    """The games a forfeit read from a season archive may award, as ``match_forfeit`` awards
    them: after the ``played`` games, in order, and none past the match's games (a game 4 of a
    3-game match would give a team a league point for a game no match has)."""
    if not numbers or sorted(set(numbers)) != numbers or numbers[0] <= played:
        raise ValidationFailed(
            _("A forfeit's games are numbered after the games played, in order."), field="games"
        )
    last = checks.games_per_match(match)
    if numbers[-1] > last:
        raise ValidationFailed(
            _("A match has %(n)s games: a forfeit cannot award game %(game)s.")
            % {"n": last, "game": numbers[-1]},
            field="games",
        )


def forfeit_restore(
    *, match: Match, team: Team, reason: str, numbers: list[int], user: Trusted
) -> Forfeit:
    """A forfeit read from a season archive (``league.services.archive``), in the import's
    transaction: the games ``numbers`` as the archive lists them, nothing asked again (the
    archive is the record), checked as the table's are (``forfeit_numbers_check``)."""
    played = match.games.exclude(forfeit__isnull=False).count()
    forfeit_numbers_check(match, numbers, played=played)
    present = match.away if team.pk == match.home_id else match.home
    forfeit = Forfeit.objects.create(match=match, team=team, reason=reason)
    _award(match, forfeit, present, numbers, user=user, reason=reason)
    return forfeit


def void_locked(game: Game, *, user: Actor, reason: str, ruling: str) -> None:
    """Void ``game``, locked and checked by the caller (a judge's void, a forfeit of the
    match): its open disputes are dismissed with ``ruling``, and the void is audited."""
    before = game.status
    game.status = GameStatus.VOID
    game.version += 1
    game.save()
    if before == GameStatus.CONFIRMED:
        ratings_changed()  # a rated result no longer stands: the ratings replay without it
    Dispute.objects.filter(game=game, status__in=OPEN_DISPUTES).update(
        status=DisputeStatus.DISMISSED, ruling=ruling, ruled_at=timezone.now()
    )
    audit_log(
        actor=user,
        action=AuditAction.GAME_VOID,
        obj=game,
        before={"status": before},
        after={"status": game.status},
        reason=reason,
    )


def forfeit_undo(*, match: Match, reason: str, user: Actor) -> Forfeit:
    """A judge undoes the match's forfeit: the games it awarded are voided (kept in the record,
    counted nowhere; their numbers are free to be played), and the forfeit says who undid it
    and why. A game voided when the forfeit was recorded stays void."""
    match = _match(match)
    refuse_unless(user, Action.UNDO_FORFEIT, match)
    if not reason or not reason.strip():
        raise ValidationFailed(_("Say why the forfeit is undone."), field="reason")
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        match = _match(match)
        refuse_unless(user, Action.UNDO_FORFEIT, match)
        forfeit = checks.standing_forfeit(match)
        for game in forfeit.games.exclude(status=GameStatus.VOID):
            before = game.status
            game.status = GameStatus.VOID
            game.version += 1
            game.save()
            audit_log(
                actor=user,
                action=AuditAction.FORFEIT_UNDO,
                obj=game,
                before={"status": before},
                after={"status": game.status},
                reason=reason.strip(),
            )
        forfeit.undone_at = timezone.now()
        forfeit.undone_by = actor_of(user)
        forfeit.undo_reason = reason.strip()
        forfeit.save()
        audit_log(
            actor=user,
            action=AuditAction.FORFEIT_UNDO,
            obj=forfeit,
            after={"team": forfeit.team.name, "match": match.pk},
            reason=reason.strip(),
        )
        results_changed(season_id=match.week.season_id)
        notify_forfeit(forfeit, undone=True)  # both teams hear it, after commit
    return forfeit
