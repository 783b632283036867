"""A player records the cards they were dealt for a deal of their own game, where the league
allows it, to see what their discard cost them (``league.selectors.discards``).

Not a result: a private note beside the deal, so it goes on no audit trail (the latest record
is kept, with its time) and changes nothing of the game. Only the player seated in the seat
records it, for a deal already entered; the cards must agree with what the deal shows of them:
the show's cards among the cards dealt, the starter and the other hands' cards not.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.errors import NotAllowed, ValidationFailed
from league.kernel.scoring_messages import scoring_message
from league.models import DealtCards, DealtHand, Game, GameSeat
from scoring.cards import Card
from scoring.discard import dealt_cards
from scoring.errors import ScoringError


def dealt_hand_record(*, user: Any, game: Game, number: int, cards: str) -> DealtHand:
    """Keep the cards ``user`` was dealt for deal ``number`` of ``game`` (again: replaced)."""
    season = game.match.week.season
    if season.league.dealt_cards == DealtCards.OFF:
        raise NotAllowed(_("This league does not record the cards dealt."))
    seat = (
        GameSeat.objects.filter(game=game, player__user_id=getattr(user, "pk", None) or 0)
        .select_related("player")
        .first()
    )
    if seat is None:
        raise NotAllowed(_("Only a player of this game records the cards they were dealt."))
    deal = game.deals.filter(number=number, is_current=True, is_rival=False).first()
    if deal is None:
        raise ValidationFailed(
            _("Deal %(n)s is not entered yet: record its cards once it is.") % {"n": number},
            field="number",
        )
    try:
        dealt = dealt_cards(cards, variant=season.game_variant)
    except ScoringError as error:
        raise ValidationFailed(scoring_message(error), field="cards") from None
    codes = [str(c) for c in dealt]
    held = set(codes)
    shown = (deal.cards or {}).get(str(seat.seat)) or []
    if any(_code(c) not in held for c in shown):
        raise ValidationFailed(
            _("Your show's cards (%(cards)s) are not all among the cards dealt.")
            % {"cards": " ".join(shown)},
            field="cards",
        )
    others = [
        c
        for who, hand in (deal.cards or {}).items()
        if who not in (str(seat.seat), "crib")
        for c in hand
    ]
    clash = sorted({_code(c) for c in [*others, *([deal.starter] if deal.starter else [])]} & held)
    if clash:
        raise ValidationFailed(
            _("%(cards)s was not dealt to you: the deal shows it elsewhere.")
            % {"cards": " ".join(clash)},
            field="cards",
        )
    crib = {_code(c) for c in (deal.cards or {}).get("crib") or []}
    laid = held - {_code(c) for c in shown}
    if crib and len(shown) == len(codes) - len(laid) and shown and not laid <= crib:
        raise ValidationFailed(
            _("The cards you laid away (%(cards)s) are not all in the crib's cards.")
            % {"cards": " ".join(sorted(laid - crib))},
            field="cards",
        )
    with transaction.atomic():
        record, _created = DealtHand.objects.update_or_create(
            game=game,
            number=number,
            seat=seat.seat,
            defaults={"player": seat.player, "cards": codes},
        )
    return record


def _code(text: str) -> str:
    """A card as the scorer writes it (``10H`` and ``TH`` are one card)."""
    return str(Card.from_str(text))
