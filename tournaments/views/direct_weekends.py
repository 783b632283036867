"""Weekends of events in the director's workspace (``/direct/weekends/``): make a weekend, add
its main, consolation, satellites and side events (singles or doubles), open each event's
night page. Thin: each press is one service call, a refusal shown in the service's words."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.permissions import Action, can
from tournaments import services
from tournaments.models import EventFamily, Kind, TournamentVariant
from tournaments.views.families import weekend_events

WEEKEND_KINDS = [k for k in Kind if k != Kind.CLUB_NIGHT]


def _date(raw: str, label: str) -> dt.date | None:
    if not raw.strip():
        return None
    try:
        return dt.date.fromisoformat(raw.strip())
    except ValueError:
        raise ValidationFailed(
            _("%(label)s: write the date as YYYY-MM-DD.") % {"label": label}
        ) from None


def _refused(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/direct/refused.html",
        {"message": _("The director's workspace is for a club's directors and league admins.")},
        status=403,
    )


@login_required
@require_http_methods(["GET", "POST"])
def weekends(request: HttpRequest) -> HttpResponse:
    if not can(request.user, Action.RUN_TOURNAMENT):
        return _refused(request)
    if request.method == "POST":
        try:
            family = services.family_create(
                user=request.user,
                name=request.POST.get("name", ""),
                starts=_date(request.POST.get("starts", ""), _("First day")),
                ends=_date(request.POST.get("ends", ""), _("Last day")),
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            return redirect("direct:weekends")
        return redirect("direct:weekend", pk=family.pk)
    return render(
        request,
        "tournaments/direct/weekends.html",
        {"families": EventFamily.objects.order_by("-starts", "name")},
    )


@login_required
@require_http_methods(["GET", "POST"])
def weekend(request: HttpRequest, pk: int) -> HttpResponse:
    if not can(request.user, Action.RUN_TOURNAMENT):
        return _refused(request)
    family = get_object_or_404(EventFamily, pk=pk)
    if request.method == "POST":
        try:
            games = int(request.POST.get("games", "9") or "9")
        except ValueError:
            games = 0
        try:
            event = services.family_event_create(
                user=request.user,
                family=family,
                name=request.POST.get("name", ""),
                kind=request.POST.get("kind", Kind.MAIN),
                variant=(
                    TournamentVariant.PARTNERSHIP
                    if request.POST.get("doubles") == "on"
                    else TournamentVariant.SINGLES
                ),
                games_per_entrant=games,
            )
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s is added.") % {"name": event.name})
        return redirect("direct:weekend", pk=family.pk)
    return render(
        request,
        "tournaments/direct/weekend.html",
        {"family": family, "events": weekend_events(family), "kinds": WEEKEND_KINDS},
    )
