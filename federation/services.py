"""Writes above the club: results sent up once, a statistician's review, the points stored from
the schedule in force on the event's day, and the schedules' edits (audited).

Each service has one shape: check who asks and the state (a sentence a director at a bar
understands), lock, change, write the audit entry.

Semantics chosen where the sources are silent:

- Master Rating Points are earned in main events and consolations. A club night, a satellite
  or an event whose qualifying game count has no row in the schedule is stored with its game
  points and places and no Master Rating Points (Grass Roots points per night are not yet
  counted here).
- A member's points count in the region of the club that ran the event.
- A schedule saved with a date in the past recomputes the points of the approved events on or
  after that date (and before the next schedule), so the tables always follow the schedules.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest.mrp import EventKind, Qualifier, UnknownGameCount, event_points
from federation import roles, selectors
from federation.models import (
    ClubRegion,
    PointsRow,
    PointsSchedule,
    ScheduleMinimum,
    Submission,
    SubmissionStatus,
    season_of,
)
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Actor, actor_of
from tournaments.models import Tournament, TournamentStage


def results_send(*, user: Actor, tournament: Tournament) -> Submission:
    """Send a closed event's results up to the statistician; again after they were sent back."""
    if not roles.may_send_up(user, tournament):
        raise NotAllowed(_("Only this club's directors send its results up."))
    if tournament.stage != TournamentStage.FINISHED:
        raise Locked(_("Results go up once the night is over: the final must be decided first."))
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        submission = Submission.objects.select_for_update().filter(tournament=tournament).first()
        package = selectors.results_package(tournament)
        now = timezone.now()
        if submission is None:
            submission = Submission.objects.create(
                tournament=tournament, package=package, sent_by=actor_of(user), sent_at=now
            )
        elif submission.status == SubmissionStatus.SENT:
            raise Conflict(_("These results are already with the statistician."))
        elif submission.status == SubmissionStatus.APPROVED:
            raise Conflict(_("These results were approved: they count already."))
        else:
            submission.status = SubmissionStatus.SENT
            submission.package = package
            submission.sent_by = actor_of(user)
            submission.sent_at = now
            submission.times_sent += 1
            submission.save()
        audit_log(
            actor=user,
            action=AuditAction.RESULTS_SEND,
            obj=submission,
            after={"rows": len(package["rows"]), "times_sent": submission.times_sent},
        )
    return submission


def _reviewable(user: Actor, submission: Submission) -> Submission:
    if not roles.is_statistician(user):
        raise NotAllowed(_("Only the federation's statisticians review results."))
    locked = Submission.objects.select_for_update().get(pk=submission.pk)
    if locked.status != SubmissionStatus.SENT:
        raise Locked(_("These results are not waiting for a review."))
    if locked.sent_by_id is not None and locked.sent_by_id == getattr(actor_of(user), "pk", None):
        raise NotAllowed(_("You sent these results: another statistician reviews them."))
    return locked


def results_return(*, user: Actor, submission: Submission, reason: str) -> Submission:
    """Send results back to their director with what is wrong."""
    reason = reason.strip()
    if not reason:
        raise ValidationFailed(
            _("Say what is wrong, so the director knows what to fix."), field="reason"
        )
    with transaction.atomic():
        locked = _reviewable(user, submission)
        locked.status = SubmissionStatus.RETURNED
        locked.reason = reason
        locked.reviewed_by = actor_of(user)
        locked.reviewed_at = timezone.now()
        locked.save()
        audit_log(actor=user, action=AuditAction.RESULTS_RETURN, obj=locked, reason=reason)
    return locked


def results_approve(*, user: Actor, submission: Submission) -> Submission:
    """Approve results: their points are stored, and count in the tables from now on."""
    with transaction.atomic():
        locked = _reviewable(user, submission)
        rows = points_rows(locked)
        PointsRow.objects.bulk_create(rows)
        locked.status = SubmissionStatus.APPROVED
        locked.reason = ""
        locked.reviewed_by = actor_of(user)
        locked.reviewed_at = timezone.now()
        locked.save()
        audit_log(
            actor=user,
            action=AuditAction.RESULTS_APPROVE,
            obj=locked,
            after={"rows": len(rows), "points": sum(r.points for r in rows)},
        )
    return locked


