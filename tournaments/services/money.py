"""Money: the purse, entry fees, side pots, payouts and the closed books of a night."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest import special_hands
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.permissions import Action, Actor, actor_of
from tournaments import logic
from tournaments.amounts import dollars
from tournaments.models import (
    MONEY_IN,
    POT_IN,
    Entrant,
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    PayoutMode,
    Purse,
    SidePot,
    SidePotKind,
    Tournament,
    TournamentStage,
)
from tournaments.selectors import (
    house_share,
    nights_of,
)
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.notify import notify_night_story

#
# Semantics chosen where the issue is silent:
# - An event keeps money once its purse is set (``purse_set``); every amount is whole cents.
# - The house (club) share is a percent of the entry fees, rounded down to the cent; the rest
#   of the fees is the prize fund, paid by the payout table once the final is decided. Places
#   shared (the two semi-final losers are both 3rd) share those places' amounts.
# - Side pot money stays in its pot: its winners share what its entrants paid in.
# - The ledger balances when every cent in (fees, pot entries) has gone out (payouts, pots
#   won, the house share, refunds); the night closes only then, and once closed its books no
#   longer change.


def _purse(tournament: Tournament) -> Purse:
    purse = Purse.objects.select_for_update().filter(tournament=tournament).first()
    if purse is None:
        raise ValidationFailed(
            _("%(name)s keeps no money: set its entry fee first.") % {"name": tournament.name}
        )
    if purse.is_closed:
        raise Locked(_("The night is closed: its books no longer change."))
    return purse


def _cents(value: Any, *, field: str, allow_zero: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise ValidationFailed(
            _("An amount is a whole number of cents (1250 for $12.50), more than 0.")
            if not allow_zero
            else _("An amount is a whole number of cents (1250 for $12.50), 0 or more."),
            field=field,
        )
    return value


def purse_set(
    *,
    user: Actor,
    tournament: Tournament,
    entry_fee: int,
    house_percent: int = 10,
    payout_mode: str = PayoutMode.PERCENT,
    payout_table: Sequence[int] = (),
) -> Purse:
    """Set (or change) an event's entry fee, house share and payout table. A percent table
    must add up to 100 (empty: the default, about the top quarter)."""
    _require(user, Action.KEEP_MONEY, tournament)
    fee = _cents(entry_fee, field="entry_fee")
    if isinstance(house_percent, bool) or not isinstance(house_percent, int):
        raise ValidationFailed(_("The house share is a whole percent."), field="house_percent")
    if not 0 <= house_percent <= 100:
        raise ValidationFailed(
            _("The house share is a percent from 0 to 100."), field="house_percent"
        )
    if payout_mode not in PayoutMode.values:
        raise ValidationFailed(_("Payouts are in percent or in fixed amounts."))
    table = [_cents(v, field="payout_table") for v in payout_table]
    if payout_mode == PayoutMode.PERCENT and table and sum(table) != 100:
        raise ValidationFailed(
            _("The payout percents add up to %(sum)s%%; they must make 100%%.")
            % {"sum": sum(table)},
            field="payout_table",
        )
    with transaction.atomic():
        _lock(tournament)
        purse = Purse.objects.select_for_update().filter(tournament=tournament).first()
        if purse is not None and purse.is_closed:
            raise Locked(_("The night is closed: its books no longer change."))
        if (
            purse is not None
            and LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.PAYOUT).exists()
        ):
            raise Locked(
                _("Payouts are recorded: remove them before changing the fee or the table.")
            )
        before = (
            None
            if purse is None
            else {
                "entry_fee": purse.entry_fee,
                "house_percent": purse.house_percent,
                "payout_mode": purse.payout_mode,
                "payout_table": purse.payout_table,
            }
        )
        purse = purse or Purse(tournament=tournament)
        purse.entry_fee = fee
        purse.house_percent = house_percent
        purse.payout_mode = payout_mode
        purse.payout_table = table
        purse.save()
        audit_log(
            actor=user,
            action=AuditAction.PURSE_SET,
            obj=tournament,
            before=before,
            after={
                "entry_fee": fee,
                "house_percent": house_percent,
                "payout_mode": payout_mode,
                "payout_table": table,
            },
        )
    return purse


def side_pot_set(
    *,
    user: Actor,
    tournament: Tournament,
    kind: str,
    fee: int,
    hands: Sequence[str] | None = None,
    rolls_over: bool | None = None,
) -> SidePot:
    """Open a side pot (skunk, special hand) at ``fee`` cents a head, or change its entry
    before anyone has bought in. A special-hand pot is won by ``hands`` (any of "24", "28",
    "29", "four_of_a_kind"; a 28 or a 29 unless named) and, with ``rolls_over``, an unclaimed
    one goes to the club's next night when this one closes. At a club's night, what the club's
    last night carried over goes into the pot as it opens."""
    _require(user, Action.KEEP_MONEY, tournament)
    if kind not in SidePotKind.values:
        raise ValidationFailed(_("Unknown side pot: %(kind)s.") % {"kind": kind}, field="kind")
    fee = _cents(fee, field="fee", allow_zero=False)
    wanted = pot_hands_check(kind, hands)
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        pot = SidePot.objects.filter(tournament=tournament, kind=kind).first()
        if pot is not None and pot.fee != fee and pot.entries.exists():
            raise Locked(
                _("Entrants have bought into the %(pot)s: its entry no longer changes.")
                % {"pot": pot.get_kind_display()}
            )
        if pot is None:
            pot = SidePot.objects.create(
                tournament=tournament,
                kind=kind,
                fee=fee,
                hands=list(BIG_HAND_DEFAULT if wanted is None else wanted),
                rolls_over=bool(rolls_over),
            )
        else:
            pot.fee = fee
            if wanted is not None:
                pot.hands = list(wanted)
            if rolls_over is not None:
                pot.rolls_over = rolls_over
            pot.save(update_fields=["fee", "hands", "rolls_over"])
        carried = _carry_in(user, tournament, pot)
        audit_log(
            actor=user,
            action=AuditAction.SIDE_POT_SET,
            obj=tournament,
            after={kind: fee, "hands": pot.hands, "rolls_over": pot.rolls_over, "carried": carried},
        )
    return pot


# A special-hand pot opened without naming its hands is won by a 28 or a 29.
BIG_HAND_DEFAULT = ("28", "29")


def pot_hands_check(kind: str, hands: Sequence[str] | None) -> tuple[str, ...] | None:
    """``hands`` as a pot of ``kind`` may be won by them, in ``KINDS`` order (None: not
    named); refused, naming them, for hands that are not special or a skunk pot with hands."""
    if hands is None:
        return () if kind != SidePotKind.BIG_HAND else None
    unknown = sorted(set(hands) - set(special_hands.KINDS))
    if unknown:
        raise ValidationFailed(
            _("Not a special hand: %(hands)s.") % {"hands": ", ".join(unknown)}, field="hands"
        )
    if kind != SidePotKind.BIG_HAND and hands:
        raise ValidationFailed(_("Only the special-hand pot is won by hands."), field="hands")
    if kind == SidePotKind.BIG_HAND and not hands:
        raise ValidationFailed(_("Tick the hands that win the pot."), field="hands")
    return tuple(k for k in special_hands.KINDS if k in hands)


def _pot_total(pot: SidePot) -> int:
    """What ``pot`` holds: its entries and what was carried into it."""
    return sum(pot.entries.filter(kind__in=POT_IN).values_list("amount", flat=True))


def _carry_in(user: Actor, tournament: Tournament, pot: SidePot) -> int:
    """Put into ``pot`` what the club's earlier nights carried out of their pot of its kind
    and no night has taken up yet; returns the cents carried in."""
    if tournament.club_id is None:
        return 0
    waiting = (
        LedgerEntry.objects.filter(
            kind=LedgerKind.POT_CARRIED_OUT,
            tournament__club_id=tournament.club_id,
            pot__kind=pot.kind,
            carried_to__isnull=True,
        )
        .exclude(tournament=tournament)
        .order_by("at", "pk")
    )
    total = 0
    for out in waiting:
        _entry(
            user=user,
            tournament=tournament,
            kind=LedgerKind.POT_CARRIED_IN,
            amount=out.amount,
            pot=pot,
            note=str(out.tournament),
            carried_from=out,
        )
        total += out.amount
    return total


def _entry(
    *,
    user: Actor,
    tournament: Tournament,
    kind: str,
    amount: int,
    entrant: Entrant | None = None,
    pot: SidePot | None = None,
    place: int | None = None,
    note: str = "",
    carried_from: LedgerEntry | None = None,
) -> LedgerEntry:
    return LedgerEntry.objects.create(
        tournament=tournament,
        kind=kind,
        amount=amount,
        carried_from=carried_from,
        entrant=entrant,
        pot=pot,
        place=place,
        note=note,
        entered_by=actor_of(user),
    )


def _own_entrant(tournament: Tournament, entrant: Entrant | None) -> None:
    if entrant is not None and entrant.tournament_id != tournament.pk:
        raise ValidationFailed(
            _("%(name)s is not an entrant of %(event)s.")
            % {"name": entrant.name, "event": tournament.name},
            field="entrant",
        )


def fees_collect(
    *, user: Actor, tournament: Tournament, entrants: Sequence[Entrant] | None = None
) -> list[LedgerEntry]:
    """Record the entry fee of ``entrants`` (default: every entrant not withdrawn) who have
    not paid it yet; twice is harmless."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if purse.entry_fee == 0:
            raise ValidationFailed(_("The entry fee is 0: there is nothing to collect."))
        if entrants is None:
            wanted = list(tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN))
        else:
            wanted = list(entrants)
            for e in wanted:
                _own_entrant(tournament, e)
        paid = set(
            LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.FEE).values_list(
                "entrant_id", flat=True
            )
        )
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.FEE,
                amount=purse.entry_fee,
                entrant=e,
            )
            for e in wanted
            if e.pk not in paid
        ]
        audit_log(
            actor=user,
            action=AuditAction.FEES_COLLECT,
            obj=tournament,
            after={"fees": len(made), "each": purse.entry_fee},
        )
    return made


