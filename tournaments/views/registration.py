"""Registration's pages: the event's public page (with its form, for a phone), its QR code and
printable flyer, the player's own page (their place, withdraw), and the director's list where
registrations are answered in bulk, players paired, fees marked paid and players checked in.
Thin views: each press is one service call; a refusal is shown as the service words it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.ids import number_from
from league.kernel.parsers import cents_from
from tournaments.models import (
    MemberStatus,
    Purse,
    Registration,
    RegistrationDesk,
    RegistrationStatus,
    Tournament,
)
from tournaments.qr import KINDS, qr_file, qr_inline
from tournaments.selectors import registration as registrations
from tournaments.services import registration as desk_services


class RegisterForm(forms.Form):
    """What a player types on a phone; the service checks it (the same checks at every door)."""

    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.CharField(
        label=gettext_lazy("E-mail"),
        max_length=254,
        help_text=gettext_lazy("Your confirmation goes there, with the link to withdraw."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    member_status = forms.ChoiceField(
        label=gettext_lazy("You are"),
        choices=MemberStatus.choices,
        initial=MemberStatus.MEMBER,
        widget=forms.RadioSelect,
    )
    acc_number = forms.CharField(
        label=gettext_lazy("ACC number"),
        required=False,
        max_length=40,
        help_text=gettext_lazy("On your ACC card; a guest may leave it empty."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    partner = forms.CharField(
        label=gettext_lazy("Your partner's name"), required=False, max_length=200
    )
    partner_wanted = forms.BooleanField(
        label=gettext_lazy("Partner wanted: the director pairs me with another player"),
        required=False,
    )

    def __init__(self, *args: Any, doubles: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not doubles:
            del self.fields["partner"]
            del self.fields["partner_wanted"]


def _event(pk: int) -> tuple[Tournament, RegistrationDesk]:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    desk = registrations.desk_of(tournament)
    if desk is None:
        raise Http404
    return tournament, desk


def _fee(tournament: Tournament) -> int:
    purse = Purse.objects.filter(tournament=tournament).first()
    return purse.entry_fee if purse is not None else 0


def _event_context(tournament: Tournament, desk: RegistrationDesk) -> dict[str, Any]:
    taken = registrations.places_taken(tournament)
    return {
        "tournament": tournament,
        "desk": desk,
        "fee": _fee(tournament),
        "taken": taken,
        "left": max(desk.capacity - taken, 0) if desk.capacity else None,
        "waiting": len(registrations.waiting_list(tournament)),
        "registering": desk.is_open and tournament.stage == "registration",
    }


@require_http_methods(["GET", "POST"])
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's public page: what, when, where, the fee, places taken and the waiting list,
    and the form to register from a phone."""
    tournament, desk = _event(pk)
    form = RegisterForm(
        request.POST if request.method == "POST" else None, doubles=tournament.is_partnership
    )
    if request.method == "POST" and form.is_valid():
        try:
            registration = desk_services.registration_add(
                user=request.user, tournament=tournament, **form.cleaned_data
            )
        except ValidationFailed as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("You are registered. Keep this page's address."))
            return redirect("registration:page", token=registration.token)
    context = _event_context(tournament, desk) | {"form": form}
    return render(request, "tournaments/registration/event.html", context)


def _event_url(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("registration:event", args=[tournament.pk]))