def points_rows(submission: Submission) -> list[PointsRow]:
    """The points rows of an approved package, unsaved, by the schedule in force on its day."""
    package = submission.package
    day = date.fromisoformat(package["date"])
    awards: dict[str, tuple[int, int]] = {}
    if package["kind"] in (EventKind.MAIN, EventKind.CONSOLATION):
        stored = selectors.schedule_on(day)
        qualifiers: list[Qualifier] = []
        for row in package["rows"]:  # one per entrant, in standings order
            if row["qualified"] and all(q.name != row["entrant"] for q in qualifiers):
                qualifiers.append(
                    Qualifier(row["entrant"], row["game_points"], row["playoff_wins"])
                )
        if stored is not None:
            try:
                for award in event_points(
                    stored.as_schedule(),
                    kind=EventKind(package["kind"]),
                    games=package["games"],
                    qualifiers=qualifiers,
                ):
                    awards[award.name] = (award.qualifying, award.playoff)
            except UnknownGameCount:
                awards = {}
    tournament = submission.tournament
    region = (
        None
        if tournament.club_id is None
        else ClubRegion.objects.filter(club_id=tournament.club_id)
        .values_list("region_id", flat=True)
        .first()
    )
    out = []
    for row in package["rows"]:
        qualifying, playoff = awards.get(row["entrant"], (0, 0))
        out.append(
            PointsRow(
                submission=submission,
                tournament_id=submission.tournament_id,
                region_id=region,
                acc_number=row["acc_number"],
                name=row["name"],
                season=season_of(day),
                date=day,
                kind=package["kind"],
                rank=row["rank"],
                game_points=row["game_points"],
                qualified=row["qualified"],
                playoff_wins=row["playoff_wins"],
                qualifying_points=qualifying,
                playoff_points=playoff,
                points=qualifying + playoff,
            )
        )
    return out


def _recount_from(day: date) -> int:
    """Recompute the stored points of approved events from ``day`` on (a schedule changed)."""
    count = 0
    approved = Submission.objects.filter(  # only the kinds a schedule prices
        status=SubmissionStatus.APPROVED,
        tournament__kind__in=[k.value for k in EventKind],
        rows__date__gte=day,
    ).distinct()
    for submission in approved.select_related("tournament"):
        PointsRow.objects.filter(submission=submission).delete()
        rows = points_rows(submission)
        PointsRow.objects.bulk_create(rows)
        count += len(rows)
    return count


def _schedule_state(schedule: PointsSchedule) -> dict[str, Any]:
    fields = [f.name for f in PointsSchedule._meta.fields if f.name != "id"]
    state = {name: getattr(schedule, name) for name in fields}
    state["effective_from"] = schedule.effective_from.isoformat()
    if schedule.pk:
        state["minimums"] = sorted(
            f"{kind} {games}: {minimum}"
            for kind, games, minimum in schedule.minimums.values_list("kind", "games", "minimum")
        )
    return state


def schedule_record(
    *,
    user: Actor,
    schedule: PointsSchedule,
    minimums: list[ScheduleMinimum] = [],  # noqa: B006 - read only
    removed: list[ScheduleMinimum] = [],  # noqa: B006 - read only
) -> PointsSchedule:
    """Save a points schedule and its changed or removed minimum rows (a federation admin's),
    audit it, and recompute the approved events it now applies to."""
    if not roles.is_federation_admin(user):
        raise NotAllowed(_("Only a federation admin edits the points schedules."))
    if not schedule.source.strip():
        raise ValidationFailed(_("Say where these numbers come from."), field="source")
    with transaction.atomic():
        before = None
        old_from = None
        if schedule.pk:
            old = PointsSchedule.objects.select_for_update().get(pk=schedule.pk)
            before = _schedule_state(old)
            old_from = old.effective_from
        schedule.save()
        for row in removed:
            if row.pk:
                row.delete()
        for row in minimums:
            row.schedule = schedule
            row.save()
        after = _schedule_state(schedule)
        if after != before:
            audit_log(
                actor=user,
                action=AuditAction.POINTS_SCHEDULE_SET,
                obj=schedule,
                before=before,
                after=after,
            )
            start = min(d for d in (old_from, schedule.effective_from) if d is not None)
            _recount_from(start)
    return schedule
