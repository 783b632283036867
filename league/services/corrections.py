"""Corrections at the table and after a ruling: one deal corrected, a rival entry withdrawn, a
game settled again after a judge's ruling (several deals as one change, the shape and the
shared helpers: ``league.services.deals``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league import checks
from league.checks import team_of
from league.kernel import stored_texts
from league.kernel.audit import AuditAction, audit_log
from league.kernel.entries import normalise
from league.kernel.errors import Conflict, ValidationFailed
from league.kernel.permissions import Action, Actor, Trusted, refuse_unless
from league.models import (
    Deal,
    Game,
)
from league.services.deals import (
    _lock,
    _recount_rivals,
    _season_id,
    _settle,
    _vouch,
    deals_correct,
    game_state,
    same_deal,
    variant_of,
)
from league.services.results import results_changed

# --- Corrections ---------------------------------------------------------------------------------


def deal_correct(
    *,
    game: Game,
    number: int,
    user: Actor,
    data: Mapping[str, Any],
    reason: str = "",
    reason_code: str = "",
    rival: Any = None,
) -> Deal:
    """The team that entered deal ``number`` corrects it before the game is confirmed: a new
    version, the whole game replayed. The other team's vouch stops before the corrected deal
    (it has to look again), unless the correction agrees with its own entry of that deal.

    Why: ``reason`` as the captain wrote it, or ``reason_code`` for a reason the system words
    in each reader's language: ``took_rival`` with ``rival`` (the id of the other entry of
    this deal whose numbers ``data`` takes)."""
    if not isinstance(user, Trusted) and team_of(user, game.match) is None:
        raise checks.CORRECT.exception()  # an outsider learns nothing of the game's deals
    deal = game.deals.filter(number=number, is_current=True).select_related("entered_by").first()
    if deal is None:
        raise ValidationFailed(_("This game has no deal %(n)s.") % {"n": number}, field="number")
    refuse_unless(user, Action.CORRECT_DEAL, deal, current=lambda: game_state(game))
    params: dict[str, Any] = {}
    if reason_code:
        params = _took_rival(game, number, data, reason_code, rival)
        reason = stored_texts.written(reason_code, params)
    new = deals_correct(
        game=game,
        corrections={number: data},
        user=user,
        reason=reason,
        reason_code=reason_code,
        reason_params=params,
    )
    if number not in new:  # the deal already stands so: nothing to correct
        return game.deals.get(number=number, is_current=True)
    return new[number]  # type: ignore[return-value]


def _took_rival(
    game: Game, number: int, data: Mapping[str, Any], code: str, rival: Any
) -> dict[str, Any]:
    """The parameters of a correction's ``code`` (``took_rival``), checked: the other entry of
    deal ``number`` it names exists, and the corrected deal has its numbers."""
    if code != stored_texts.TOOK_RIVAL:
        raise ValidationFailed(
            _(
                "Pegboard does not know this reason: say in your own words why the deal is "
                "corrected."
            ),
            field="reason_code",
        )
    entry = None
    if type(rival) is int:
        entry = (
            Deal.objects.filter(pk=rival, game=game, number=number, is_rival=True)
            .select_related("entered_by")
            .first()
        )
    if entry is None:
        raise ValidationFailed(
            _("Deal %(n)s has no other entry to take the numbers of.") % {"n": number},
            field="rival",
        )
    who = entry.entered_by.get_username() if entry.entered_by else "?"
    if not isinstance(data, Mapping) or not same_deal(
        entry, normalise(data, variant=variant_of(game))
    ):
        raise ValidationFailed(
            _(
                "These are not the numbers %(who)s entered for deal %(n)s: say in your own "
                "words why the deal is corrected."
            )
            % {"who": who, "n": number},
            field="deal",
        )
    return {"n": number, "who": who, "rival": entry.pk}


def rival_withdraw(*, rival: Deal, user: Actor) -> Game:
    """A team accepts the stored numbers of a deal it entered differently: its rival entry is
    settled (kept on record) and its vouch holds again."""
    refuse_unless(user, Action.WITHDRAW_RIVAL, rival, current=lambda: game_state(rival.game))
    with transaction.atomic():
        game = _lock(rival.game)
        updated = Deal.objects.filter(pk=rival.pk, settled_at__isnull=True).update(
            settled_at=timezone.now()
        )
        if not updated:
            raise Conflict(_("This entry is already settled."), current=game_state(game))
        _vouch(game, team_of(user, game.match), rival.number)
        _recount_rivals(game)
        _settle(game, user=user)
        game.save()
        audit_log(
            actor=user, action=AuditAction.RIVAL_WITHDRAW, obj=rival, after={"number": rival.number}
        )
        results_changed(season_id=_season_id(game))
    return game


def settle_after_ruling(game: Game, *, judge: Any) -> None:
    """A ruling settles every pending rival entry of the game; on a finished game it vouches
    for both teams (the judge's decision stands for them). Call inside the ruling's
    transaction, with the game locked."""
    Deal.objects.filter(game=game, is_rival=True, settled_at__isnull=True).update(
        settled_at=timezone.now()
    )
    _recount_rivals(game)
    if game.winner_id is not None:
        game.home_vouched = game.away_vouched = game.deal_count
    _settle(game, user=judge)
    game.save()


def game_resettle(*, game: Game, user: Actor) -> Game:
    """Put a game in the state its facts say (after a dispute was raised or withdrawn)."""
    game = _lock(game)
    before = _settle(game, user=user)
    game.save()
    if before != game.status:
        results_changed(season_id=_season_id(game))
    return game
