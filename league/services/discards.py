"""A player records the cards they were dealt for a deal of their own game, where the league
allows it, to see what their discard cost them (``league.selectors.discards``).

Not a result: a private note beside the deal, so it goes on no audit trail (the latest record
is kept, with its time) and changes nothing of the game. The player seated in the seat records
it, or, where the league asks for the cards after each deal, whoever enters the deal for their
team records them for each of their team's seats (``league.selectors.discards.dealt_seats``),
for a deal already entered; the cards must agree with what the deal shows of them: the show's
cards among the cards dealt, the starter and the other hands' cards not.

Whether a player's season summary shows in the league's table of the best discarders is the
player's own choice (:func:`discards_share_set`), audited like their other settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import NotAllowed, ValidationFailed
from league.kernel.scoring_messages import scoring_message
from league.models import DealtCards, DealtHand, Game, GameSeat, Player
from league.selectors.discards import dealt_seats
from scoring.cards import Card
from scoring.discard import dealt_cards
from scoring.errors import ScoringError
from scoring.variants import Variant


def dealt_hand_record(
    *, user: Any, game: Game, number: int, cards: str, seat: int | None = None
) -> DealtHand:
    """Keep the cards dealt to ``seat`` (None: the seat of ``user``) for deal ``number`` of
    ``game`` (again: replaced)."""
    season = game.match.week.season
    if season.league.dealt_cards == DealtCards.OFF:
        raise NotAllowed(_("This league does not record the cards dealt."))
    allowed = dealt_seats(user, game)
    if seat is None:
        seat = next((s for s, own in allowed.items() if own), None)
    if seat is None or not allowed:
        raise NotAllowed(_("Only a player of this game records the cards they were dealt."))
    if seat not in allowed:
        raise NotAllowed(_("You record the cards dealt to your own team's seats only."))
    seat_row = GameSeat.objects.filter(game=game, seat=seat).select_related("player").first()
    if seat_row is None:
        raise ValidationFailed(_("This game has no such seat."), field="seat")
    return _record(game=game, seat=seat_row, number=number, cards=cards)


def _record(*, game: Game, seat: GameSeat, number: int, cards: str) -> DealtHand:
    season = game.match.week.season
    deal = game.deals.filter(number=number, is_current=True, is_rival=False).first()
    if deal is None:
        raise ValidationFailed(
            _("Deal %(n)s is not entered yet: record its cards once it is.") % {"n": number},
            field="number",
        )
    codes = dealt_check(
        cards,
        variant=season.game_variant,
        seat=seat.seat,
        deal_cards=deal.cards,
        starter=deal.starter,
    )
    with transaction.atomic():
        record, _created = DealtHand.objects.update_or_create(
            game=game,
            number=number,
            seat=seat.seat,
            defaults={"player": seat.player, "cards": codes},
        )
    return record


def dealt_check(
    cards: str | Sequence[str],
    *,
    variant: Variant,
    seat: int,
    deal_cards: Mapping[str, Sequence[str]] | None,
    starter: str | None,
) -> list[str]:
    """The cards dealt to ``seat``, as the scorer writes them, checked against what the deal
    shows (its ``cards`` per seat and crib, its ``starter``): the show's cards among them, the
    starter and the other hands' cards not, the cards laid away in the crib's cards where those
    were entered. Raises :class:`ValidationFailed` (field ``cards``) saying which card is wrong.
    The season archive's import asks it too."""
    text = cards if isinstance(cards, str) else " ".join(str(c) for c in cards)
    try:
        dealt = dealt_cards(text, variant=variant)
    except ScoringError as error:
        raise ValidationFailed(scoring_message(error), field="cards") from None
    codes = [str(c) for c in dealt]
    held = set(codes)
    deal_cards = deal_cards or {}
    shown = list(deal_cards.get(str(seat)) or [])
    if any(_code(c) not in held for c in shown):
        raise ValidationFailed(
            _("Your show's cards (%(cards)s) are not all among the cards dealt.")
            % {"cards": " ".join(shown)},
            field="cards",
        )
    others = [c for who, hand in deal_cards.items() if who not in (str(seat), "crib") for c in hand]
    clash = sorted({_code(c) for c in [*others, *([starter] if starter else [])]} & held)
    if clash:
        raise ValidationFailed(
            _("%(cards)s was not dealt to you: the deal shows it elsewhere.")
            % {"cards": " ".join(clash)},
            field="cards",
        )
    crib = {_code(c) for c in deal_cards.get("crib") or []}
    laid = held - {_code(c) for c in shown}
    if crib and len(shown) == len(codes) - len(laid) and shown and not laid <= crib:
        raise ValidationFailed(
            _("The cards you laid away (%(cards)s) are not all in the crib's cards.")
            % {"cards": " ".join(sorted(laid - crib))},
            field="cards",
        )
    return codes


def discards_share_set(*, user: Any, player: Player, share: bool) -> Player:
    """The player's choice: whether their season's cost of discards a deal shows in the league's
    table of the best discarders (``league.selectors.discards.best_discarders``). Audited."""
    if getattr(user, "pk", None) is None or player.user_id != user.pk:
        raise NotAllowed(_("Only the player chooses whether their discards are shared."))
    with transaction.atomic():
        row = Player.objects.select_for_update().get(pk=player.pk)
        if row.shares_discards == share:
            return row
        row.shares_discards = share
        row.save(update_fields=["shares_discards"])
        audit_log(
            actor=user,
            action=AuditAction.DISCARDS_SHARE,
            obj=row,
            before={"shares_discards": not share},
            after={"shares_discards": share},
        )
    return row


def _code(text: str) -> str:
    """A card as the scorer writes it (``10H`` and ``TH`` are one card)."""
    return str(Card.from_str(text))
