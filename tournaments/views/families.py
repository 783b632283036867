"""A weekend's pages: its events on one page, and the TV that shows them in turn."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tournaments.models import EventFamily, Kind, TournamentStage
from tournaments.views.public import tv_context

# The order a weekend's events are listed in: the main first.
KIND_ORDER = {Kind.MAIN: 0, Kind.CONSOLATION: 1, Kind.SATELLITE: 2, Kind.SIDE_EVENT: 3}


def weekend_events(family: EventFamily) -> list:
    events = list(family.events.select_related("consolation_of"))
    return sorted(events, key=lambda e: (KIND_ORDER.get(e.kind, 9), e.date or family.starts, e.pk))


def family_page(request: HttpRequest, pk: int) -> HttpResponse:
    family = get_object_or_404(EventFamily, pk=pk)
    return render(
        request,
        "tournaments/family.html",
        {"family": family, "events": weekend_events(family)},
    )


def family_tv(request: HttpRequest, pk: int) -> HttpResponse:
    """The weekend's TV: each event under way (else each event) in turn, for the weekend's
    seconds per event, then the next (``?event=N`` from 1)."""
    family = get_object_or_404(EventFamily, pk=pk)
    events = weekend_events(family)
    running = [
        e for e in events if e.stage in (TournamentStage.QUALIFYING, TournamentStage.PLAYOFFS)
    ]
    shown = running or events
    if not shown:
        return render(request, "tournaments/family.html", {"family": family, "events": []})
    try:
        index = max(1, int(request.GET.get("event", "1")))
    except ValueError:
        index = 1
    index = (index - 1) % len(shown) + 1
    context = tv_context(shown[index - 1])
    nxt = index % len(shown) + 1
    context.update(
        family=family,
        rotate_index=index,
        rotate_total=len(shown),
        rotate_seconds=family.tv_rotate_seconds,
        rotate_next=(
            f"{reverse('tournaments:family_tv', args=[family.pk])}?event={nxt}"
            if len(shown) > 1
            else None
        ),
    )
    return render(request, "tournaments/tv.html", context)
