"""Who is coming: a player answers in, out or maybe for a night of their season.

One service for every door: the home page's one tap, the match page, the API and the signed
link from a reminder (:func:`availability_link`, usable without signing in). An answer is not a
result or a rule, so it goes on no audit trail: the latest answer is kept, with its time.

Who may answer for a player: the player (their login), their team's captain (a partner who
rang the captain), or a league admin; a signed link answers for the player it was made for.
A night that has passed, a draft season or a finished one takes no answers.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, can
from league.models import Answer, Availability, Player, SeasonState, Team, Week

LINK_SALT = "pegboard.availability"
LINK_DAYS = 120  # a season's length and then some: the night passing ends a link sooner


def _answer(value: Any) -> Answer:
    try:
        return Answer(value)
    except ValueError:
        raise ValidationFailed(
            _("Answer in, out or maybe."),
            field="answer",
        ) from None


def team_of(player: Player, week: Week) -> Team | None:
    """The player's team in the week's season, or None."""
    return player.teams.filter(season_id=week.season_id).first()


def _may_answer(user: Actor, player: Player, team: Team) -> bool:
    if isinstance(user, Trusted) or can(user, Action.MANAGE_LEAGUE):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if player.user_id is not None and player.user_id == getattr(user, "pk", None):
        return True
    return team.captain is not None and team.captain.user_id == getattr(user, "pk", None)


def availability_answer(
    *, user: Actor, player: Player, week: Week, answer: str, today: dt.date | None = None
) -> Availability:
    """Record ``player``'s answer for the night of ``week`` (the latest answer counts)."""
    today = today or timezone.localdate()
    week = Week.objects.select_related("season").get(pk=week.pk)
    if week.season.state == SeasonState.DRAFT and not can(user, Action.MANAGE_LEAGUE):
        raise _off_schedule()  # a draft is its organisers' alone: not even its name is said
    team = team_of(player, week)
    if team is None:
        raise ValidationFailed(
            _("%(player)s plays on no team of %(season)s.")
            % {"player": player.name, "season": week.season.name},
            field="player",
        )
    if not _may_answer(user, player, team):
        raise NotAllowed(
            _("Only %(player)s, their captain or an organiser can answer for them.")
            % {"player": player.name}
        )
    value = _answer(answer)
    if week.season.state != SeasonState.PUBLISHED:
        raise Conflict(
            _("%(season)s is not open: there is no night to answer for.")
            % {"season": week.season.name},
            field="week",
        )
    if week.cancelled_reason:
        raise Conflict(
            _("This night is cancelled (%(why)s): nobody is asked whether they come.")
            % {"why": week.cancelled_reason},
            field="week",
        )
    if week.date is not None and week.date < today:
        raise Conflict(
            _("That night has passed: answer for the next one."),
            field="week",
        )
    with transaction.atomic():
        row, _created = Availability.objects.update_or_create(
            player=player, week=week, defaults={"answer": value}
        )
    return row


# --- Signed links (for reminders) ---------------------------------------------------------------


def availability_token(*, player: Player, week: Week) -> str:
    """A signed token naming the player and the night; only this module reads it."""
    return signing.dumps({"p": player.pk, "w": week.pk}, salt=LINK_SALT, compress=True)


def availability_link(*, player: Player, week: Week, base_url: str = "") -> str:
    """The address of the page where ``player`` answers for ``week``'s night in one tap,
    without signing in (for a reminder email or a push). ``base_url`` (``https://host``) makes
    it absolute. The link names only this player and this night, and ends when the night has
    passed (or after ``LINK_DAYS``)."""
    path = reverse("league:availability_link", args=[availability_token(player=player, week=week)])
    return base_url.rstrip("/") + path


def availability_from_token(token: str) -> tuple[Player, Week]:
    """The player and night a link was made for; refused if it was altered or is too old."""
    try:
        data = signing.loads(token, salt=LINK_SALT, max_age=dt.timedelta(days=LINK_DAYS))
        player = Player.objects.get(pk=int(data["p"]))
        week = Week.objects.select_related("season__league", "venue").get(pk=int(data["w"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError, Player.DoesNotExist):
        raise ValidationFailed(
            _("This link does not work any more: open the home page and answer there.")
        ) from None
    except Week.DoesNotExist:
        raise _off_schedule() from None
    if week.season.state == SeasonState.DRAFT:  # made while published, then taken back
        raise _off_schedule()
    return player, week


def _off_schedule() -> ValidationFailed:
    """A night nobody but its organisers may see now (gone, or its season back to draft)."""
    return ValidationFailed(
        _("That night is no longer on the schedule: open the home page for the next one.")
    )


def availability_answer_by_link(*, token: str, answer: str) -> Availability:
    """Record the answer of a signed link: it answers for the player it was made for."""
    player, week = availability_from_token(token)
    return availability_answer(
        user=Trusted(None, "a signed availability link"), player=player, week=week, answer=answer
    )
