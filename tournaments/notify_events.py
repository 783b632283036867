"""The club nights' notification events, declared with the kernel's notifications (imported by
``TournamentsConfig.ready()``); each is sent by one trigger in
``tournaments/services/notify.py``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from league.kernel.notify import Category, Event, declare

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
