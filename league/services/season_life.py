"""A season's life: draft, published, running, finished, and back (teams, weeks and the
schedule: ``league.services.seasons``)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, DomainError, ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, refuse_unless
from league.models import (
    Game,
    GameStatus,
    Match,
    Season,
    SeasonState,
)
from league.selectors.playoffs import playoff_bracket
from league.selectors.unsettled import Unsettled, season_unsettled
from league.services.people import invitations_release

log = logging.getLogger(__name__)


# --- A season's life ---------------------------------------------------------------------------
#
#   draft --publish--> published --(its first night comes)--> running --finish--> finished
#     ^                   |  (back to draft while no game is played)      |  (the last match or
#     +-------------------+                                                |   the playoff final,
#                                          finished --reopen--> published  |   or the organiser
#                                                                          |   with a reason)
#
# "running" is never stored: ``Season.state_on(today)`` derives it from the dates. Each
# transition below locks the season, checks the role and the state, changes the one field and
# records it in the audit trail, whichever door it came through (/organise/, the API, the admin).

REASON_MAX = 500


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("league").get(pk=season.pk)


def _season_has_games(season: Season) -> bool:
    return Game.objects.filter(match__week__season=season).exists()


def _reason(reason: str, *, needed: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed(needed, field="reason")
    if len(reason) > REASON_MAX:
        raise ValidationFailed(
            _("Keep the reason under %(n)s characters.") % {"n": REASON_MAX}, field="reason"
        )
    return reason


def season_publish(*, season: Season, user: Actor) -> Season:
    """Publish a draft: the season shows as the league's next season (its schedule public,
    its players can be invited) and runs from its first night. Refused without teams and a
    schedule: a published season is one players can plan their nights around.

    Once published, the invitations held while it was a draft go out, each once
    (``invitations_release``); a mail server that does not answer leaves them held, to send
    from the players page, and the season published."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.DRAFT:
            raise Conflict(
                _("%(season)s is already published.") % {"season": season.name}
                if season.state == SeasonState.PUBLISHED
                else _("%(season)s is finished: reopen it instead.") % {"season": season.name},
                field="state",
            )
        if season.teams.count() < 2:
            raise ValidationFailed(
                _("%(season)s has no teams yet: add the teams and make the schedule first.")
                % {"season": season.name},
                field="teams",
            )
        if not Match.objects.filter(week__season=season, week__is_playoff=False).exists():
            raise ValidationFailed(
                _("%(season)s has no schedule yet: make the schedule before publishing it.")
                % {"season": season.name},
                field="schedule",
            )
        season.state = SeasonState.PUBLISHED
        season.save(update_fields=["state"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_PUBLISH,
            obj=season,
            before={"state": SeasonState.DRAFT.value},
            after={"state": SeasonState.PUBLISHED.value},
        )
    try:
        invitations_release(user=user, season=season)
    except DomainError:
        log.warning("held invitations of season %s not sent", season.pk, exc_info=True)
    return season


def season_unpublish(*, season: Season, user: Actor) -> Season:
    """Take a published season back to draft (hidden from everyone but the organisers), as
    long as none of its games has been started."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            raise Conflict(
                _("Only a published season can go back to draft."),
                field="state",
            )
        if _season_has_games(season):
            raise Conflict(
                _("%(season)s has games on record, so it stays published: players have seen it.")
                % {"season": season.name},
                field="state",
            )
        season.state = SeasonState.DRAFT
        season.save(update_fields=["state"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_UNPUBLISH,
            obj=season,
            before={"state": SeasonState.PUBLISHED.value},
            after={"state": SeasonState.DRAFT.value},
        )
    return season


def _organiser_name(user: Actor) -> str:
    full = getattr(user, "get_full_name", lambda: "")()
    return full or getattr(user, "get_username", lambda: "")() or _("the organiser")


def season_finish(*, season: Season, user: Actor, reason: str, confirm: bool = False) -> Season:
    """Close a published season early, with the reason on record (the bar closed, the league
    stopped): it leaves the home page and its league lists it as finished. Games under way stay
    as they are; nothing is deleted.

    While a dispute is open or a game is not yet confirmed, the results are not final: the
    season is not finished unless the organiser ``confirm``s it, in their name (the record
    says what was left open), and the roll of honour says its champion is provisional."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = _reason(reason, needed=_("Say why the season is finished early."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            raise Conflict(
                _("%(season)s is already finished.") % {"season": season.name}
                if season.state == SeasonState.FINISHED
                else _("%(season)s is a draft: delete it instead of finishing it.")
                % {"season": season.name},
                field="state",
            )
        left = season_unsettled(season)
        if left:
            said = _left_said(left)
            if not confirm:
                raise Conflict(
                    _(
                        "%(season)s still has %(left)s: its champion would only be provisional. "
                        "Settle them first, or confirm that you, %(organiser)s, finish it as it "
                        "stands."
                    )
                    % {"season": season.name, "left": said, "organiser": _organiser_name(user)},
                    field="confirm",
                )
            reason = _("%(reason)s (finished by %(organiser)s with %(left)s)") % {
                "reason": reason,
                "organiser": _organiser_name(user),
                "left": said,
            }
        return _finish(season, user=user, reason=reason)


