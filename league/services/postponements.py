"""Postponements and nights that move: a captain asks to play a match on another date, the
other captain accepts or declines, or the organiser decides; the organiser moves a whole night
(every match of a week) or cancels it, in one action.

A postponed match keeps its week (its place in the round robin and the standings) and gets its
own date (``Match.date``); no week is invented. The make-up date falls within the season's
``makeup_days`` of the match's night and never in the season's last two weeks
(``checks.last_makeup_day``); a match with a game played, forfeited, or of a cancelled night is
not postponed (``checks.postpone_refusal``). Dates change no result: nothing here moves the
standings. Every change is audited.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from league import checks
from league.checks import team_of
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, Actor, actor_of, refuse_unless
from league.models import Game, GameStatus, Match, Postponement, PostponementStatus, Week
from league.services.notify import (
    notify_match_moved,
    notify_match_postponed,
    notify_night_cancelled,
    notify_postponement_asked,
)


def _match(match: Match) -> Match:
    return (
        Match.objects.select_related("week__season", "home", "away")
        .prefetch_related("forfeits", "games", "postponements")
        .get(pk=match.pk)
    )


def _reason(reason: str, *, what: str) -> str:
    if not reason or not reason.strip():
        raise ValidationFailed(what, field="reason")
    return reason.strip()


def _said(date: dt.date) -> str:
    return date_format(date, "DATE_FORMAT")


def check_makeup_date(match: Match, date: dt.date | None) -> dt.date:
    """The make-up ``date`` if the season's deadline allows it; else a refusal naming it."""
    if not isinstance(date, dt.date):
        raise ValidationFailed(_("Give the date the match is played instead."), field="date")
    if date == match.when:
        raise ValidationFailed(
            _("The match is already on %(date)s.") % {"date": _said(date)}, field="date"
        )
    last = checks.last_makeup_day(match)
    if last is not None and date > last:
        raise ValidationFailed(
            _(
                "A postponed match is played by %(date)s at the latest (%(days)s days after its "
                "night, and never in the season's last two weeks)."
            )
            % {"date": _said(last), "days": match.week.season.makeup_days},
            field="date",
        )
    return date


def _set_date(match: Match, date: dt.date) -> None:
    match.date = None if date == match.week.date else date
    Match.objects.filter(pk=match.pk).update(date=match.date)


def postponement_ask(*, match: Match, user: Actor, date: dt.date, reason: str) -> Postponement:
    """A player of one of the two teams asks to play the match on ``date``; the other team
    answers (``postponement_answer``)."""
    match = _match(match)
    refuse_unless(user, Action.POSTPONE_MATCH, match)
    team = team_of(user, match)
    if team is None:
        raise NotAllowed(
            _("Only the players of these two teams ask; a league admin decides instead.")
        )
    reason = _reason(reason, what=_("Say why the match should move."))
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        match = _match(match)
        refuse_unless(user, Action.POSTPONE_MATCH, match)
        # The refusal lets a league admin past a request waiting for its answer (their match
        # page decides instead, ``match_postpone``); one who plays here and asks waits too.
        if any(p.status == PostponementStatus.ASKED for p in match.postponements.all()):
            raise checks.POSTPONE_ASKED.exception()
        date = check_makeup_date(match, date)
        asked = Postponement.objects.create(
            match=match, team_id=team, date=date, reason=reason, asked_by=actor_of(user)
        )
        audit_log(
            actor=user,
            action=AuditAction.POSTPONEMENT_ASK,
            obj=asked,
            after={"match": match.pk, "date": date.isoformat()},
            reason=reason,
        )
        notify_postponement_asked(asked)  # sent after commit, with the time to answer
    return asked


def postponement_answer(*, postponement: Postponement, user: Actor, accept: bool) -> Postponement:
    """The other team accepts (the match moves to the date asked) or declines."""
    with transaction.atomic():
        asked = (
            Postponement.objects.select_for_update(of=("self",))
            .select_related("match__week__season", "match__home", "match__away")
            .get(pk=postponement.pk)
        )
        refuse_unless(user, Action.ANSWER_POSTPONEMENT, asked)
        match = _match(asked.match)
        if accept:
            refused = checks.postpone_refusal(match, match.games.all())
            if refused is not None:
                raise refused.exception()
            check_makeup_date(match, asked.date)
            was = match.when
            _set_date(match, asked.date)
            notify_match_postponed(match, was=was)  # sent after commit
        asked.status = PostponementStatus.ACCEPTED if accept else PostponementStatus.DECLINED
        asked.answered_by = actor_of(user)
        asked.answered_at = timezone.now()
        asked.save(update_fields=["status", "answered_by", "answered_at"])
        audit_log(
            actor=user,
            action=AuditAction.POSTPONEMENT_ANSWER,
            obj=asked,
            after={"status": asked.status, "date": asked.date.isoformat()},
        )
    return asked


