"""The money, seen and kept by directors and league admins only (``Action.KEEP_MONEY``): purses
with their ledger (collect fees, pay out, close the night), side pots and ledger entries by
hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.kernel.admin import run_action
from league.kernel.errors import DomainError
from league.kernel.permissions import Action, can
from tournaments import selectors, services
from tournaments.admin.base import ActionPermissions
from tournaments.amounts import dollars
from tournaments.checks import nights_kept_by
from tournaments.models import (
    LedgerEntry,
    Purse,
    SidePot,
    Tournament,
)


class _MoneyOnly(admin.ModelAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        """A director's lists hold the money of their clubs' nights (and of nights of no
        club) only: another club's fees and payouts are not theirs to read."""
        rows = super().get_queryset(request)
        kept = nights_kept_by(request.user)
        if kept is None:
            return rows
        return rows.filter(tournament__in=Tournament.objects.filter(kept))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can(request.user, Action.KEEP_MONEY)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can(request.user, Action.KEEP_MONEY)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Purse)
class PurseAdmin(ActionPermissions, _MoneyOnly):
    """An event's purse (entry fee, house share, payout table) with its ledger below; the
    actions collect the fees, record the payouts and close the night (refused, with the
    difference named, unless the books balance)."""

    list_display = ("tournament", "entry_fee", "house_percent", "payout_mode", "books")
    fields = ("tournament", "entry_fee", "house_percent", "payout_mode", "payout_table", "books")
    actions = ["collect_fees", "record_payouts", "close_night"]

    def has_change_permission(self, request: HttpRequest, obj: Purse | None = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None)) and not (
            obj is not None and obj.is_closed
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Purse | None = None
    ) -> tuple[str, ...]:
        return ("tournament", "books") if obj is not None else ("books",)

    @admin.display(description=gettext_lazy("books"))
    def books(self, obj: Purse) -> str:
        """In, out and the balance, with a link to the ledger and to the money page."""
        if obj.pk is None:
            return "—"
        books = selectors.books_for(obj.tournament)
        state = (
            _("closed %(at)s") % {"at": formats.date_format(obj.closed_at, "SHORT_DATETIME_FORMAT")}
            if obj.closed_at
            else _("balance %(amount)s") % {"amount": dollars(books.balance)}
        )
        return format_html(
            '{} · {} · {} · <a href="{}?tournament__id__exact={}">{}</a> · <a href="{}">{}</a>',
            _("in %(amount)s") % {"amount": dollars(books.money_in)},
            _("out %(amount)s") % {"amount": dollars(books.money_out)},
            state,
            reverse("admin:tournaments_ledgerentry_changelist"),
            obj.tournament_id,
            _("ledger"),
            reverse("tournaments:money", args=[obj.tournament_id]),
            _("money page"),
        )

    def save_model(
        self, request: HttpRequest, obj: Purse, form: forms.ModelForm, change: bool
    ) -> None:
        data = form.cleaned_data
        tournament = obj.tournament if change else data["tournament"]
        try:
            purse = services.purse_set(
                user=request.user,
                tournament=tournament,
                entry_fee=data["entry_fee"],
                house_percent=data["house_percent"],
                payout_mode=data["payout_mode"],
                payout_table=data.get("payout_table") or [],
            )
            obj.pk = purse.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def _each_night(
        self,
        request: HttpRequest,
        queryset: QuerySet[Purse],
        service: Callable[..., object],
        done: str,
    ) -> None:
        """Run ``service`` on each selected purse's night, each in its own try (one night's
        refusal is shown and the others still run), ``done`` naming the night when it worked."""
        run_action(
            self,
            request,
            queryset.select_related("tournament"),
            lambda p: service(user=request.user, tournament=p.tournament),
            done=done,
            name=lambda p: p.tournament.name,
        )

    @admin.action(description=gettext_lazy("Collect the entry fees"), permissions=["keep_money"])
    def collect_fees(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.fees_collect, _("%(name)s: entry fees recorded.")
        )

    @admin.action(
        description=gettext_lazy("Record the payouts by the table"), permissions=["keep_money"]
    )
    def record_payouts(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.payouts_record, _("%(name)s: payouts recorded.")
        )

    @admin.action(
        description=gettext_lazy("Close the night (the books must balance)"),
        permissions=["keep_money"],
    )
    def close_night(self, request: HttpRequest, queryset: QuerySet[Purse]) -> None:
        self._each_night(
            request, queryset, services.night_close, _("%(name)s: the night is closed.")
        )


@admin.register(SidePot)
class SidePotAdmin(_MoneyOnly):
    list_display = ("tournament", "kind", "fee", "hands", "rolls_over")
    fields = ("tournament", "kind", "fee", "hands", "rolls_over")

    def save_model(
        self, request: HttpRequest, obj: SidePot, form: forms.ModelForm, change: bool
    ) -> None:
        data = form.cleaned_data
        try:
            pot = services.side_pot_set(
                user=request.user,
                tournament=data["tournament"],
                kind=data["kind"],
                fee=data["fee"],
                hands=data.get("hands") or None,
                rolls_over=data.get("rolls_over"),
            )
            obj.pk = pot.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)


class LedgerEntryForm(forms.ModelForm):
    kind = forms.ChoiceField(
        label=gettext_lazy("kind"), choices=[(k.value, k.label) for k in services.MANUAL_KINDS]
    )

    class Meta:
        model = LedgerEntry
        fields = ["tournament", "kind", "entrant", "amount", "note"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(_MoneyOnly):
    """The ledger of every event; a director records a movement by hand here (a fee at the
    door, a cash payout, the house share, a refund) or removes one made in error."""

    list_display = ("tournament", "kind", "entrant", "pot", "place", "amount", "note", "at")
    list_filter = ("tournament", "kind")
    form = LedgerEntryForm

    def has_delete_permission(self, request: HttpRequest, obj: LedgerEntry | None = None) -> bool:
        return can(request.user, Action.KEEP_MONEY, getattr(obj, "tournament", None))

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # one entry at a time, through the service
        return actions

    def save_model(
        self, request: HttpRequest, obj: LedgerEntry, form: LedgerEntryForm, change: bool
    ) -> None:
        data = form.cleaned_data
        try:
            entry = services.ledger_entry_add(
                user=request.user,
                tournament=data["tournament"],
                kind=data["kind"],
                amount=data["amount"],
                entrant=data.get("entrant"),
                note=data.get("note") or "",
            )
            obj.pk = entry.pk
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def delete_model(self, request: HttpRequest, obj: LedgerEntry) -> None:
        try:
            services.ledger_entry_remove(user=request.user, entry=obj)
        except DomainError as exc:
            self.message_user(request, exc.message, messages.ERROR)
