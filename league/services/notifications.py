"""Emails to captains (sent by a Celery task; console backend unless SMTP is configured)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
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


def signin_link_notify(*, user_id: int, link_base: str) -> int:
    """Email a player a one-time sign-in link (league/services/signin_links.py). Returns mails
    sent. The token is made here, when the mail goes, so it is as fresh as it can be."""
    from league.services.signin_links import signin_link_token

    user = get_user_model().objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None:
        return 0
    link = link_base + signin_link_token(user) + "/"
    subject = _("Your Pegboard sign-in link")
    body = _(
        "Someone (we hope you) asked to sign in to Pegboard as %(username)s.\n\n"
        "Open this link on the phone you want to use, within %(minutes)d minutes:\n\n"
        "%(link)s\n\n"
        "It works once. If it was not you, ignore this mail: nobody can sign in without it."
    ) % {
        "username": user.get_username(),
        "minutes": settings.PEGBOARD_SIGNIN_LINK_MINUTES,
        "link": link,
    }
    return send_mail(subject, body, None, [user.email])