def match_postpone(*, match: Match, user: Actor, date: dt.date, reason: str) -> Match:
    """The organiser decides: the match is played on ``date`` (its week's date puts it back). A
    postponement asked and not answered is settled by this decision."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = _reason(reason, what=_("Say why the match moves."))
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        match = _match(match)
        refused = checks.postpone_refusal(match, match.games.all())
        if refused is not None:
            raise refused.exception()
        if date != match.week.date:
            check_makeup_date(match, date)
        before = match.when
        now = timezone.now()
        match.postponements.filter(status=PostponementStatus.ASKED).update(
            status=PostponementStatus.WITHDRAWN, answered_by=actor_of(user), answered_at=now
        )
        decided = Postponement.objects.create(
            match=match,
            date=date,
            reason=reason,
            status=PostponementStatus.DECIDED,
            asked_by=actor_of(user),
            answered_by=actor_of(user),
            answered_at=now,
        )
        _set_date(match, date)
        if match.when != before:
            notify_match_postponed(match, was=before)  # sent after commit
        audit_log(
            actor=user,
            action=AuditAction.MATCH_POSTPONE,
            obj=decided,
            before={"date": before.isoformat() if before else None},
            after={"match": match.pk, "date": date.isoformat()},
            reason=reason,
        )
    return match


def _night_played(week: Week) -> bool:
    return Game.objects.filter(match__week=week).exclude(status=GameStatus.VOID).exists()


def week_move(*, week: Week, user: Actor, date: dt.date, reason: str) -> Week:
    """Move the whole night: every match of the week is played on ``date`` (a match with its
    own make-up date keeps it). A cancelled night moved to a date is on again."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = _reason(reason, what=_("Say why the night moves."))
    if not isinstance(date, dt.date):
        raise ValidationFailed(_("Give the night's new date."), field="date")
    with transaction.atomic():
        week = Week.objects.select_for_update().select_related("season").get(pk=week.pk)
        if _night_played(week):
            raise Conflict(
                _("A game of this night has been played: move its other matches one by one.")
            )
        same = week.season.weeks.filter(date=date).exclude(pk=week.pk).first()
        if same is not None:
            raise ValidationFailed(
                _("Week %(n)s is already on %(date)s.") % {"n": same.number, "date": _said(date)},
                field="date",
            )
        before = {"date": week.date.isoformat() if week.date else None}
        matches = list(
            week.matches.select_related("week__season__league", "week__venue", "home", "away")
        )
        was = {m.pk: m.when for m in matches}
        week.date = date
        week.cancelled_reason = ""
        week.save(update_fields=["date", "cancelled_reason"])
        # A match postponed to what is now its night's date is simply on its night.
        week.matches.filter(date=date).update(date=None)
        for match in matches:  # each team whose match moves hears it, after commit
            match.week = week
            match.date = None if match.date == date else match.date
            if match.when != was[match.pk]:
                notify_match_moved(match, was=was[match.pk])
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_MOVE,
            obj=week,
            before=before,
            after={"date": date.isoformat()},
            reason=reason,
        )
    return week


def refuse_cancelling_played(*, played: bool) -> None:
    """The one rule of a cancelled night, asked by ``week_cancel`` and by a season archive's
    import alike: a night with a game played (or awarded by a forfeit) is not cancelled."""
    if played:
        raise Conflict(_("A game of this night has been played: it can no longer be cancelled."))


def week_cancel(*, week: Week, user: Actor, reason: str) -> Week:
    """Cancel the whole night: it stays in the schedule, said cancelled, and no game of it
    starts until the organiser moves it to a new date (``week_move``)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = _reason(reason, what=_("Say why the night is cancelled."))
    with transaction.atomic():
        week = Week.objects.select_for_update().get(pk=week.pk)
        if week.cancelled_reason:
            raise Conflict(_("This night is already cancelled."))
        refuse_cancelling_played(played=_night_played(week))
        week.cancelled_reason = reason
        week.save(update_fields=["cancelled_reason"])
        Postponement.objects.filter(match__week=week, status=PostponementStatus.ASKED).update(
            status=PostponementStatus.WITHDRAWN, answered_at=timezone.now()
        )
        audit_log(actor=user, action=AuditAction.NIGHT_CANCEL, obj=week, reason=reason)
        notify_night_cancelled(week)  # sent after commit
    return week


__all__ = [
    "check_makeup_date",
    "match_postpone",
    "postponement_answer",
    "postponement_ask",
    "week_cancel",
    "week_move",
]
