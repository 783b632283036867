"""Postponements waiting for an answer, as the home page shows them to the team asked (Accept /
Decline one tap away) and the organiser's schedule to the organiser once the time ran out."""

from __future__ import annotations

import datetime as dt

from django.db.models import F, Q
from django.utils import timezone

from league import checks
from league.kernel.permissions import Actor, Trusted
from league.models import Postponement, PostponementStatus, Season, SeasonState


def postponements_to_answer(user: Actor, *, now: dt.datetime | None = None) -> list[Postponement]:
    """The postponements asked of a team of the signed-in player (not by it), still open and
    within their time to answer, each with ``answer_by``. One query; none for a visitor."""
    uid = getattr(user, "pk", None)
    if not isinstance(uid, int) or isinstance(user, Trusted):
        return []
    now = now or timezone.now()
    since = now - dt.timedelta(hours=checks.ANSWER_HOURS)
    asked = (
        Postponement.objects.filter(status=PostponementStatus.ASKED, created_at__gte=since)
        .filter(match__week__season__state=SeasonState.PUBLISHED)
        .filter(
            Q(match__home__players__user_id=uid, team=F("match__away"))
            | Q(match__away__players__user_id=uid, team=F("match__home"))
        )
        .select_related("match__week__season__league", "match__home", "match__away", "team")
        .distinct()
        .order_by("created_at")
    )
    out = list(asked)
    for p in out:
        p.answer_by = checks.postponement_answer_by(p)  # type: ignore[attr-defined]
    return out


def postponements_for_organiser(
    season: Season, *, now: dt.datetime | None = None
) -> list[Postponement]:
    """The season's requests whose time to answer ran out: the organiser decides them. One
    query."""
    now = now or timezone.now()
    since = now - dt.timedelta(hours=checks.ANSWER_HOURS)
    return list(
        Postponement.objects.filter(status=PostponementStatus.ASKED, created_at__lt=since)
        .filter(match__week__season=season)
        .select_related("match__week__season", "match__home", "match__away", "team")
        .order_by("created_at")
    )
