"""Disputes: raised by a player, worked by a judge, ruled with a cited rule; corrections go
through the same deal service as score entry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import Conflict, NotAllowed, ValidationFailed
from league.models import Dispute, DisputeStatus, Game, GameStatus
from league.permissions import Action, can, is_judge, teams_of
from league.rules_reference import RULES_BY_ID
from league.services.audit import audit_log
from league.services.games import deal_correct


def _notify(dispute_id: int, event: str) -> None:
    def send() -> None:
        from league.tasks import notify_dispute

        try:
            notify_dispute.delay(dispute_id, event)
        except Exception:  # a broker outage must not undo the dispute
            import logging

            logging.getLogger(__name__).warning("could not queue dispute mail", exc_info=True)

    transaction.on_commit(send)


def dispute_raise(*, game: Game, user: Any, claim: str, deal_number: int | None = None) -> Dispute:
    """A player of either team raises a dispute on a game (optionally on one deal)."""
    if not can(user, Action.RAISE_DISPUTE, game.match):
        raise NotAllowed(_("Only the players of these two teams can dispute this game."))
    claim = (claim or "").strip()
    if not claim:
        raise ValidationFailed(_("Say what you think is wrong."), field="claim")
    if deal_number is not None and (
        type(deal_number) is not int
        or not game.deals.filter(number=deal_number, is_current=True).exists()
    ):
        raise ValidationFailed(
            _("This game has no deal %(n)s.") % {"n": deal_number}, field="deal_number"
        )
    team_ids = teams_of(user, game.match)
    with transaction.atomic():
        dispute = Dispute.objects.create(
            game=game,
            deal_number=deal_number,
            raised_by=user,
            raised_by_team_id=next(iter(team_ids), None),
            claim=claim,
        )
        audit_log(
            actor=user,
            action="dispute_raise",
            obj=dispute,
            game=game,
            season=game.match.week.season,
            after={"claim": claim, "deal_number": deal_number},
        )
        _notify(dispute.pk, "raised")
    return dispute


def game_reject(*, game: Game, user: Any, claim: str, deal_number: int | None = None) -> Dispute:
    """The other team refuses to confirm a finished game: that raises a dispute."""
    if game.status != GameStatus.FINISHED:
        raise ValidationFailed(_("Only a finished game waiting for confirmation can be rejected."))
    return dispute_raise(game=game, user=user, claim=claim, deal_number=deal_number)


def _involved(judge: Any, dispute: Dispute) -> bool:
    return bool(teams_of(judge, dispute.game.match))


def dispute_assign(*, dispute: Dispute, judge: Any) -> Dispute:
    """A judge takes a dispute: it moves to 'in review'."""
    if not is_judge(judge):
        raise NotAllowed(_("Only a judge can take a dispute."))
    if _involved(judge, dispute):
        raise NotAllowed(_("A judge cannot take a dispute involving their own team."))
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
            action="dispute_assign",
            obj=dispute,
            game=dispute.game,
            season=dispute.game.match.week.season,
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
    corrections: Sequence[tuple[int, Mapping[str, Any]]] = (),
) -> Dispute:
    """Settle a dispute with a written ruling citing a rule; apply the corrections it needs.

    Each correction ``(deal number, deal data)`` goes through :func:`deal_correct`, so it is
    validated, versioned, re-finishes the game and moves the standings. All or nothing.
    """
    if not can(judge, Action.RULE_DISPUTE):
        raise NotAllowed(_("Only a judge can rule on a dispute."))
    if _involved(judge, dispute):
        raise NotAllowed(_("A judge cannot rule on a dispute involving their own team."))
    ruling = (ruling or "").strip()
    if not ruling:
        raise ValidationFailed(_("Write the ruling."), field="ruling")
    if rule_reference not in RULES_BY_ID:
        raise ValidationFailed(
            _("Cite a rule from the rules reference (for example S-4)."), field="rule_reference"
        )
    if dismiss and corrections:
        raise ValidationFailed(_("A dismissed dispute changes no deal."), field="corrections")
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().select_related("game").get(pk=dispute.pk)
        if dispute.is_closed:
            raise Conflict(_("This dispute is already settled."))
        reason = f"Ruling on dispute #{dispute.pk} ({rule_reference}): {ruling}"
        for number, data in corrections:
            if _unchanged(dispute.game, number, data):
                continue  # the deal as it stands: nothing to correct
            deal_correct(
                game=dispute.game,
                number=number,
                user=judge,
                data=data,
                reason=reason,
                check_permission=False,
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
            action="dispute_rule",
            obj=dispute,
            game=dispute.game,
            season=dispute.game.match.week.season,
            before=before,
            after={
                "status": dispute.status,
                "rule": rule_reference,
                "corrected_deals": [n for n, _d in corrections],
            },
            reason=ruling,
        )
        _notify(dispute.pk, "ruled")
    return dispute


def dispute_deal_as_entered(dispute: Dispute) -> dict[str, Any] | None:
    """The disputed deal's current numbers, in the shape a correction is written in."""
    deal = dispute.game.deals.filter(number=dispute.deal_number, is_current=True).first()
    if deal is None:
        return None
    entered: dict[str, Any] = {
        "dealer": deal.dealer,
        "starter": deal.starter or None,
        "pegging": deal.pegging,
        "shows": deal.shows,
        "crib": deal.crib,
    }
    if deal.cards:
        entered["cards"] = deal.cards
    return entered


def _unchanged(game: Game, number: int, data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is deal ``number`` exactly as it stands (a ruling that keeps it)."""
    from league.services.entries import normalise
    from league.services.games import variant_of

    deal = game.deals.filter(number=number, is_current=True).first()
    if deal is None:
        return False
    try:
        proposed = normalise(data, variant=variant_of(game))
    except ValidationFailed:
        return False  # deal_correct will say what is wrong
    heels = bool(proposed["heels"]) or (proposed["starter"] or "").startswith("J")
    return (
        proposed["dealer"] == deal.dealer
        and (proposed["starter"] or "") == deal.starter
        and heels == deal.heels
        and proposed["pegging"] == deal.pegging
        and proposed["shows"] == deal.shows
        and proposed["crib"] == deal.crib
        and (proposed["cards"] or None) == (deal.cards or None)
    )
