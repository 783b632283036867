"""The league's notification events, each declared once with the kernel (its category, who
hears it, its words in each language, its link, whether it is still due when it goes), and the
league's rule for every message: nothing of a draft season reaches its players. Imported by
``LeagueConfig.ready()``; each event is sent by one trigger in ``league/services/notify.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from league.kernel.notify import Event, add_due_check, declare
from league.models import (
    Category,
    Game,
    GameStatus,
    Postponement,
    PostponementStatus,
    Season,
    SeasonState,
)


def season_not_draft(context: Mapping[str, Any]) -> bool:
    """A draft is the organiser's alone: a message about one (``season_id`` in its context)
    is neither written nor sent, whatever the event."""
    season_id = context.get("season_id")
    return not (
        isinstance(season_id, int)
        and Season.objects.filter(pk=season_id, state=SeasonState.DRAFT).exists()
    )


def register() -> None:
    """The league's rule for every message (from ``LeagueConfig.ready()``)."""
    add_due_check(season_not_draft)


NIGHT_REMINDER = declare(
    Event(
        code="night_reminder",
        category=Category.REMINDERS,
        audience=_("the players of both teams of the match"),
        subject=_("You play on %(date)s: %(team)s v %(opponent)s"),
        body=_(
            "%(team)s plays %(opponent)s on %(date)s, starting at %(starts)s.\n"
            "Where: %(venue)s, table %(table)s.\n"
            "The match page has the games as they are entered."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "venue", "table", "match_id", "starts"),
    )
)


def _game_waits(context: Mapping[str, Any]) -> bool:
    game_id = context.get("game_id")
    if not isinstance(game_id, int):
        return False
    return Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).exists()


