"""A game starts on its night: the organiser may let one match's games start earlier (two
teams who agree to play before the night, a bar free on another evening). The rule itself is
``checks.night_refusal``, asked by ``checks.start_refusal`` so the start button and the
service read the same."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import Match


def match_early_start(*, match: Match, user: Actor, allow: bool, reason: str) -> Match:
    """The organiser allows (or no longer allows) the match's games to start before its
    night, with the reason on record."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = (reason or "").strip()
    if allow and not reason:
        raise ValidationFailed(_("Say why the match may start before its night."), field="reason")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        before = match.early_start
        match.early_start = allow
        match.save(update_fields=["early_start"])
        audit_log(
            actor=user,
            action=AuditAction.MATCH_EARLY_START,
            obj=match,
            before={"early_start": before},
            after={"early_start": allow},
            reason=reason,
        )
    return match