def side_pot_enter(*, user: Actor, pot: SidePot, entrants: Sequence[Entrant]) -> list[LedgerEntry]:
    """Record ``entrants`` buying into ``pot`` (those already in are left as they are)."""
    tournament = pot.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        for e in entrants:
            _own_entrant(tournament, e)
        if pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists():
            raise Locked(
                _("The %(pot)s has been won: nobody else can buy in.")
                % {"pot": pot.get_kind_display()}
            )
        inside = set(
            pot.entries.filter(kind=LedgerKind.POT_ENTRY).values_list("entrant_id", flat=True)
        )
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.POT_ENTRY,
                amount=pot.fee,
                entrant=e,
                pot=pot,
            )
            for e in entrants
            if e.pk not in inside
        ]
        audit_log(
            actor=user,
            action=AuditAction.SIDE_POT_ENTER,
            obj=tournament,
            after={"pot": pot.kind, "entrants": [e.name for e in entrants]},
        )
    return made


def side_pot_award(*, user: Actor, pot: SidePot, winners: Sequence[Entrant]) -> list[LedgerEntry]:
    """Pay ``pot`` to its ``winners`` (who must have bought in): they share what came in
    (with what an earlier night carried into it), the odd cents to the first named."""
    tournament = pot.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    label = pot.get_kind_display()
    if not winners:
        raise ValidationFailed(_("Name who won the %(pot)s.") % {"pot": label}, field="winners")
    if len({w.pk for w in winners}) != len(winners):
        raise ValidationFailed(_("A winner is named twice."), field="winners")
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        if pot.entries.filter(kind=LedgerKind.POT_PAYOUT).exists():
            raise Locked(_("The %(pot)s has already been paid out.") % {"pot": label})
        entries = list(pot.entries.filter(kind=LedgerKind.POT_ENTRY))
        inside = {e.entrant_id for e in entries}
        for w in winners:
            if w.pk not in inside:
                raise ValidationFailed(
                    _("%(name)s did not buy into the %(pot)s, so cannot win it.")
                    % {"name": w.name, "pot": label},
                    field="winners",
                )
        total = _pot_total(pot)
        made = [
            _entry(
                user=user,
                tournament=tournament,
                kind=LedgerKind.POT_PAYOUT,
                amount=share,
                entrant=w,
                pot=pot,
            )
            for w, share in zip(winners, logic.split_cents(total, len(winners)), strict=True)
            if share > 0
        ]
        audit_log(
            actor=user,
            action=AuditAction.SIDE_POT_AWARD,
            obj=tournament,
            after={"pot": pot.kind, "winners": [w.name for w in winners], "total": total},
        )
    return made


