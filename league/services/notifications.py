"""Mails sent by Celery tasks (console backend unless SMTP is configured): dispute notices go
through the notification service (``league.services.notify``); the sign-in link is its own."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db.models import Q
from django.utils.translation import gettext as _

from league.models import Dispute
from league.services.notify import notify_dispute

log = logging.getLogger(__name__)


def dispute_notify(*, dispute_id: int, event: str) -> int:
    """Both teams' players hear that a dispute was raised or ruled on (through the one
    notification service: each player once, in their language, as they chose). Returns the
    players told about it."""
    dispute = (
        Dispute.objects.select_related(
            "game__match__week__season__league", "game__match__home", "game__match__away"
        )
        .filter(pk=dispute_id)
        .first()
    )
    if dispute is None:
        return 0
    notify_dispute(dispute, ruled=event != "raised")
    match = dispute.game.match
    return match.home.players.count() + match.away.players.count()


def signin_link_deliver(*, identifier: str, link_base: str) -> int:
    """The task's half of a sign-in link request (league/services/signin_links.py): if an
    active account with an email matches ``identifier`` and has not asked
    ``PEGBOARD_SIGNIN_LINKS_PER_HOUR`` times this hour, mail it a link. The lookup is here, not
    in the request, so the request takes as long whether or not an account matches. Returns
    mails sent."""
    from league.services.signin_links import MAX_IDENTIFIER, counted

    identifier = (identifier or "").strip()[:MAX_IDENTIFIER]
    if not identifier:
        return 0
    user = (
        get_user_model()
        .objects.filter(Q(username__iexact=identifier) | Q(email__iexact=identifier))
        .filter(is_active=True)
        .exclude(email="")
        .order_by("pk")
        .first()
    )
    if user is None:
        return 0
    try:
        if not counted(f"signin-link:user:{user.pk}", settings.PEGBOARD_SIGNIN_LINKS_PER_HOUR):
            return 0
    except Exception:
        log.warning("sign-in link not sent: the throttle's cache cannot be reached", exc_info=True)
        return 0
    return signin_link_notify(user_id=user.pk, link_base=link_base)


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
