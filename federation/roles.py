"""Who does what above the club: the federation's roles are groups, asked in one place here."""

from __future__ import annotations

from typing import Any

import tournaments.selectors as tournament_selectors
from federation.models import ClubRegion, Commissioner
from league.kernel.permissions import Trusted, in_group

FEDERATION_ADMINS = "Federation admins"
STATISTICIANS = "Statisticians"


def _in(user: Any, group: str) -> bool:
    if isinstance(user, Trusted):
        return True
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_superuser or in_group(user, group))


def is_federation_admin(user: Any) -> bool:
    """Edits the points schedules, regions and the clubs' regions."""
    return _in(user, FEDERATION_ADMINS)


def is_statistician(user: Any) -> bool:
    """Reviews the results sent up: approves them or sends them back with a reason."""
    return _in(user, STATISTICIANS)


def may_send_up(user: Any, tournament: Any) -> bool:
    """Whether ``user`` directs ``tournament``: the director's workspace's own rule, asked of
    the tournaments' selector."""
    return tournament_selectors.directs_event(user, tournament)


def region_ids(user: Any) -> set[int]:
    """The regions ``user`` is a commissioner of (none for a visitor)."""
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return set()
    return set(Commissioner.objects.filter(user=user).values_list("region_id", flat=True))


def commissions(user: Any, region: Any) -> bool:
    """Whether ``user`` is the commissioner of ``region``."""
    return region is not None and region.pk in region_ids(user)


def may_review(user: Any, submission: Any) -> bool:
    """A statistician reviews any results; a regional commissioner those of their region's
    clubs."""
    if is_statistician(user):
        return True
    club_id = submission.tournament.club_id
    region = ClubRegion.objects.filter(club_id=club_id).values_list("region_id", flat=True).first()
    return region is not None and region in region_ids(user)


def is_reviewer(user: Any) -> bool:
    """A statistician, or a commissioner of some region (the review queue's door)."""
    return is_statistician(user) or bool(region_ids(user))