def _left_said(left: Unsettled) -> str:
    parts = []
    if left.disputes:
        parts.append(
            ngettext("%(n)s open dispute", "%(n)s open disputes", left.disputes)
            % {"n": left.disputes}
        )
    if left.games:
        parts.append(
            ngettext("%(n)s game not yet confirmed", "%(n)s games not yet confirmed", left.games)
            % {"n": left.games}
        )
    return _(" and ").join(parts)


def _finish(season: Season, *, user: Actor, reason: str) -> Season:
    season.state = SeasonState.FINISHED
    season.finished_reason = reason
    season.finished_at = timezone.now()
    season.save(update_fields=["state", "finished_reason", "finished_at"])
    audit_log(
        actor=user,
        action=AuditAction.SEASON_FINISH,
        obj=season,
        before={"state": SeasonState.PUBLISHED.value},
        after={"state": SeasonState.FINISHED.value},
        reason=reason,
    )
    return season


def season_reopen(*, season: Season, user: Actor, reason: str) -> Season:
    """Reopen a finished season (finished by mistake, or a result still to play), with the
    reason on record: it is published again, running if its first night has come."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    reason = _reason(reason, needed=_("Say why the season is reopened."))
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.FINISHED:
            raise Conflict(
                _("%(season)s is not finished.") % {"season": season.name}, field="state"
            )
        season.state = SeasonState.PUBLISHED
        season.finished_reason = ""
        season.finished_at = None
        season.save(update_fields=["state", "finished_reason", "finished_at"])
        audit_log(
            actor=user,
            action=AuditAction.SEASON_REOPEN,
            obj=season,
            before={"state": SeasonState.FINISHED.value},
            after={"state": SeasonState.PUBLISHED.value},
            reason=reason,
        )
    return season


def season_is_over(season: Season) -> bool:
    """Every match played and confirmed: each regular match has all its games confirmed and,
    when the season has playoffs, the final is won. A season with playoffs still to draw is
    not over (the organiser draws them)."""
    # Two small queries, whatever the season's size: this runs after every recompute.
    regular = Match.objects.filter(week__season=season, week__is_playoff=False)
    if not regular.exists():
        return False
    confirmed = Count("games", filter=Q(games__status=GameStatus.CONFIRMED))
    if regular.annotate(confirmed=confirmed).filter(confirmed__lt=season.games_per_match).exists():
        return False
    if season.playoff_teams < 2:
        return True
    if not season.playoff_seeding:
        return False
    return bool(playoff_bracket(season).get("champion"))


def season_finish_if_over(*, season_id: int) -> bool:
    """After a result changed (the recompute task): finish a published season whose last match
    or playoff final is over. Safe to run twice. True when it finished the season now."""
    season = Season.objects.filter(pk=season_id, state=SeasonState.PUBLISHED).first()
    if season is None or not season_is_over(season):
        return False
    with transaction.atomic():
        season = _locked(season)
        if season.state != SeasonState.PUBLISHED:
            return False
        # No reason typed: the pages say "after its last match" for a season finished so.
        _finish(season, user=Trusted(None, "the season's last match is over"), reason="")
    return True