def payouts_record(*, user: Actor, tournament: Tournament) -> list[LedgerEntry]:
    """Once the final is decided: the house share of the fees, then the prize fund paid by
    the payout table to the final places (shared places share their amounts)."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if tournament.stage != TournamentStage.FINISHED:
            raise Locked(_("Payouts are made once the final is decided."))
        ledger = LedgerEntry.objects.filter(tournament=tournament)
        if ledger.filter(kind__in=[LedgerKind.PAYOUT, LedgerKind.HOUSE]).exists():
            raise Locked(_("The payouts are already recorded."))
        fees = sum(ledger.filter(kind=LedgerKind.FEE).values_list("amount", flat=True))
        if fees == 0:
            raise ValidationFailed(_("No entry fee has been collected: there is nothing to pay."))
        house = house_share(purse, fees)
        fund = fees - house
        night = nights_of([tournament])[0]
        assert night.places is not None  # the final is decided
        field = tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()
        amounts = logic.payout_amounts(
            fund, mode=purse.payout_mode, table=purse.payout_table or [], entrants=field
        )
        if sum(amounts) > fund:
            raise ValidationFailed(
                _(
                    "The payout table pays %(table)s but the prize fund is %(fund)s: "
                    "lower the amounts or the house share."
                )
                % {"table": dollars(sum(amounts)), "fund": dollars(fund)},
                field="payout_table",
            )
        by_name = {e.name: e for e in tournament.entrants.all()}
        made = []
        if house:
            made.append(
                _entry(user=user, tournament=tournament, kind=LedgerKind.HOUSE, amount=house)
            )
        shares = logic.payouts_by_entrant(night.places, amounts)
        for name in sorted(shares, key=lambda n: (night.places[n], n)):  # type: ignore[index]
            made.append(
                _entry(
                    user=user,
                    tournament=tournament,
                    kind=LedgerKind.PAYOUT,
                    amount=shares[name],
                    entrant=by_name[name],
                    place=night.places[name],
                )
            )
        audit_log(
            actor=user,
            action=AuditAction.PAYOUTS_RECORD,
            obj=tournament,
            after={"house": house, "payouts": shares},
        )
    return made


MANUAL_KINDS = (LedgerKind.FEE, LedgerKind.PAYOUT, LedgerKind.HOUSE, LedgerKind.REFUND)


def ledger_entry_add(
    *,
    user: Actor,
    tournament: Tournament,
    kind: str,
    amount: int,
    entrant: Entrant | None = None,
    note: str = "",
) -> LedgerEntry:
    """A movement of money the director records by hand: a fee paid at the door, a payout in
    cash, the house's share, a refund. Side pots go through their own services."""
    _require(user, Action.KEEP_MONEY, tournament)
    if kind not in MANUAL_KINDS:
        raise ValidationFailed(
            _("Record side pot money through its pot, not by hand."), field="kind"
        )
    amount = _cents(amount, field="amount", allow_zero=False)
    _own_entrant(tournament, entrant)
    with transaction.atomic():
        tournament = _lock(tournament)
        _purse(tournament)
        entry = _entry(
            user=user,
            tournament=tournament,
            kind=kind,
            amount=amount,
            entrant=entrant,
            note=note.strip()[:200],
        )
        audit_log(
            actor=user,
            action=AuditAction.LEDGER_ENTRY_ADD,
            obj=tournament,
            after={"kind": kind, "amount": amount, "entrant": entrant.name if entrant else ""},
        )
    return entry


