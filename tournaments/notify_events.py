"""The club nights' notification events, declared with the kernel's notifications (imported by
``TournamentsConfig.ready()``); each is sent by one trigger in
``tournaments/services/notify.py`` (registration's in ``tournaments/services/registration.py``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.kernel.notify import Category, Event, add_address_source, declare
from league.shared import Delivery

CLUB_NIGHT_REMINDER = declare(
    Event(
        code="club_night_reminder",
        category=Category.REMINDERS,
        audience=_("the players entered in the club night"),
        subject=_("Club night on %(date)s: %(night)s"),
        body=_("You are entered in %(night)s on %(date)s. Where: %(venue)s."),
        link="tournaments:tournament",
        link_arg="tournament_id",
        dates=("date",),
        keys=("night", "venue", "tournament_id"),
    )
)
CLUB_NIGHT_STANDING = declare(
    Event(
        code="club_night_standing",
        category=Category.RESULTS,
        audience=_("the players entered in the club night"),
        subject=_("%(night)s: you finished %(place)s of %(of)s"),
        body=_(
            "%(night)s is over. %(entrant)s finished %(place)s of %(of)s with %(points)s points."
        ),
        link="tournaments:tournament",
        link_arg="tournament_id",
        keys=("night", "entrant", "place", "of", "points", "tournament_id"),
    )
)
CLUB_NIGHT_STORY = declare(
    Event(
        code="club_night_story",
        category=Category.STORIES,
        audience=_("the club's members with an account, where the club sends its nights' story"),
        subject=_("The night's story: %(night)s"),
        body=_("%(story)s"),
        link="tournaments:recap",
        link_arg="tournament_id",
        keys=("night", "story", "tournament_id"),
    )
)
ACC_CARD_CHANGED = declare(
    Event(
        code="acc_card_changed",
        category=Category.RESULTS,
        audience=_(
            "the players of an apparent qualifier whose scorecard ACC Rule 12.2 changed (clause i)"
        ),
        subject=_("Table %(table)s, round %(round)s: your scorecard was changed"),
        body=_(
            "The two scorecards of table %(table)s in round %(round)s disagreed. "
            "ACC Rule %(clause)s settled them without asking the players: %(entrant)s "
            "%(figure)s. If this is wrong, tell the director: a checker can undo the ruling."
        ),
        link="tournaments:scorecard",
        link_arg="game_id",
        keys=("table", "round", "clause", "entrant", "figure", "game_id"),
    )
)

# --- Registration from an event's public page ---------------------------------------------------
# The registrant's own address (given on the form) is where these go: a player who registers
# needs no account. The link is the player's own page (see their place, withdraw).


def _registrant_address(row: Delivery) -> str:
    from tournaments.models import Registration

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
