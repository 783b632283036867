"""Club pages (a club's seasons, a season's standings across its nights) and the director's
money page for a night (the purse, side pots, the ledger and closing the night). Reads come
from selectors, writes go through services, and ``can()`` decides who sees money."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.ids import number_from
from league.kernel.parsers import cents_from, whole_number
from league.kernel.permissions import Action, can
from tournaments import acc_reports, selectors, services
from tournaments.models import (
    Club,
    ClubSeason,
    Entrant,
    LedgerEntry,
    LedgerKind,
    PayoutMode,
    SidePot,
    SidePotKind,
    Tournament,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    return render(
        request,
        "tournaments/club.html",
        {"club": club, "seasons": club.seasons.order_by("-starts", "name")},
    )


def club_season_page(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(ClubSeason.objects.select_related("club"), pk=pk)
    return render(request, "tournaments/club_season.html", selectors.club_season_standings(season))


# --------------------------------------------------------------------------------------------
# The night's money
# --------------------------------------------------------------------------------------------


def _cents(value: Decimal | None) -> int:
    return 0 if value is None else int((value * 100).to_integral_value())


def _dollars_field(label: StrOrPromise, *, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        min_value=Decimal("0"),
        max_digits=9,
        decimal_places=2,
        required=required,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}),
    )


MAX_PLACES = 64  # far more places than a night pays
_TABLE_WORDS = gettext_lazy("The payout table is numbers separated by commas: 50, 30, 20.")


class PurseForm(forms.Form):
    entry_fee = _dollars_field(gettext_lazy("Entry fee ($)"))
    house_percent = forms.IntegerField(
        label=gettext_lazy("House / club share (% of fees)"), min_value=0, max_value=100
    )
    payout_mode = forms.ChoiceField(
        label=gettext_lazy("Payout table in"), choices=PayoutMode.choices
    )
    payout_table = forms.CharField(
        label=gettext_lazy("Payout table"),
        required=False,
        max_length=1000,
        help_text=gettext_lazy(
            "One number per place, separated by commas: percents (50, 30, 20) or dollars "
            "(100, 60, 40). Empty: about the top quarter is paid."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table: list[int] = []

    def clean(self) -> dict[str, Any]:
        """The payout table, read by the forms' one number parser: whole percents, or dollars
        with at most two decimals; "1e999999", "sNaN" or 5,000 digits are refused in words at
        once (a ``Decimal`` of them held a worker for half a minute)."""
        data = super().clean() or {}
        raw = [p.strip() for p in (data.get("payout_table") or "").split(",") if p.strip()]
        if len(raw) > MAX_PLACES:
            raise forms.ValidationError(
                _("The payout table pays %(n)s places at most.") % {"n": MAX_PLACES}
            )
        try:
            if data.get("payout_mode") == PayoutMode.AMOUNT:
                self.table = [
                    cents_from(p, field="payout_table", message=str(_TABLE_WORDS)) for p in raw
                ]
            else:
                self.table = [
                    whole_number(
                        p,
                        field="payout_table",
                        message=_("Percents in the payout table are whole numbers."),
                        digits=3,
                    )
                    for p in raw
                ]
        except ValidationFailed as exc:
            raise forms.ValidationError(exc.message) from None
        return data


class PotForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Side pot"), choices=SidePotKind.choices)
    fee = _dollars_field(gettext_lazy("Entry ($)"))


class PotEntrantsForm(forms.Form):
    pot = forms.ModelChoiceField(queryset=SidePot.objects.none(), label=gettext_lazy("Side pot"))
    entrants = forms.ModelMultipleChoiceField(
        queryset=Entrant.objects.none(),
        label=gettext_lazy("Entrants"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["pot"].queryset = tournament.side_pots.all()  # type: ignore[attr-defined]
        self.fields["entrants"].queryset = tournament.entrants.order_by("name")  # type: ignore[attr-defined]


class EntryForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[(k.value, k.label) for k in services.MANUAL_KINDS],
    )
    amount = _dollars_field(gettext_lazy("Amount ($)"))
    entrant = forms.ModelChoiceField(
        queryset=Entrant.objects.none(), label=gettext_lazy("Entrant"), required=False
    )
    note = forms.CharField(label=gettext_lazy("Note"), required=False, max_length=200)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = tournament.entrants.order_by("name")  # type: ignore[attr-defined]


def _money_op(request: HttpRequest, tournament: Tournament) -> str | None:
    """Carry out the posted operation through its service; its success message, or None
    when the form was not valid (the errors are then shown as a message)."""
    op = request.POST.get("op", "")
    user = request.user
    if op == "purse":
        form: forms.Form = PurseForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            services.purse_set(
                user=user,
                tournament=tournament,
                entry_fee=_cents(d["entry_fee"]),
                house_percent=d["house_percent"],
                payout_mode=d["payout_mode"],
                payout_table=form.table,  # type: ignore[attr-defined]
            )
            return _("The purse is set.")
    elif op == "pot":
        form = PotForm(request.POST)
        if form.is_valid():
            services.side_pot_set(
                user=user,
                tournament=tournament,
                kind=form.cleaned_data["kind"],
                fee=_cents(form.cleaned_data["fee"]),
            )
            return _("The side pot is open.")
    elif op == "pot_from_cards":
        pot = SidePot.objects.filter(
            tournament=tournament, pk=number_from(request.POST.get("pot")) or 0
        ).first()
        if pot is None:
            return None
        services.side_pot_award_from_cards(user=user, pot=pot)
        return _("The side pot is paid to the hand on the cards.")
    elif op in ("pot_enter", "pot_award"):
        form = PotEntrantsForm(request.POST, tournament=tournament)
        if form.is_valid():
            pot, chosen = form.cleaned_data["pot"], list(form.cleaned_data["entrants"])
            if op == "pot_enter":
                services.side_pot_enter(user=user, pot=pot, entrants=chosen)
                return _("Side pot entries recorded.")
            services.side_pot_award(user=user, pot=pot, winners=chosen)
            return _("The side pot is paid out.")
    elif op == "entry":
        form = EntryForm(request.POST, tournament=tournament)
        if form.is_valid():
            d = form.cleaned_data
            services.ledger_entry_add(
                user=user,
                tournament=tournament,
                kind=d["kind"],
                amount=_cents(d["amount"]),
                entrant=d["entrant"],
                note=d["note"],
            )
            return _("Entry recorded.")
    elif op == "remove":
        entry = get_object_or_404(
            LedgerEntry, pk=number_from(request.POST.get("entry")), tournament=tournament
        )
        services.ledger_entry_remove(user=user, entry=entry)
        return _("Entry removed.")
    elif op == "fees":
        made = services.fees_collect(user=user, tournament=tournament)
        return _("%(count)s entry fee(s) recorded.") % {"count": len(made)}
    elif op == "payouts":
        services.payouts_record(user=user, tournament=tournament)
        return _("Payouts recorded.")
    elif op == "close":
        services.night_close(user=user, tournament=tournament)
        return _("The books balance: the night is closed.")
    else:
        messages.error(request, _("Unknown action."))
        return None
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, str(error))  # an ErrorList yields its messages as text
    return None


@require_http_methods(["GET", "POST"])
def money_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's money page: the purse, side pots, the ledger and its balance."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can(request.user, Action.KEEP_MONEY, tournament):
        return render(
            request,
            "tournaments/money.html",
            {"tournament": tournament, "refused": True},
            status=403,
        )
    if request.method == "POST":
        try:
            done = _money_op(request, tournament)
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            if done:
                messages.success(request, done)
        return redirect("tournaments:money", pk=pk)
    books = selectors.books_for(tournament)
    special = acc_reports.special_hands_of(tournament)
    purse = books.purse
    initial = (
        {
            "entry_fee": Decimal(purse.entry_fee) / 100,
            "house_percent": purse.house_percent,
            "payout_mode": purse.payout_mode,
            "payout_table": ", ".join(
                str(Decimal(v) / 100 if purse.payout_mode == PayoutMode.AMOUNT else v)
                for v in purse.payout_table
            ),
        }
        if purse
        else {"house_percent": 10, "payout_mode": PayoutMode.PERCENT}
    )
    entrants = list(tournament.entrants.order_by("name"))
    return render(
        request,
        "tournaments/money.html",
        {
            "tournament": tournament,
            "books": books,
            "purse_form": PurseForm(initial=initial),
            "pot_form": PotForm(),
            "entrants": entrants,
            "entry_form": EntryForm(tournament=tournament),
            "ins": [e for e in books.entries if e.is_in],
            "outs": [e for e in books.entries if not e.is_in],
            "kinds": LedgerKind,
            "special_hands": special,
        },
    )