RESULT_TO_CONFIRM = declare(
    Event(
        code="result_to_confirm",
        category=Category.RESULTS,
        audience=_("the players of the team that has not confirmed the finished game"),
        subject=_("A result waits for your confirmation: %(game)s"),
        body=_(
            "%(game)s is over: %(score)s.\n"
            "It counts once your team confirms it. If a number is wrong, dispute it from the "
            "game's page instead."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_LAST_REMINDER = declare(
    Event(
        code="result_last_reminder",
        category=Category.RESULTS,
        audience=_("the players of the team that still has not confirmed a finished game"),
        subject=_("Last reminder: confirm %(game)s"),
        body=_(
            "%(game)s finished %(hours)s hours ago (%(score)s) and your team has not confirmed "
            "it yet. It does not count in the standings until it is confirmed or disputed."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "hours", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_CLOSING_SOON = declare(
    Event(
        code="result_closing_soon",
        category=Category.RESULTS,
        audience=_("the players of the team that still has not confirmed a finished game"),
        subject=_("Last call: %(game)s closes on %(closes)s"),
        body=_(
            "%(game)s is over (%(score)s) and your team has not confirmed it yet. The league "
            "confirms it as it stands on %(closes)s unless your team confirms it or disputes it "
            "from the game's page before then."
        ),
        link="league:game",
        link_arg="game_id",
        times=("closes",),
        keys=("game", "score", "closes", "game_id"),
        still_due=_game_waits,
    )
)
RESULT_CLOSED = declare(
    Event(
        code="result_closed",
        category=Category.RESULTS,
        audience=_("the players of both teams of the game"),
        subject=_("Closed by the league: %(game)s"),
        body=_(
            "Nobody confirmed or disputed %(game)s within %(hours)s hours, so the league "
            "confirmed it as it was entered: %(score)s. It now counts in the standings."
        ),
        link="league:game",
        link_arg="game_id",
        keys=("game", "score", "hours", "game_id"),
    )
)
FORFEIT_RECORDED = declare(
    Event(
        code="forfeit_recorded",
        category=Category.RESULTS,
        audience=_("the players of both teams of the match"),
        subject=_("Forfeit: %(forfeiter)s forfeits %(team)s v %(opponent)s"),
        body=_(
            "%(forfeiter)s forfeits the match %(team)s v %(opponent)s of %(date)s: the games "
            "not played go to the other team.\nWhy: %(reason)s"
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "forfeiter", "reason", "match_id"),
    )
)
FORFEIT_UNDONE = declare(
    Event(
        code="forfeit_undone",
        category=Category.RESULTS,
        audience=_("the players of both teams of the match"),
        subject=_("Forfeit undone: %(team)s v %(opponent)s"),
        body=_(
            "The forfeit of %(team)s v %(opponent)s of %(date)s is undone: the games it gave "
            "count no more and can be played.\nWhy: %(reason)s"
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "reason", "match_id"),
    )
)
DISPUTE_RAISED = declare(
    Event(
        code="dispute_raised",
        category=Category.DISPUTES,
        audience=_("the players of both teams of the game"),
        subject=_("Dispute raised: %(game)s"),
        body=_("A dispute was raised on %(game)s:\n\n%(claim)s\n\nA judge will look at it."),
        link="league:game",
        link_arg="game_id",
        keys=("game", "claim", "game_id"),
    )
)
DISPUTE_RULED = declare(
    Event(
        code="dispute_ruled",
        category=Category.DISPUTES,
        audience=_("the players of both teams of the game"),
        subject=_("Dispute ruled: %(game)s"),
        body=_("The judge ruled (%(status)s, rule %(rule)s):\n\n%(ruling)s"),
        link="league:game",
        link_arg="game_id",
        keys=("game", "status", "rule", "ruling", "game_id"),
    )
)
PLAYOFFS_DRAWN = declare(
    Event(
        code="playoffs_drawn",
        category=Category.PLAYOFFS,
        audience=_("every player of the season"),
        subject=_("The playoffs are drawn: %(season)s"),
        body=_("The playoffs of %(season)s are drawn. The bracket shows who plays whom."),
        link="league:seeding",
        link_arg="season_id",
        keys=("season",),
    )
)
PLAYOFF_MATCH = declare(
    Event(
        code="playoff_match",
        category=Category.PLAYOFFS,
        audience=_("the players of both teams of the playoff match"),
        subject=_("Your playoff match: %(team)s v %(opponent)s"),
        body=_("Playoff round %(round)s: %(team)s plays %(opponent)s at table %(table)s."),
        link="league:match",
        link_arg="match_id",
        keys=("team", "opponent", "round", "table", "match_id"),
    )
)
ANNOUNCEMENT = declare(
    Event(
        code="announcement",
        category=Category.ANNOUNCEMENTS,
        audience=_("every player of the season"),
        subject=_("A word from the organiser: %(season)s"),
        body=_("%(text)s"),
        link="league:home",
        keys=("season", "text"),
    )
)
# The season's operations: a match moved or postponed, a night cancelled, a sub asked for.
MATCH_MOVED = declare(
    Event(
        code="match_moved",
        category=Category.CHANGES,
        audience=_("the players of both teams of the match"),
        subject=_("Moved: %(team)s v %(opponent)s is now on %(date)s"),
        body=_(
            "%(team)s v %(opponent)s has moved from %(was)s to %(date)s.\n"
            "Where: %(venue)s, table %(table)s."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date", "was"),
        keys=("team", "opponent", "venue", "table", "match_id"),
    )
)
MATCH_POSTPONED = declare(
    Event(
        code="match_postponed",
        category=Category.CHANGES,
        audience=_("the players of both teams of the match"),
        subject=_("Postponed: %(team)s v %(opponent)s"),
        body=_(
            "%(team)s v %(opponent)s, planned for %(was)s, is postponed: it is now played on "
            "%(date)s.\nWhere: %(venue)s, table %(table)s."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date", "was"),
        keys=("team", "opponent", "match_id"),
    )
)
NIGHT_CANCELLED = declare(
    Event(
        code="night_cancelled",
        category=Category.CHANGES,
        audience=_("every player with a match that night"),
        subject=_("No cribbage on %(was)s"),
        body=_("Week %(week)s of %(season)s, on %(was)s, is cancelled."),
        link="league:schedule",
        link_arg="season_id",
        dates=("was",),
        keys=("week", "season"),
    )
)
SUB_ASKED = declare(
    Event(
        code="sub_asked",
        category=Category.SUBS,
        audience=_("the players on the season's sub list"),
        subject=_("A sub is wanted on %(date)s"),
        body=_(
            "%(team)s needs a sub against %(opponent)s on %(date)s (%(venue)s). "
            "Answer the captain, %(captain)s, if you can play."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date",),
        keys=("team", "opponent", "venue", "captain", "match_id"),
    )
)
WEEK_STORY = declare(
    Event(
        code="week_story",
        category=Category.STORIES,
        audience=_("every player of the season, where the season sends the week's story"),
        subject=_("The week's story: %(season)s, week %(week)s"),
        body=_("%(story)s"),
        link="league:week_recap",
        link_arg="week_id",
        keys=("season", "week", "story", "week_id"),
    )
)


def _still_asked(context: Mapping[str, Any]) -> bool:
    pk = context.get("postponement_id")
    if not isinstance(pk, int):
        return False
    return Postponement.objects.filter(pk=pk, status=PostponementStatus.ASKED).exists()


POSTPONEMENT_ASKED = declare(
    Event(
        code="postponement_asked",
        category=Category.CHANGES,
        audience=_("the players of the team asked to move the match"),
        subject=_("%(asker)s ask to move your match to %(date)s"),
        body=_(
            "%(asker)s ask to play your match (%(team)s v %(opponent)s), planned for %(was)s, on "
            "%(date)s instead.\nWhy: %(reason)s\n"
            "Accept or decline from your home page by %(answer_by)s; after that the organiser "
            "decides."
        ),
        link="league:match",
        link_arg="match_id",
        dates=("date", "was"),
        times=("answer_by",),
        keys=("asker", "team", "opponent", "reason", "match_id", "postponement_id"),
        still_due=_still_asked,
    )
)
