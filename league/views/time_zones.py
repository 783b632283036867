"""The organiser's time zones page: the league's zone and each venue's (empty: the league's)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.kernel.errors import DomainError
from league.models import League, Venue
from league.services.time_zones import league_time_zone_set, venue_time_zone_set, zone_names
from league.views.organiser import organiser_only


@organiser_only
def time_zones(request: HttpRequest) -> HttpResponse:
    leagues = list(League.objects.order_by("name"))
    venues = list(Venue.objects.order_by("name"))
    if request.method == "POST":
        try:
            for league in leagues:
                zone = request.POST.get(f"league-{league.pk}")
                if zone is not None:
                    league_time_zone_set(league=league, user=request.user, zone=zone)
            for venue in venues:
                zone = request.POST.get(f"venue-{venue.pk}")
                if zone is not None:
                    venue_time_zone_set(venue=venue, user=request.user, zone=zone)
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The time zones are saved."))
        return redirect("league:organise_time_zones")
    return render(
        request,
        "organiser/time_zones.html",
        {"leagues": leagues, "venues": venues, "zones": zone_names()},
    )