def ledger_entry_remove(*, user: Actor, entry: LedgerEntry) -> None:
    """Take back a ledger entry made in error (before the night is closed)."""
    tournament = entry.tournament
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        _lock(tournament)
        _purse(tournament)
        row = LedgerEntry.objects.filter(pk=entry.pk).first()
        if row is None:
            return
        before = {"kind": row.kind, "amount": row.amount, "entrant": str(row.entrant or "")}
        row.delete()
        audit_log(actor=user, action=AuditAction.LEDGER_ENTRY_REMOVE, obj=tournament, before=before)


def _carry_out(user: Actor, tournament: Tournament) -> dict[str, int]:
    """The night's unclaimed pots that roll over, carried out of its books (and into the
    club's next night's pot of their kind, if it is already open): cents by pot kind."""
    carried: dict[str, int] = {}
    if tournament.club_id is None:
        return carried
    for pot in SidePot.objects.filter(tournament=tournament, rolls_over=True):
        if pot.entries.filter(
            kind__in=(LedgerKind.POT_PAYOUT, LedgerKind.POT_CARRIED_OUT)
        ).exists():
            continue
        total = _pot_total(pot)
        if not total:
            continue
        _entry(
            user=user,
            tournament=tournament,
            kind=LedgerKind.POT_CARRIED_OUT,
            amount=total,
            pot=pot,
            note=_("unclaimed: rolls over to the club's next night"),
        )
        carried[pot.kind] = total
        later = (
            SidePot.objects.filter(
                kind=pot.kind,
                tournament__club_id=tournament.club_id,
                tournament__purse__closed_at__isnull=True,
            )
            .exclude(tournament=tournament)
            .exclude(entries__kind=LedgerKind.POT_PAYOUT)
            .select_related("tournament")
            .order_by("tournament__date", "tournament_id")
            .first()
        )
        if later is not None:
            _carry_in(user, later.tournament, later)
    return carried


