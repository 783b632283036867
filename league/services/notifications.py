"""Emails to captains (sent by a Celery task; console backend unless SMTP is configured)."""

from __future__ import annotations

from django.core.mail import send_mail
from django.utils.translation import gettext as _

from league.models import Dispute


def dispute_notify(*, dispute_id: int, event: str) -> int:
    dispute = (
        Dispute.objects.select_related(
            "game__match__home__captain__user", "game__match__away__captain__user", "judge"
        )
        .filter(pk=dispute_id)
        .first()
    )
    if dispute is None:
        return 0
    match = dispute.game.match
    recipients = [
        t.captain.user.email
        for t in (match.home, match.away)
        if t.captain.user is not None and t.captain.user.email
    ]
    if not recipients:
        return 0
    if event == "raised":
        subject = _("Dispute raised: %(game)s") % {"game": dispute.game}
        body = _("A dispute was raised on %(game)s:\n\n%(claim)s\n\nA judge will look at it.") % {
            "game": dispute.game,
            "claim": dispute.claim,
        }
    else:
        subject = _("Dispute ruled: %(game)s") % {"game": dispute.game}
        body = _("The judge ruled (%(status)s, rule %(rule)s):\n\n%(ruling)s") % {
            "status": dispute.get_status_display(),
            "rule": dispute.rule_reference,
            "ruling": dispute.ruling,
        }
    return send_mail(subject, body, None, recipients)
