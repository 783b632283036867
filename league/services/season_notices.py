"""What a season's hard weeks tell the players at once: a postponement asked of their team (the
event is declared here with ``league.kernel.notify.declare``, like every other, and imported by
``LeagueConfig.ready()`` so a worker knows it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from league import checks
from league.kernel.notify import Event, declare, notify
from league.models import Category, Postponement, PostponementStatus


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


def notify_postponement_asked(asked: Postponement) -> None:
    """The other team's players hear the request at once (after commit), with its deadline."""
    match = asked.match
    season = match.week.season
    other = match.away if asked.team_id == match.home_id else match.home
    notify(
        POSTPONEMENT_ASKED,
        [p.pk for p in other.players.all()],
        {
            "league": season.league.name,
            "season": season.name,
            "season_id": season.pk,
            "asker": match.home.name if other == match.away else match.away.name,
            "team": other.name,
            "opponent": match.home.name if other == match.away else match.away.name,
            "date": asked.date,
            "was": match.when,
            "reason": asked.reason,
            "answer_by": checks.postponement_answer_by(asked),
            "match_id": match.pk,
            "postponement_id": asked.pk,
        },
        key=f"postponement:{asked.pk}",
    )