def night_close(*, user: Actor, tournament: Tournament) -> Purse:
    """Close the night's books: refused unless the final is decided and the ledger balances
    to the cent, with the difference named. An unclaimed pot that rolls over is carried out
    of the books first, to the club's next night. Where the club sends its nights' story,
    its members are told it after commit (``notify_night_story``), once."""
    _require(user, Action.KEEP_MONEY, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        purse = _purse(tournament)
        if tournament.stage != TournamentStage.FINISHED:
            raise Locked(_("The night closes once the final is decided."))
        carried = _carry_out(user, tournament)
        money_in = money_out = 0
        for kind, amount in LedgerEntry.objects.filter(tournament=tournament).values_list(
            "kind", "amount"
        ):
            if kind in MONEY_IN:
                money_in += amount
            else:
                money_out += amount
        difference = money_in - money_out
        if difference > 0:
            raise ValidationFailed(
                _(
                    "The books do not balance: %(diff)s more came in (%(in)s) than went out "
                    "(%(out)s). Record where it went before closing the night."
                )
                % {"diff": dollars(difference), "in": dollars(money_in), "out": dollars(money_out)}
            )
        if difference < 0:
            raise ValidationFailed(
                _(
                    "The books do not balance: %(diff)s more went out (%(out)s) than came in "
                    "(%(in)s). Find the missing money before closing the night."
                )
                % {"diff": dollars(-difference), "in": dollars(money_in), "out": dollars(money_out)}
            )
        purse.closed_at = timezone.now()
        purse.closed_by = actor_of(user)
        purse.save(update_fields=["closed_at", "closed_by"])
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_CLOSE,
            obj=tournament,
            after={"in": money_in, "out": money_out, "carried": carried},
        )
        notify_night_story(tournament)  # after commit, where the club sends it
    _changed(tournament.pk)
    return purse
