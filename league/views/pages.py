"""Public pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.models import Season


def home(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.select_related("league").filter(is_current=True)
    return render(request, "league/home.html", {"seasons": seasons})
