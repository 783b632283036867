"""The venue's scoreboard for the TV: every table's game as a board, refreshed by polling a
partial every few seconds (no login, no reload). A venue with more tables than one screen holds
(``PEGBOARD_TV_SCREEN_TABLES``) has several screens: ``?screen=K`` pins a TV to one, and a TV
left without it shows each in turn."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language

from league.kernel.cache import cache_get, cache_set
from league.kernel.ids import number_from
from league.models import Venue, Week
from league.selectors.scoreboard import (
    boards_signature,
    current_week_at,
    skunk_line,
    week_boards,
)
from league.selectors.seasons import drafts_hidden

POLL_SECONDS = 2.5


def venue(request: HttpRequest, pk: int) -> HttpResponse:
    """The venue's TV address: always shows the week being played there, on the same screen
    (a TV pinned with ``?screen=K`` stays pinned from week to week)."""
    get_object_or_404(Venue, pk=pk)
    week = current_week_at(pk, today=timezone.localdate())
    if week is None:
        raise Http404("No week is played at this venue.")
    url = reverse("league:scoreboard", args=[pk, week.pk])
    screen = _screen(request)
    return redirect(f"{url}?screen={screen}" if screen else url)


def _screen(request: HttpRequest) -> int | None:
    """The screen asked for with ``?screen=K`` (from 1), None without one; 404 for nonsense."""
    raw = request.GET.get("screen")
    if raw is None:
        return None
    screen = number_from(raw, digits=6)
    if screen is None or screen < 1:
        raise Http404("No such screen.")
    return screen


def _week(request: HttpRequest, venue: int, week: int) -> Week:
    """The week at the venue; a draft's is its organisers' alone (404 for anyone else)."""
    weeks = Week.objects.filter(season__importing=False).select_related("season__league", "venue")
    return get_object_or_404(drafts_hidden(request.user, weeks, "season"), pk=week, venue_id=venue)


def _context(week: Week, screen: int | None) -> dict[str, object]:
    boards = week_boards(week, screen=screen or 1, per_screen=settings.PEGBOARD_TV_SCREEN_TABLES)
    return {
        **boards,
        "week": week,
        "season": week.season,
        "league": week.season.league,
        "signature": boards_signature(boards),
        "skunk_line": skunk_line(week.season),
        "poll_ms": int(POLL_SECONDS * 1000),
        "pinned": screen is not None,
        "screen_numbers": range(1, boards["screens"] + 1),
        "rotate_seconds": settings.PEGBOARD_TV_ROTATE_SECONDS,
        "rotate_ms": settings.PEGBOARD_TV_ROTATE_SECONDS * 1000,
    }


def scoreboard(request: HttpRequest, venue: int, week: int) -> HttpResponse:
    """The TV page: one screen of boards (the first, then each in turn, unless ``?screen=``)."""
    context = _context(_week(request, venue, week), _screen(request))
    return render(request, "league/scoreboard.html", context)


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
    conditional = get_conditional_response(request, etag=response["ETag"], response=response)
    assert conditional is not None  # given a response, it answers one
    return conditional


def boards(request: HttpRequest, venue: int, week: int) -> HttpResponse:
    """One screen's boards alone (``?screen=K``, the first without), polled by the scoreboard
    page. Every TV and phone watching the screen polls the same thing, so the drawing is
    cached under the boards' signature (it changes with every saved deal, and is the screen's
    own): a poll costs the signature's queries, not a redraw."""
    screen = _screen(request) or 1
    recent_key = f"boards-recent:{venue}:{week}:{screen}:{get_language()}"
    recent = cache_get(recent_key)
    if recent is not None:  # every TV and phone at the venue polls: one answer a second
        return _boards_response(request, recent[0], recent[1])
    context = _context(_week(request, venue, week), screen)
    digest = hashlib.sha1(str(context["signature"]).encode()).hexdigest()
    key = f"boards:{venue}:{week}:{screen}:{get_language()}:{digest}"
    html = cache_get(key)
    if html is None:
        html = render_to_string("league/partials/boards.html", context, request=request)
        cache_set(key, html)
    recent_seconds = getattr(settings, "BOARDS_RECENT_SECONDS", 1)
    if recent_seconds:  # the boards may be this old: well inside the five seconds a TV may lag
        cache_set(recent_key, (context["signature"], html), recent_seconds)
    return _boards_response(request, str(context["signature"]), html)
