"""The venue's scoreboard for the TV: every table's game as a board, refreshed by polling a
partial every few seconds (no login, no reload)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language

from league.cache import cache_get, cache_set
from league.models import Venue, Week
from league.selectors.scoreboard import (
    boards_signature,
    current_week_at,
    skunk_line,
    week_boards,
)

POLL_SECONDS = 2.5


def venue(request: HttpRequest, pk: int) -> HttpResponse:
    """The venue's TV address: always shows the week being played there."""
    get_object_or_404(Venue, pk=pk)
    week = current_week_at(pk, today=timezone.localdate())
    if week is None:
        raise Http404("No week is played at this venue.")
    return redirect("league:scoreboard", venue=pk, week=week.pk)


def _week(venue: int, week: int) -> Week:
    return get_object_or_404(
        Week.objects.select_related("season__league", "venue"), pk=week, venue_id=venue
    )


def _context(week: Week) -> dict[str, object]:
    tables = week_boards(week)
    return {
        "week": week,
        "season": week.season,
        "league": week.season.league,
        "tables": tables,
        "signature": boards_signature(tables),
        "skunk_line": skunk_line(week.season),
        "poll_ms": int(POLL_SECONDS * 1000),
    }


def scoreboard(request: HttpRequest, venue: int, week: int) -> HttpResponse:
    return render(request, "league/scoreboard.html", _context(_week(venue, week)))


def _boards_response(request: HttpRequest, signature: str, html: str) -> HttpResponse:
    """The boards with their ETag (the signature and the language, hashed): a poller that sends
    it back gets 304 and no body until a board changes. Cacheable for one second, by nginx's
    micro-cache in front (deploy/nginx.conf) as by anyone else: the boards are the same for
    every visitor, and the poller's fetch keeps no copy of its own."""
    digest = hashlib.sha1(f"{get_language()}|{signature}".encode()).hexdigest()[:24]
    response = HttpResponse(html)
    response["X-Boards-Signature"] = signature
    response["ETag"] = f'"{digest}"'
    patch_cache_control(response, max_age=1)
    return get_conditional_response(request, etag=response["ETag"], response=response)


def boards(request: HttpRequest, venue: int, week: int) -> HttpResponse:
    """The boards alone, polled by the scoreboard page. Every TV and phone watching the venue
    polls the same thing, so the drawing is cached under the boards' signature (it changes
    with every saved deal): a poll costs the signature's queries, not a redraw."""
    recent_key = f"boards-recent:{venue}:{week}:{get_language()}"
    recent = cache_get(recent_key)
    if recent is not None:  # every TV and phone at the venue polls: one answer a second
        return _boards_response(request, recent[0], recent[1])
    context = _context(_week(venue, week))
    digest = hashlib.sha1(str(context["signature"]).encode()).hexdigest()
    key = f"boards:{venue}:{week}:{get_language()}:{digest}"
    html = cache_get(key)
    if html is None:
        html = render_to_string("league/partials/boards.html", context, request=request)
        cache_set(key, html)
    recent_seconds = getattr(settings, "BOARDS_RECENT_SECONDS", 1)
    if recent_seconds:  # the boards may be this old: well inside the five seconds a TV may lag
        cache_set(recent_key, (context["signature"], html), recent_seconds)
    return _boards_response(request, str(context["signature"]), html)
