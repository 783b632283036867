"""Disputes: raised by a player (or a judge opening a review), worked by a judge, ruled with a
cited rule. A ruling may correct any set of deals at once through the same correction service as
the teams use; on a finished game it settles the game (the judge vouches for both teams).
An open dispute holds a finished game: it does not count until it is ruled on."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.checks import team_of
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, TooFast, ValidationFailed
from league.kernel.permissions import Action, Actor, actor_of, refuse_unless
from league.kernel.stored_texts import RULING, render, written
from league.models import Deal, Dispute, DisputeStatus, Game
from league.models.disputes import CLAIM_LIMIT
from league.rules_reference import RULES_BY_ID, in_force, rule_facts, why_not_played
from league.selectors.games import rival_claim
from league.services.corrections import game_resettle, settle_after_ruling
from league.services.deals import OPEN_DISPUTES, _lock, deals_correct, game_state
from league.services.notify import notify_dispute
from league.services.results import results_changed

log = logging.getLogger(__name__)


def _fresh(game: Game) -> Game:
    """The game as it stands now (a page's copy may be a moment old)."""
    return Game.objects.select_related("match__week__season", "match__home", "match__away").get(
        pk=game.pk
    )


def _in_every_language(code: str, params: dict[str, Any]) -> set[str]:
    """The stored text as each of the site's languages writes it (what a phone sent)."""
    texts = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            texts.add(render(code, params))
    return texts


def _clean_claim(claim: Any) -> str:
    if not isinstance(claim, str) or not claim.strip():
        raise ValidationFailed(_("Say what you think is wrong."), field="claim")
    claim = claim.strip()
    if len(claim) > CLAIM_LIMIT:
        raise ValidationFailed(
            _("Keep it under %(n)s characters: a judge reads every word.") % {"n": CLAIM_LIMIT},
            field="claim",
        )
    return claim


DISPUTE_WINDOW = timedelta(hours=1)


def _check_dispute_rate(user: Actor) -> None:
    """At most ``PEGBOARD_DISPUTES_PER_HOUR`` disputes per player per hour (checked under the
    game's lock, in the same transaction as the new dispute)."""
    limit = settings.PEGBOARD_DISPUTES_PER_HOUR
    since = timezone.now() - DISPUTE_WINDOW
    recent = list(
        Dispute.objects.filter(raised_by=actor_of(user), created_at__gte=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    wait = max(1, math.ceil((recent[-1] + DISPUTE_WINDOW - timezone.now()).total_seconds()))
    minutes = max(1, math.ceil(wait / 60))
    raise TooFast(
        ngettext(
            "You have raised %(limit)s disputes in the last hour: a judge will get to them. "
            "You can raise another in %(n)s minute.",
            "You have raised %(limit)s disputes in the last hour: a judge will get to them. "
            "You can raise another in %(n)s minutes.",
            minutes,
        )
        % {"limit": limit, "n": minutes},
        retry_after=wait,
    )


def dispute_raise(
    *,
    game: Game,
    user: Actor,
    claim: str,
    deal_number: int | None = None,
    rival: Deal | None = None,
) -> Dispute:
    """A player of either team raises a dispute on their game (optionally on one deal, or on a
    deal the two teams entered differently: ``rival``); a judge may open one on any game but
    their own team's. A team keeps one open dispute per deal."""
    return _dispute_open(
        game=game,
        user=user,
        claim=claim,
        deal_number=deal_number,
        rival=rival,
        action=Action.RAISE_DISPUTE,
    )


def _dispute_open(
    *,
    game: Game,
    user: Any,
    claim: str,
    deal_number: int | None,
    rival: Deal | None,
    action: Action,
) -> Dispute:
    """Open a dispute for ``action`` (raising one, or rejecting the game), asked of the game
    as it stands before the checks and again under its lock: a press a moment late (a reject
    just after the team's own confirmation) is refused for why, and changes nothing."""
    game = _fresh(game)
    refuse_unless(user, action, game, current=lambda: game_state(game))
    claim = _clean_claim(claim)
    if rival is not None:
        if rival.game_id != game.pk or not rival.is_rival:
            raise ValidationFailed(_("That entry is not part of this game."), field="rival")
        deal_number = rival.number
    if deal_number is not None and (
        type(deal_number) is not int
        or not game.deals.filter(number=deal_number, is_current=True).exists()
    ):
        raise ValidationFailed(
            _("This game has no deal %(n)s.") % {"n": deal_number}, field="deal_number"
        )
    claim_code, claim_params = "", {}
    if rival is not None:
        # The text the pages offer for a rival entry is the system's: stored as a code and
        # parameters, so each reader reads it in their own language (a claim written by hand
        # stays as typed).
        code, params = rival_claim(rival)
        if claim in _in_every_language(code, params):
            claim_code, claim_params = code, params
    team = team_of(user, game.match)
    with transaction.atomic():
        game = _lock(game)
        locked = game
        refuse_unless(user, action, locked, current=lambda: game_state(locked))
        if team is not None:
            _check_dispute_rate(user)
        if (
            team is not None
            and Dispute.objects.filter(
                game=game, raised_by_team_id=team, deal_number=deal_number, status__in=OPEN_DISPUTES
            ).exists()
        ):
            raise Conflict(
                _("Your team already has an open dispute about this game.")
                if deal_number is None
                else _("Your team already has an open dispute about deal %(n)s.")
                % {"n": deal_number}
            )
        dispute = Dispute.objects.create(
            game=game,
            deal_number=deal_number,
            rival=rival,
            raised_by=actor_of(user),
            raised_by_team_id=team,
            claim=claim,
            claim_code=claim_code,
            claim_params=claim_params,
        )
        after: dict[str, Any] = {
            "claim": claim,
            "deal_number": deal_number,
            "rival": getattr(rival, "pk", None),
        }
        if claim_code:
            after.update(claim_code=claim_code, claim_params=claim_params)
        audit_log(actor=user, action=AuditAction.DISPUTE_RAISE, obj=dispute, after=after)
        game_resettle(game=game, user=user)
        notify_dispute(dispute, ruled=False)  # written with the dispute: never lost
    return dispute


def game_reject(*, game: Game, user: Actor, claim: str, deal_number: int | None = None) -> Dispute:
    """A team asked to confirm a finished game refuses: that raises a dispute, and the game
    waits for a judge (it does not count meanwhile)."""
    return _dispute_open(
        game=game,
        user=user,
        claim=claim,
        deal_number=deal_number,
        rival=None,
        action=Action.REJECT_GAME,
    )


def dispute_withdraw(*, dispute: Dispute, user: Actor) -> Dispute:
    """The team that raised a dispute takes it back (the numbers were corrected, say)."""
    refuse_unless(user, Action.WITHDRAW_DISPUTE, dispute)
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if dispute.is_closed:
            raise Conflict(_("This dispute is already settled."))
        dispute.status = DisputeStatus.DISMISSED
        dispute.ruling = _("Withdrawn by the team that raised it.")
        dispute.ruled_at = timezone.now()
        dispute.save(update_fields=["status", "ruling", "ruled_at"])
        audit_log(
            actor=user,
            action=AuditAction.DISPUTE_WITHDRAW,
            obj=dispute,
            after={"status": "dismissed"},
        )
        game_resettle(game=dispute.game, user=user)
    return dispute


def dispute_assign(*, dispute: Dispute, judge: Any) -> Dispute:
    """A judge takes a dispute: it moves to 'in review'."""
    refuse_unless(judge, Action.RULE_DISPUTE, dispute)  # taking it is the first step of ruling
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if dispute.is_closed:
            raise Conflict(_("This dispute is already settled."))
        before = {"status": dispute.status, "judge": dispute.judge_id}
        dispute.judge = judge
        dispute.status = DisputeStatus.IN_REVIEW
        dispute.save(update_fields=["judge", "status"])
        audit_log(
            actor=judge,
            action=AuditAction.DISPUTE_ASSIGN,
            obj=dispute,
            before=before,
            after={"status": dispute.status, "judge": judge.pk},
        )
    return dispute


def dispute_rule(
    *,
    dispute: Dispute,
    judge: Any,
    ruling: str,
    rule_reference: str,
    dismiss: bool = False,
    corrections: Mapping[int, Mapping[str, Any] | None] | None = None,
) -> Dispute:
    """Settle a dispute with a written ruling citing a rule, correcting any set of deals at
    once (deal number -> the whole corrected deal; the corrected game is replayed as one). On a
    finished game with no other open dispute, the ruling confirms the game. All or nothing."""
    refuse_unless(judge, Action.RULE_DISPUTE, dispute)
    ruling = (ruling or "").strip()
    if not ruling:
        raise ValidationFailed(_("Write the ruling."), field="ruling")
    if len(ruling) > 5000:
        raise ValidationFailed(_("Keep the ruling under 5,000 characters."), field="ruling")
    if rule_reference not in RULES_BY_ID:
        raise ValidationFailed(
            _("Cite a rule from the rules reference (for example S-4)."), field="rule_reference"
        )
    season = dispute.game.match.week.season
    if rule_reference not in {rule.id for rule in in_force(season)}:
        raise ValidationFailed(
            _("This season does not play rule %(rule)s (%(why)s): cite another rule.")
            % {
                "rule": rule_reference,
                "why": why_not_played(RULES_BY_ID[rule_reference], rule_facts(season)),
            },
            field="rule_reference",
        )
    corrections = dict(corrections or {})
    if dismiss and corrections:
        raise ValidationFailed(_("A dismissed dispute changes no deal."), field="corrections")
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().select_related("game").get(pk=dispute.pk)
        if dispute.is_closed:
            raise Conflict(_("This dispute is already settled."))
        # The frame is the system's (read in each reader's language), the ruling the judge's.
        params = {"n": dispute.pk, "rule": rule_reference, "ruling": ruling}
        changed: dict[int, Any] = {}
        if corrections:
            changed = deals_correct(
                game=dispute.game,
                corrections=corrections,
                user=judge,
                reason=written(RULING, params),
                ruling=dispute,
                reason_code=RULING,
                reason_params=params,
            )
        before = {"status": dispute.status}
        dispute.status = DisputeStatus.DISMISSED if dismiss else DisputeStatus.RESOLVED
        dispute.judge = judge
        dispute.ruling = ruling
        dispute.rule_reference = rule_reference
        dispute.ruled_at = timezone.now()
        dispute.save()
        audit_log(
            actor=judge,
            action=AuditAction.DISPUTE_RULE,
            obj=dispute,
            before=before,
            after={
                "status": dispute.status,
                "rule": rule_reference,
                "corrected_deals": sorted(changed),
            },
            reason=ruling,
        )
        game = _lock(dispute.game)
        if not game.disputes.filter(status__in=OPEN_DISPUTES).exists():
            settle_after_ruling(game, judge=judge)
            results_changed(season_id=game.match.week.season_id)
        notify_dispute(dispute, ruled=True)
    return dispute
