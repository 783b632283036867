"""The special-hand pot won from the cards: the night's special hands (named by ``scoring``
from the cards entered deal by deal) decide who takes it, paid through ``side_pot_award``."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor
from tournaments.acc_reports import special_hands_of
from tournaments.models import LedgerEntry, LedgerKind, SidePot, SidePotKind
from tournaments.services._common import _require
from tournaments.services.money import side_pot_award


def side_pot_award_from_cards(*, user: Actor, pot: SidePot) -> list[LedgerEntry]:
    """Pay ``pot`` to the entrants whose cards hold one of its hands (its settings: a 24, 28,
    29 or four of a kind) and who bought in; several share it. Refused, changing nothing,
    when the cards name nobody who bought in (the director may still award it by hand)."""
    _require(user, Action.KEEP_MONEY, pot.tournament)
    hands = set(pot.hands) if pot.kind == SidePotKind.BIG_HAND else set()
    label = pot.get_kind_display()
    if not hands:
        raise ValidationFailed(
            _("The %(pot)s is not won by a hand: name its winners.") % {"pot": label}
        )
    found = [h for h in special_hands_of(pot.tournament) if hands & set(h["kinds"])]
    if not found:
        raise ValidationFailed(
            _("No card entered tonight holds a hand for the %(pot)s.") % {"pot": label}
        )
    inside = set(pot.entries.filter(kind=LedgerKind.POT_ENTRY).values_list("entrant_id", flat=True))
    winners: list = []
    for h in found:
        if h["entrant"].pk in inside and h["entrant"] not in winners:
            winners.append(h["entrant"])
    if not winners:
        names = ", ".join(sorted({h["entrant"].name for h in found}))
        raise ValidationFailed(
            _("%(names)s held the hand but did not buy into the %(pot)s.")
            % {"names": names, "pot": label}
        )
    return side_pot_award(user=user, pot=pot, winners=winners)


__all__: Sequence[str] = ["side_pot_award_from_cards"]