def event_qr(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The event page's address as a QR code: ``svg`` (sharp at any size) or ``png``."""
    if kind not in KINDS:
        raise Http404
    tournament, _desk = _event(pk)
    content = qr_file(_event_url(request, tournament), kind, title=tournament.name)
    response = HttpResponse(content, content_type=KINDS[kind])
    response["Content-Disposition"] = f'inline; filename="event-{tournament.pk}.{kind}"'
    return response


def flyer(request: HttpRequest, pk: int) -> HttpResponse:
    """A page to print and pin up: the event, and a QR code a phone opens to register."""
    tournament, desk = _event(pk)
    url = _event_url(request, tournament)
    svg = mark_safe(qr_inline(url, title=tournament.name))  # segno's SVG of our own address
    context = _event_context(tournament, desk) | {"url": url, "qr": svg}
    return render(request, "tournaments/registration/flyer.html", context)


@require_http_methods(["GET", "POST"])
def registration_page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's own page (the link in their confirmation): where they stand, what they owe,
    and the button to withdraw."""
    registration = get_object_or_404(
        Registration.objects.select_related("tournament", "entrant"), token=token
    )
    if request.method == "POST":
        try:
            desk_services.registration_withdraw(
                user=request.user, registration=registration, by_player=True
            )
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("You have withdrawn. Thank you for telling us."))
        return redirect("registration:page", token=token)
    ahead = None
    if registration.status == RegistrationStatus.WAITLISTED:
        ahead = [r.pk for r in registrations.waiting_list(registration.tournament)].index(
            registration.pk
        )
    paid = registration.entrant_id is not None and registration.entrant_id not in {
        r.entrant_id for r in registrations.fees_owed(registration.tournament)
    }
    context = {
        "registration": registration,
        "tournament": registration.tournament,
        "position": None if ahead is None else ahead + 1,
        "paid": paid and registration.fee_owed > 0,
        "active": registration.is_active,
    }
    response = render(request, "tournaments/registration/player.html", context)
    patch_cache_control(response, private=True, no_store=True)  # its address is its key
    return response


# --- The director's list ------------------------------------------------------------------------


def _ticked(request: HttpRequest) -> list[int]:
    out = []
    for raw in request.POST.getlist("registrations"):
        number = number_from(raw)
        if number is None:
            raise ValidationFailed(_("The players ticked are not ones of this list."))
        out.append(number)
    return out


def _one(request: HttpRequest, tournament: Tournament, field: str) -> Registration:
    number = number_from(request.POST.get(field))
    found = (
        Registration.objects.filter(tournament=tournament, pk=number).first()
        if number is not None
        else None
    )
    if found is None:
        raise ValidationFailed(_("Pick a player of this list."))
    return found


def _op_desk(request: HttpRequest, tournament: Tournament) -> str:
    post = request.POST
    desk_services.desk_set(
        user=request.user,
        tournament=tournament,
        changes={
            "is_open": post.get("is_open") == "on",
            "needs_approval": post.get("needs_approval") == "on",
            "capacity": post.get("capacity", ""),
            "venue": post.get("venue", ""),
            "details": post.get("details", ""),
            "entry_fee": cents_from(
                post.get("entry_fee") or "",
                field="entry_fee",
                message=_("The entry fee is an amount in dollars, like 10 or 12.50."),
                blank=0,
            ),
        },
    )
    return _("Registration saved.")


def _op_accept(request: HttpRequest, tournament: Tournament) -> str:
    rows = desk_services.registrations_decide(
        user=request.user, tournament=tournament, registrations=_ticked(request), accept=True
    )
    placed = sum(r.status == RegistrationStatus.ACCEPTED for r in rows)
    return _("Accepted %(n)s: %(placed)s with a place, %(waiting)s on the waiting list.") % {
        "n": len(rows),
        "placed": placed,
        "waiting": len(rows) - placed,
    }


def _op_refuse(request: HttpRequest, tournament: Tournament) -> str:
    rows = desk_services.registrations_decide(
        user=request.user, tournament=tournament, registrations=_ticked(request), accept=False
    )
    return _("Refused %(n)s; they are told.") % {"n": len(rows)}


def _op_paid(request: HttpRequest, tournament: Tournament) -> str:
    made = desk_services.registrations_paid(
        user=request.user, tournament=tournament, registrations=_ticked(request)
    )
    return _("%(n)s entry fees recorded as paid.") % {"n": len(made)}


def _op_check_in(request: HttpRequest, tournament: Tournament) -> str:
    done = desk_services.registrations_check_in(
        user=request.user, tournament=tournament, registrations=_ticked(request)
    )
    return _("%(n)s checked in.") % {"n": len(done)}


def _op_withdraw(request: HttpRequest, tournament: Tournament) -> str:
    row = desk_services.registration_withdraw(
        user=request.user, registration=_one(request, tournament, "withdraw")
    )
    return _("%(name)s withdrawn.") % {"name": row.name}


def _op_pair(request: HttpRequest, tournament: Tournament) -> str:
    entry = desk_services.registrations_pair(
        user=request.user,
        tournament=tournament,
        first=_one(request, tournament, "first"),
        second=_one(request, tournament, "second"),
    )
    return _("%(a)s and %(b)s play together.") % {"a": entry.name, "b": entry.partner}


OPS = {
    "desk": _op_desk,
    "accept": _op_accept,
    "refuse": _op_refuse,
    "paid": _op_paid,
    "check_in": _op_check_in,
    "withdraw": _op_withdraw,
    "pair": _op_pair,
}


@require_http_methods(["GET", "POST"])
def director_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's registration list: settings, answers in bulk, partners, fees, check-in."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not desk_services.runs(request.user, tournament):
        return render(
            request,
            "tournaments/direct/refused.html",
            {"message": _("Only the event's directors and league admins run its registration.")},
            status=403,
        )
    if request.method == "POST":
        op = OPS.get(
            request.POST.get("op", "") or ("withdraw" if "withdraw" in request.POST else "")
        )
        if op is None:
            messages.error(request, _("Unknown action."))
        else:
            try:
                messages.success(request, op(request, tournament))
            except DomainError as exc:
                messages.error(request, exc.message)
        return redirect("registration:direct", pk=pk)
    desk = registrations.desk_of(tournament)
    rows = list(
        Registration.objects.filter(tournament=tournament).select_related("entrant", "paired_with")
    )
    owed = registrations.fees_owed(tournament)
    owed_ids = {r.pk for r in owed}
    by_status: dict[str, list[Registration]] = {}
    for row in rows:
        row.owes = row.pk in owed_ids  # type: ignore[attr-defined]
        by_status.setdefault(row.status, []).append(row)
    context = {
        "tournament": tournament,
        "desk": desk,
        "fee": _fee(tournament),
        "fee_plain": f"{_fee(tournament) // 100}.{_fee(tournament) % 100:02d}",
        "pending": by_status.get(RegistrationStatus.PENDING, []),
        "accepted": by_status.get(RegistrationStatus.ACCEPTED, []),
        "waiting": registrations.waiting_list(tournament),
        "paired": by_status.get(RegistrationStatus.PAIRED, []),
        "done": by_status.get(RegistrationStatus.REFUSED, [])
        + by_status.get(RegistrationStatus.WITHDRAWN, []),
        "wanting": [
            r
            for r in rows
            if r.partner_wanted
            and r.status
            in (
                RegistrationStatus.PENDING,
                RegistrationStatus.ACCEPTED,
                RegistrationStatus.WAITLISTED,
            )
        ],
        "owed": owed,
        "owed_total": sum(r.fee_owed for r in owed),
        "taken": registrations.places_taken(tournament),
    }
    return render(request, "tournaments/registration/direct.html", context)
