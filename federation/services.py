"""Writes above the club: results sent up once, a statistician's review, the points stored from
the schedule in force on the event's day, and the schedules' edits (audited).

Each service has one shape: check who asks and the state (a sentence a director at a bar
understands), lock, change, write the audit entry.

Semantics chosen where the sources are silent:

- Master Rating Points are earned in main events and consolations. A satellite or an event
  whose qualifying game count has no row in the schedule is stored with its game points and
  places and no Master Rating Points.
- A club night earns Grass Roots points by the Grass Roots schedule in force on its day (and no
  Master Rating Points); a main event or consolation earns no Grass Roots points.
- Each 28 or 29 hand held in a main event or consolation adds the bonus in force on its day to
  the holder's Master Rating Points (the hands come from the cards entered deal by deal).
- A member's points count in the region of the club that ran the event.
- A schedule (of either kind) or a bonus saved with a date in the past recomputes the points of
  the approved results on or after that date, so the tables always follow the data.
- A regional commissioner reviews the results of their region's clubs as a statistician does
  (never results they sent), and puts a club with no region, or one of their region's, in
  their region; moving a club out of another region is the federation admin's.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest.grp import grass_roots_points
from contest.mrp import EventKind, Qualifier, UnknownGameCount, event_points
from federation import roles, selectors
from federation.models import (
    ClubRegion,
    FeeRate,
    GrassRootsSchedule,
    HandBonus,
    PayoutStyle,
    PointsRow,
    PointsSchedule,
    QPool,
    Region,
    ScheduleMinimum,
    Submission,
    SubmissionStatus,
    season_of,
)
from federation.totals import retotal
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Actor, actor_of
from tournaments.models import Club, Kind, Tournament, TournamentStage


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
    if not roles.may_review(user, submission):
        raise NotAllowed(
            _("Only the federation's statisticians and the region's commissioners review results.")
        )
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
        for season in {r.season for r in rows}:
            retotal(season, [r.acc_number for r in rows])
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
    """The points rows of an approved package, unsaved, by the schedules in force on its day."""
    package = submission.package
    day = date.fromisoformat(package["date"])
    sanctioned = package["kind"] in (EventKind.MAIN, EventKind.CONSOLATION)
    awards: dict[str, tuple[int, int]] = {}
    if sanctioned:
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
    grass_roots = selectors.grass_roots_on(day) if package["kind"] == Kind.CLUB_NIGHT else None
    bonus = selectors.hand_bonus_on(day) if sanctioned else {}
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
        hands_28, hands_29 = row.get("hands_28", 0), row.get("hands_29", 0)
        extra = hands_28 * bonus.get("28", 0) + hands_29 * bonus.get("29", 0)
        gr = (
            0
            if grass_roots is None
            else grass_roots_points(grass_roots.as_rates(), game_points=row["game_points"])
        )
        out.append(
            PointsRow(
                submission=submission,
                tournament_id=submission.tournament_id,
                club_id=tournament.club_id,
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
                bonus_points=extra,
                points=qualifying + playoff + extra,
                gr_points=gr,
                hands_28=hands_28,
                hands_29=hands_29,
            )
        )
    return out


SANCTIONED = (EventKind.MAIN.value, EventKind.CONSOLATION.value)


def _recount_from(day: date, kinds: tuple[str, ...]) -> int:
    """Recompute the stored points of the approved results of ``kinds`` from ``day`` on (the
    data that prices them changed)."""
    count = 0
    approved = Submission.objects.filter(
        status=SubmissionStatus.APPROVED, tournament__kind__in=kinds, rows__date__gte=day
    ).distinct()
    seasons: set[int] = set()
    for submission in approved.select_related("tournament"):
        PointsRow.objects.filter(submission=submission).delete()
        rows = points_rows(submission)
        PointsRow.objects.bulk_create(rows)
        seasons.update(r.season for r in rows)
        count += len(rows)
    for season in seasons:  # many members changed: each season's totals rebuilt whole
        retotal(season)
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
            _recount_from(start, SANCTIONED)
    return schedule


# The rest of the federation's data, each row edited by a federation admin and audited.
DATED_DATA = (GrassRootsSchedule, HandBonus)  # a change recomputes the points from its date


def _state(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in type(obj)._meta.concrete_fields:
        if field.name == "id":
            continue
        value = getattr(obj, field.attname)
        out[field.attname] = value.isoformat() if isinstance(value, date) else value
    return out


def data_record(*, user: Actor, obj: Any) -> Any:
    """Save one of the federation's data rows (a Grass Roots schedule, a special-hand bonus, a
    title, a payout style, an invitation rule, a regional commissioner), audited; a dated row
    that prices points recomputes the approved results from its date (or its old date, the
    earlier)."""
    if not roles.is_federation_admin(user):
        raise NotAllowed(_("Only a federation admin edits the federation's data."))
    if hasattr(obj, "source") and not obj.source.strip():
        raise ValidationFailed(_("Say where these numbers come from."), field="source")
    if isinstance(obj, PayoutStyle) and obj.base_weight == 0 and obj.step == 0:
        raise ValidationFailed(
            _("A payout style must give the places some weight."), field="base_weight"
        )
    with transaction.atomic():
        before = None
        old_from = None
        if obj.pk:
            old = type(obj).objects.select_for_update().get(pk=obj.pk)
            before = _state(old)
            old_from = getattr(old, "effective_from", None)
        obj.save()
        after = _state(obj)
        if after != before:
            audit_log(
                actor=user,
                action=AuditAction.FEDERATION_DATA_SET,
                obj=obj,
                before=before,
                after=after,
            )
            if isinstance(obj, DATED_DATA):
                days = [d for d in (old_from, obj.effective_from) if d is not None]
                kinds = (
                    (Kind.CLUB_NIGHT.value,) if isinstance(obj, GrassRootsSchedule) else SANCTIONED
                )
                _recount_from(min(days), kinds)
    return obj


def fee_rate_record(*, user: Actor, rate: FeeRate) -> FeeRate:
    """Set a sanctioning fee rate (a federation admin's): never without a reason on record."""
    if not roles.is_federation_admin(user):
        raise NotAllowed(_("Only a federation admin sets the sanctioning fees."))
    if not rate.reason.strip():
        raise ValidationFailed(
            _("Say why the fee is set to this: it is kept on record."), field="reason"
        )
    with transaction.atomic():
        before = None
        if rate.pk:
            before = _state(FeeRate.objects.select_for_update().get(pk=rate.pk))
        rate.save()
        audit_log(
            actor=user,
            action=AuditAction.FEE_RATE_SET,
            obj=rate,
            before=before,
            after=_state(rate),
            reason=rate.reason,
        )
    return rate


MAX_Q_POOLS = 2


def q_pool_set(
    *,
    user: Actor,
    tournament: Tournament,
    number: int,
    entry: int,
    style: PayoutStyle,
    entrants: list[str],
) -> QPool:
    """Open or change a Q pool of a main event or consolation (its director's): who bought in,
    at what entry, shared how. Refused once the results went up."""
    if not roles.may_send_up(user, tournament):
        raise NotAllowed(_("Only this club's directors keep its event's Q pools."))
    if tournament.kind not in (Kind.MAIN, Kind.CONSOLATION):
        raise ValidationFailed(_("Only a main event or a consolation has Q pools."), field="number")
    if number not in range(1, MAX_Q_POOLS + 1):
        raise ValidationFailed(
            _("An event has at most two Q pools: number 1 or 2."), field="number"
        )
    if entry <= 0:
        raise ValidationFailed(_("Say what a Q pool entry costs, in cents."), field="entry")
    known = set(tournament.entrants.values_list("name", flat=True))
    unknown = sorted(set(entrants) - known)
    if unknown:
        raise ValidationFailed(
            _("Not entered in this event: %(names)s.") % {"names": ", ".join(unknown)},
            field="entrants",
        )
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        sent = Submission.objects.filter(tournament=tournament).first()
        if sent is not None and sent.status != SubmissionStatus.RETURNED:
            raise Locked(_("The results went up: the Q pools are as they were sent."))
        pool = QPool.objects.filter(tournament=tournament, number=number).first()
        before = None if pool is None else _state(pool)
        pool = pool or QPool(tournament=tournament, number=number)
        pool.entry = entry
        pool.style = style
        pool.entrants = sorted(set(entrants))
        pool.save()
        audit_log(
            actor=user, action=AuditAction.Q_POOL_SET, obj=pool, before=before, after=_state(pool)
        )
    return pool


def club_region_set(
    *, user: Actor, club: Club, region: Region, number: str | None = None
) -> ClubRegion:
    """Put a club in a region: a federation admin's, or the region's commissioner's for a club
    with no region yet or already theirs."""
    with transaction.atomic():
        current = ClubRegion.objects.select_for_update().filter(club=club).first()
        admin = roles.is_federation_admin(user)
        if not admin and not roles.commissions(user, region):
            raise NotAllowed(_("Only this region's commissioner or a federation admin does this."))
        if (
            not admin
            and current is not None
            and current.region_id != region.pk
            and not roles.commissions(user, current.region)
        ):
            raise NotAllowed(_("This club is in another region: a federation admin moves it."))
        before = (
            None if current is None else {"region": current.region.name, "number": current.number}
        )
        if current is None:
            current = ClubRegion(club=club, region=region)
        current.region = region
        if number is not None:
            current.number = number.strip()
        current.save()
        audit_log(
            actor=user,
            action=AuditAction.CLUB_REGION_SET,
            obj=current,
            before=before,
            after={"region": region.name, "number": current.number},
        )
    return current
