"""The federation's pages: the national and regional tables and a member's career (public),
the statisticians' review, and the director's "send the results up" press. Each press is one
service call; a refusal's sentence is shown as a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation import roles, selectors, services
from federation.models import Region, Submission, season_of
from league.kernel.errors import DomainError
from tournaments.models import Tournament


def _season(request: HttpRequest) -> tuple[int, list[int]]:
    known = selectors.seasons()
    raw = request.GET.get("season", "")
    if raw.isascii() and raw.isdigit() and int(raw) in known:
        return int(raw), known
    return (known[0] if known else season_of(timezone.localdate())), known


PER_PAGE = 100  # a national table has thousands of members: a page of places at a time


def _table_page(
    request: HttpRequest, season: int, known: list[int], rows: list[Any], region: Region | None
) -> HttpResponse:
    raw = request.GET.get("page", "")
    pages = max(1, -(-len(rows) // PER_PAGE))
    number = min(int(raw), pages) if raw.isascii() and raw.isdigit() and int(raw) > 0 else 1
    first = (number - 1) * PER_PAGE
    return render(
        request,
        "federation/table.html",
        {
            "season": season,
            "seasons": known,
            "rows": rows[first : first + PER_PAGE],
            "first": first + 1,
            "last": min(first + PER_PAGE, len(rows)),
            "total": len(rows),
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if number < pages else None,
            "regions": list(Region.objects.all()),
            "region": region,
        },
    )


def national(request: HttpRequest) -> HttpResponse:
    season, known = _season(request)
    return _table_page(request, season, known, selectors.national_table(season), None)


def region(request: HttpRequest, pk: int) -> HttpResponse:
    season, known = _season(request)
    the_region = get_object_or_404(Region, pk=pk)
    rows = selectors.regional_table(the_region, season)
    return _table_page(request, season, known, rows, the_region)


def member(request: HttpRequest, acc_number: str) -> HttpResponse:
    career = selectors.career(acc_number)
    if career is None:
        raise Http404(_("No points are recorded for this ACC number."))
    return render(request, "federation/member.html", {"career": career})


def _statistician_only(request: HttpRequest) -> HttpResponse | None:
    if roles.is_statistician(request.user):
        return None
    return render(
        request,
        "tournaments/direct/refused.html",
        {"message": _("Only the federation's statisticians review results.")},
        status=403,
    )


@login_required
def review_queue(request: HttpRequest) -> HttpResponse:
    refused = _statistician_only(request)
    if refused:
        return refused
    return render(request, "federation/queue.html", {"queue": list(selectors.review_queue())})


@login_required
def review(request: HttpRequest, pk: int) -> HttpResponse:
    refused = _statistician_only(request)
    if refused:
        return refused
    submission = get_object_or_404(Submission.objects.select_related("tournament__club"), pk=pk)
    if request.method == "POST":
        try:
            if request.POST.get("op") == "approve":
                services.results_approve(user=request.user, submission=submission)
                messages.success(request, _("Approved: the points count in the tables."))
            else:
                services.results_return(
                    user=request.user, submission=submission, reason=request.POST.get("reason", "")
                )
                messages.success(request, _("Sent back to the director."))
            return redirect("federation:queue")
        except DomainError as exc:
            messages.error(request, exc.message)
            return redirect("federation:review", pk=pk)
    return render(request, "federation/review.html", {"submission": submission})


@login_required
@require_POST
def send(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    try:
        services.results_send(user=request.user, tournament=event)
        messages.success(request, _("The results are sent up to the statistician."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("direct:night", pk=pk)
