"""The money of a night: purses, side pots and the ledger."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Entrant, Tournament


class PayoutMode(models.TextChoices):
    PERCENT = "percent", _("percent of the prize fund")
    AMOUNT = "amount", _("fixed amounts")


class Purse(models.Model):
    """An event's money settings and the state of its books; an event without one keeps no
    money. ``payout_table`` holds a number per paid place (percents or cents, per
    ``payout_mode``); empty, about the top quarter is paid (as many places as the cut)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="purse", verbose_name=_("tournament")
    )
    entry_fee = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    house_percent = models.PositiveSmallIntegerField(
        _("house / club share (% of entry fees)"), default=10
    )
    payout_mode = models.CharField(
        _("payout table in"), max_length=8, choices=PayoutMode.choices, default=PayoutMode.PERCENT
    )
    payout_table = models.JSONField(_("payout table"), default=list, blank=True)
    closed_at = models.DateTimeField(_("night closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("purse")
        verbose_name_plural = _("purses")

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class SidePotKind(models.TextChoices):
    SKUNK = "skunk", _("skunk pot")
    BIG_HAND = "big_hand", _("special-hand pot")


class SidePot(models.Model):
    """A side pot of an event: entrants buy in; its winners share what came in (and what an
    earlier night of the club carried into it)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="side_pots", verbose_name=_("tournament")
    )
    kind = models.CharField(_("pot"), max_length=16, choices=SidePotKind.choices)
    fee = models.PositiveIntegerField(_("entry (cents)"))
    hands = models.JSONField(
        _("hands that win it"), default=list, blank=True
    )  # the special-hand pot's: any of contest.special_hands.KINDS ("24", "28", "29", ...)
    rolls_over = models.BooleanField(
        _("rolls over to the club's next night when unclaimed"), default=False
    )

    class Meta:
        ordering = ["kind"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind"], name="one_side_pot_of_a_kind")
        ]
        verbose_name = _("side pot")
        verbose_name_plural = _("side pots")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.get_kind_display()}"


class LedgerKind(models.TextChoices):
    FEE = "fee", _("entry fee")
    POT_ENTRY = "pot_entry", _("side pot entry")
    PAYOUT = "payout", _("payout")
    POT_PAYOUT = "pot_payout", _("side pot won")
    HOUSE = "house", _("house / club share")
    REFUND = "refund", _("refund")
    POT_CARRIED_IN = "pot_carried_in", _("side pot carried from the club's last night")
    POT_CARRIED_OUT = "pot_carried_out", _("side pot carried to the club's next night")


MONEY_IN = frozenset({LedgerKind.FEE, LedgerKind.POT_ENTRY, LedgerKind.POT_CARRIED_IN})
# What a side pot holds: its entries and what an earlier night carried into it.
POT_IN = frozenset({LedgerKind.POT_ENTRY, LedgerKind.POT_CARRIED_IN})


class LedgerEntry(models.Model):
    """One movement of money at the night: fees and pot entries in; payouts, pots won, the
    house share and refunds out. ``amount`` is positive cents; the kind says which way."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="ledger", verbose_name=_("tournament")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=LedgerKind.choices)
    # RESTRICT, not PROTECT: an entrant with money on the books is not deleted alone, but
    # deleting the whole tournament takes its ledger with it.
    entrant = models.ForeignKey(
        Entrant,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("entrant"),
    )
    pot = models.ForeignKey(
        SidePot,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("side pot"),
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    amount = models.PositiveIntegerField(_("amount (cents)"))
    # A pot carried in: the earlier night's carrying out it takes up (each is taken up once).
    carried_from = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="carried_to",
        verbose_name=_("carried from"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.amount}"

    @property
    def is_in(self) -> bool:
        return self.kind in MONEY_IN

    @property
    def signed(self) -> int:
        """Cents into the books (positive) or out of them (negative)."""
        return self.amount if self.is_in else -self.amount
