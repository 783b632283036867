"""An event's books: the purse settings, the ledger and where it stands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments import logic
from tournaments.models import (
    POT_IN,
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    Purse,
    SidePot,
    Tournament,
)


@dataclass
class Books:
    """An event's money: its purse settings, the ledger and where it stands."""

    purse: Purse | None
    entries: list[LedgerEntry]
    pots: list[dict[str, Any]]
    money_in: int
    money_out: int
    by_kind: dict[str, int]
    plan: list[dict[str, Any]]  # the payout table as it stands: place, cents

    @property
    def balance(self) -> int:
        """Cents in less cents out: zero when every cent that came in has gone out."""
        return self.money_in - self.money_out

    @property
    def overpaid(self) -> int:
        """Cents more out than in (the page says it in words, not as a negative number)."""
        return -self.balance


def books_for(tournament: Tournament) -> Books:
    """The books of ``tournament``: four queries (the purse, the ledger, side pots, entrants)."""
    purse = Purse.objects.filter(tournament=tournament).first()
    entries = list(
        LedgerEntry.objects.filter(tournament=tournament)
        .select_related("entrant", "pot")
        .order_by("at", "pk")
    )
    by_kind: dict[str, int] = {}
    for e in entries:
        by_kind[e.kind] = by_kind.get(e.kind, 0) + e.amount
    pots = []
    for pot in SidePot.objects.filter(tournament=tournament).order_by("kind"):
        mine = [e for e in entries if e.pot_id == pot.pk]
        pots.append(
            {
                "pot": pot,
                "entrants": [e.entrant for e in mine if e.kind == LedgerKind.POT_ENTRY],
                "in": sum(e.amount for e in mine if e.kind in POT_IN),
                "carried_in": sum(e.amount for e in mine if e.kind == LedgerKind.POT_CARRIED_IN),
                "carried_out": sum(e.amount for e in mine if e.kind == LedgerKind.POT_CARRIED_OUT),
                "winners": [(e.entrant, e.amount) for e in mine if e.kind == LedgerKind.POT_PAYOUT],
                "out": sum(e.amount for e in mine if e.kind == LedgerKind.POT_PAYOUT),
            }
        )
    plan: list[dict[str, Any]] = []
    if purse is not None:
        fees = by_kind.get(LedgerKind.FEE, 0)
        fund = fees - house_share(purse, fees)
        field = tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()
        amounts = logic.payout_amounts(
            fund, mode=purse.payout_mode, table=purse.payout_table or [], entrants=field
        )
        plan = [{"place": i, "amount": a} for i, a in enumerate(amounts, start=1)]
    money_in = sum(e.amount for e in entries if e.is_in)
    return Books(
        purse=purse,
        entries=entries,
        pots=pots,
        money_in=money_in,
        money_out=sum(e.amount for e in entries) - money_in,
        by_kind=by_kind,
        plan=plan,
    )


def house_share(purse: Purse, fees: int) -> int:
    """The house's (club's) cut of ``fees`` cents, rounded down to the cent."""
    return fees * purse.house_percent // 100
