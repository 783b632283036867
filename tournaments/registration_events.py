# --- Registration from an event's public page ---------------------------------------------------
# The registrant's own address (given on the form) is where these go: a player who registers
# needs no account. The link is the player's own page (see their place, withdraw).

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.kernel.notify import Category, Event, add_address_source, declare
from league.shared import Delivery


def _registrant_address(row: Delivery) -> str:
    from tournaments.registration_models import Registration

    found = Registration.objects.filter(pk=row.context.get("registration_id")).first()
    return found.email if found is not None else ""


REGISTRATION_RECEIVED = declare(
    Event(
        code="registration_received",
        category=Category.CHANGES,
        audience=_("a player who registered for an event from its page"),
        subject=_("You registered for %(event)s"),
        body=_(
            "You registered for %(event)s on %(date)s: %(standing)s. Your page shows your "
            "place and lets you withdraw: keep this message."
        ),
        link="registration:page",
        link_arg="token",
        dates=("date",),
        keys=("event", "standing", "token", "registration_id"),
    )
)
REGISTRATION_ANSWERED = declare(
    Event(
        code="registration_answered",
        category=Category.CHANGES,
        audience=_("a registered player the director approved"),
        subject=_("%(event)s: the director approved your registration"),
        body=_("The director approved your registration for %(event)s on %(date)s: %(standing)s."),
        link="registration:page",
        link_arg="token",
        dates=("date",),
        keys=("event", "standing", "token", "registration_id"),
    )
)
REGISTRATION_REFUSED = declare(
    Event(
        code="registration_refused",
        category=Category.CHANGES,
        audience=_("a registered player the director refused"),
        subject=_("%(event)s: your registration was refused"),
        body=_(
            "The director of %(event)s on %(date)s refused your registration. "
            "Ask the director if you think this is a mistake."
        ),
        link="registration:page",
        link_arg="token",
        dates=("date",),
        keys=("event", "token", "registration_id"),
    )
)
REGISTRATION_PROMOTED = declare(
    Event(
        code="registration_promoted",
        category=Category.CHANGES,
        audience=_("the first player on an event's waiting list when a place comes free"),
        subject=_("%(event)s: a place came free and it is yours"),
        body=_(
            "A player withdrew from %(event)s on %(date)s and you were first on the waiting "
            "list: your place is confirmed. Entry fee: %(fee)s, paid to the director. If you "
            "can no longer come, withdraw from your page so the next player gets the place."
        ),
        link="registration:page",
        link_arg="token",
        dates=("date",),
        keys=("event", "fee", "token", "registration_id"),
    )
)
for _event in (
    REGISTRATION_RECEIVED,
    REGISTRATION_ANSWERED,
    REGISTRATION_REFUSED,
    REGISTRATION_PROMOTED,
):
    add_address_source(_event, _registrant_address)
