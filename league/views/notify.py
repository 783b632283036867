"""The doors of notifications: a player's own choices, a mail's one-click unsubscribe
(RFC 8058), and the organiser's announcements with the log of what was sent."""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework.exceptions import ParseError

from league.kernel.errors import DomainError
from league.kernel.notify import unsubscribe_read
from league.kernel.parsers import json_from, local_path
from league.kernel.push import vapid_pair
from league.models import CalendarFeed, Category, Player
from league.selectors.notify import (
    notify_choices_of,
    push_devices_of,
    season_announcements,
    season_deliveries,
)
from league.services.calendars import (
    calendar_document,
    calendar_feed_of,
    calendar_feed_reset,
    calendar_feeds_of_player,
    feed_urls,
)
from league.services.notify import (
    announcement_post,
    notify_choices_set,
    notify_unsubscribe,
    push_device_remove,
    push_subscribe,
    push_unsubscribe,
)
from league.views.organiser import _season, form_refused, organiser_only, refused


def choices(request: HttpRequest) -> HttpResponse:
    """What Pegboard sends me: each category on each channel, and my mails' language. Only
    the signed-in player sees and changes their own."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = Player.objects.filter(user=request.user).select_related("user").first()
    if player is None:
        return render(request, "notify/no_player.html")
    status = 200
    if request.method == "POST":
        grid = notify_choices_of(player)
        off = [
            (cell["name"].split(":")[0], cell["name"].split(":")[1])
            for row in grid["rows"]
            for cell in row["channels"]
            if request.POST.get(cell["name"]) != "on"
        ]
        try:
            notify_choices_set(
                user=request.user, player=player, off=off, language=request.POST.get("language")
            )
        except DomainError as exc:
            refused(request, exc)
            status = 400
        else:
            messages.success(request, _("Saved: Pegboard sends you what you ticked."))
            return redirect("league:notify_choices")
    feeds = calendar_feeds_of_player(user=request.user, player=player)
    return render(
        request,
        "notify/choices.html",
        {
            "player": player,
            "choices": notify_choices_of(player),
            "feeds": [(name, feed, feed_urls(feed)) for name, feed in feeds],
            "vapid_public": (vapid_pair() or {}).get("public", ""),
            "devices": push_devices_of(player),
        },
        status=status,
    )


@csrf_exempt  # the signed link is the authority: a mail client posts it with no cookie
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link turns off, with one button; POST (the button, or the mail
    client's one-click ``List-Unsubscribe=One-Click``) turns it off."""
    found = unsubscribe_read(token)
    if found is None:
        raise Http404
    player_id, category = found
    if request.method == "POST":
        player = notify_unsubscribe(player_id=player_id, category=category)
        if player is None:
            raise Http404
        return render(
            request,
            "notify/unsubscribe.html",
            {"done": True, "category": Category(category).label, "player": player},
        )
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404
    return render(
        request,
        "notify/unsubscribe.html",
        {"done": False, "category": Category(category).label, "player": player},
    )


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Announcement"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    days = forms.IntegerField(
        label=gettext_lazy("Show it on the home page for (days)"),
        min_value=1,
        max_value=60,
        initial=7,
    )


@organiser_only
def season_messages(request: HttpRequest, pk: int) -> HttpResponse:
    """Post an announcement to the season's players; read who was told what, and when."""
    season = _season(pk)
    feed = calendar_feed_of(user=request.user, season=season)
    form = AnnouncementForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                announcement_post(
                    user=request.user,
                    season=season,
                    text=form.cleaned_data["text"],
                    days=form.cleaned_data["days"],
                )
            except DomainError as exc:
                refused(request, exc)
                status = 400
            else:
                messages.success(
                    request, _("Posted: every player of the season is told, by mail if they want.")
                )
                return redirect("league:organise_messages", pk=season.pk)
        else:
            form_refused(request, form)
            status = 400
    return render(
        request,
        "organiser/messages.html",
        {
            "season": season,
            "form": form,
            "announcements": season_announcements(season),
            "deliveries": season_deliveries(season),
            "feed": feed,
            "feed_urls": feed_urls(feed),
        },
        status=status,
    )


# --- Calendar feeds -----------------------------------------------------------------------------


def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed a calendar app polls (no login: the secret address is the key)."""
    document = calendar_document(token)
    if document is None:
        raise Http404
    response = HttpResponse(document, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="pegboard.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@require_POST
def calendar_reset(request: HttpRequest) -> HttpResponse:
    """A new secret address for a feed its owner holds; the old one stops working."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("league:notify_choices"))
    token = request.POST.get("token", "")
    if not _TOKEN.fullmatch(token):  # a NUL or 5,000 characters are no feed's address
        raise Http404
    feed = CalendarFeed.objects.filter(token=token).first()
    if feed is None:
        raise Http404
    try:
        calendar_feed_reset(user=request.user, feed=feed)
    except DomainError as exc:
        refused(request, exc)
    else:
        messages.success(
            request, _("A new calendar address: subscribe again with it; the old one is dead.")
        )
    return redirect(
        local_path(request.POST.get("next"), host=request.get_host(), secure=request.is_secure())
    )


_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a feed's address (``feed_token``)


# --- Web Push -----------------------------------------------------------------------------------


@require_POST
def push_device_forget(request: HttpRequest, pk: int) -> HttpResponse:
    """A player removes one of the phones that get their notifications (their page's button)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("league:notify_choices"))
    if push_device_remove(user=request.user, device_id=pk):
        messages.success(request, _("That phone gets no more notifications from Pegboard."))
    return redirect("league:notify_choices")


@require_POST
def push_subscription(request: HttpRequest) -> HttpResponse:
    """This device's push subscription: POST ``{"subscription": {...}}`` stores it,
    ``{"unsubscribe": endpoint}`` forgets it."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Sign in first.")}, status=403)
    if len(request.body) > 4096:
        return JsonResponse(
            {"detail": _("This browser sent a subscription Pegboard cannot use.")}, status=400
        )
    try:
        body = json_from(request.body or b"null")  # bounded in depth before it is read
        if isinstance(body, dict) and "unsubscribe" in body:
            push_unsubscribe(user=request.user, endpoint=body["unsubscribe"])
            return JsonResponse({"subscribed": False})
        push_subscribe(
            user=request.user,
            data=body.get("subscription") if isinstance(body, dict) else None,
            user_agent=request.headers.get("User-Agent", ""),
        )
    except (ValueError, ParseError):
        return JsonResponse(
            {"detail": _("This browser sent a subscription Pegboard cannot use.")}, status=400
        )
    except DomainError as exc:
        return JsonResponse({"detail": exc.message}, status=exc.status)
    return JsonResponse({"subscribed": True}, status=201)
