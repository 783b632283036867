"""The federation's pages: the national and regional tables and a member's career (public),
the statisticians' review, and the director's "send the results up" press. Each press is one
service call; a refusal's sentence is shown as a message."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation import roles, selectors, services
from federation.models import PayoutStyle, Region, Submission, season_of
from league.kernel.errors import DomainError, ValidationFailed
from tournaments.models import Club, Tournament


def _season(request: HttpRequest) -> tuple[int, list[int]]:
    known = selectors.seasons()
    raw = request.GET.get("season", "")
    if raw.isascii() and raw.isdigit() and int(raw) in known:
        return int(raw), known
    return (known[0] if known else season_of(timezone.localdate())), known


PER_PAGE = 100  # a national table has thousands of members: a page of places at a time


def _table_page(
    request: HttpRequest,
    season: int,
    known: list[int],
    region: Region | None,
    grass_roots: bool = False,
) -> HttpResponse:
    raw = request.GET.get("page", "")
    asked = int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) < 100_000 else 1
    field = "gr_points" if grass_roots else "points"
    page = selectors.table_page(season, region, field, number=asked, per_page=PER_PAGE)
    return render(
        request,
        "federation/table.html",
        {
            "season": season,
            "seasons": known,
            "rows": page.rows,
            "first": page.first,
            "last": page.first + len(page.rows) - 1,
            "total": page.total,
            "previous": page.number - 1 if page.number > 1 else None,
            "next": page.number + 1 if page.number < page.pages else None,
            "regions": list(Region.objects.all()),
            "region": region,
            "grass_roots": grass_roots,
            # The National Champion: the most points of the season (a public fact), on the
            # first page already.
            "champions": (
                [r for r in page.rows if r.rank == 1]
                if page.number == 1 and (len(page.rows) < PER_PAGE or page.rows[-1].rank > 1)
                else selectors.national_champions(season)
            )
            if not region and not grass_roots
            else [],
        },
    )


def national(request: HttpRequest) -> HttpResponse:
    season, known = _season(request)
    return _table_page(request, season, known, None)


def region(request: HttpRequest, pk: int) -> HttpResponse:
    season, known = _season(request)
    return _table_page(request, season, known, get_object_or_404(Region, pk=pk))


def national_gr(request: HttpRequest) -> HttpResponse:
    season, known = _season(request)
    return _table_page(request, season, known, None, grass_roots=True)


def region_gr(request: HttpRequest, pk: int) -> HttpResponse:
    season, known = _season(request)
    the_region = get_object_or_404(Region, pk=pk)
    return _table_page(request, season, known, the_region, grass_roots=True)


def invitations(request: HttpRequest) -> HttpResponse:
    season, known = _season(request)
    rule = selectors.invitation_rule_on(date(season + 1, 7, 31))
    return render(
        request,
        "federation/invitations.html",
        {
            "season": season,
            "seasons": known,
            "rule": rule,
            "invited": selectors.invitations(season, rule),
        },
    )


def member(request: HttpRequest, acc_number: str) -> HttpResponse:
    career = selectors.career(acc_number)
    if career is None:
        raise Http404(_("No points are recorded for this ACC number."))
    stored = selectors.titles()
    progress = selectors.progress_of(career.points, stored)
    language = get_language()
    names = {t.name: t.label(language) for t in stored}
    return render(
        request,
        "federation/member.html",
        {
            "career": career,
            "progress": progress,
            "held": names.get(progress.held.name) if progress.held else None,
            "next_title": names.get(progress.next.name) if progress.next else None,
            "champion_seasons": selectors.champion_seasons(career),
        },
    )


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "tournaments/direct/refused.html", {"message": message}, status=403)


def _reviewer_only(request: HttpRequest) -> HttpResponse | None:
    if roles.is_reviewer(request.user):
        return None
    return _refused(
        request,
        _("Only the federation's statisticians and the region's commissioners review results."),
    )


@login_required
def review_queue(request: HttpRequest) -> HttpResponse:
    refused = _reviewer_only(request)
    if refused:
        return refused
    queue = list(selectors.review_queue(request.user))
    mine = Region.objects.filter(pk__in=roles.region_ids(request.user))
    return render(request, "federation/queue.html", {"queue": queue, "regions": list(mine)})


@login_required
def review(request: HttpRequest, pk: int) -> HttpResponse:
    submission = get_object_or_404(Submission.objects.select_related("tournament__club"), pk=pk)
    if not roles.may_review(request.user, submission):
        return _refused(
            request,
            _("Only the federation's statisticians and the region's commissioners review results."),
        )
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


def _may_see_package(user: Any, submission: Submission) -> bool:
    return (
        roles.may_send_up(user, submission.tournament)
        or roles.may_review(user, submission)
        or roles.is_federation_admin(user)
    )


@login_required
def portal(request: HttpRequest, pk: int) -> HttpResponse:
    """The results as the ACC's portal asks for them, to copy from field by field."""
    submission = get_object_or_404(
        Submission.objects.select_related("tournament__club__federation_region__region"), pk=pk
    )
    if not _may_see_package(request.user, submission):
        return _refused(request, _("Only this club's directors and its reviewers see this page."))
    return render(
        request,
        "federation/portal.html",
        {"submission": submission, "sheet": selectors.portal_sheet(submission)},
    )


@login_required
def books(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's sanctioning fee and Q pools; its director opens or changes a pool here."""
    event = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not roles.may_send_up(request.user, event):
        return _refused(request, _("Only this club's directors keep its event's Q pools."))
    styles = list(PayoutStyle.objects.all())
    if request.method == "POST":
        raw_number, raw_entry = request.POST.get("number", ""), request.POST.get("entry", "")
        style = next((s for s in styles if str(s.pk) == request.POST.get("style")), None)
        try:
            if not (raw_number.isdigit() and raw_entry.isdigit()) or style is None:
                raise ValidationFailed(
                    _("Give the pool's number, its entry in cents and how it is paid.")
                )
            services.q_pool_set(
                user=request.user,
                tournament=event,
                number=int(raw_number),
                entry=int(raw_entry),
                style=style,
                entrants=request.POST.getlist("entrants"),
            )
            messages.success(request, _("The Q pool is saved."))
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("federation:books", pk=pk)
    language = get_language()
    return render(
        request,
        "federation/books.html",
        {
            "event": event,
            "books": selectors.event_books(event),
            "styles": [(s.pk, s.label(language)) for s in styles],
            "entrants": list(event.entrants.order_by("name").values_list("name", flat=True)),
            "submission": selectors.submission_of(event),
        },
    )


@login_required
def region_clubs(request: HttpRequest, pk: int) -> HttpResponse:
    """A region's clubs; its commissioner (or a federation admin) puts a club in it."""
    the_region = get_object_or_404(Region, pk=pk)
    user = request.user
    if not (roles.is_federation_admin(user) or roles.commissions(user, the_region)):
        return _refused(
            request, _("Only this region's commissioner or a federation admin does this.")
        )
    if request.method == "POST":
        club = Club.objects.filter(pk=request.POST.get("club") or 0).first()
        try:
            if club is None:
                raise ValidationFailed(_("Choose a club."))
            services.club_region_set(user=user, club=club, region=the_region)
            messages.success(request, _("%(club)s is in this region.") % {"club": club.name})
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("federation:region_clubs", pk=pk)
    return render(
        request,
        "federation/region_clubs.html",
        {
            "region": the_region,
            "clubs": list(Club.objects.filter(federation_region__region=the_region)),
            "free": list(Club.objects.filter(federation_region__isnull=True)),
            "waiting": list(selectors.review_queue(user)),
        },
    )
