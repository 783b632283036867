"""The rules reference, readable by everyone and searchable, for the season chosen."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league.kernel.ids import number_from
from league.selectors.rules import rules_page, rules_season


def rules(request: HttpRequest) -> HttpResponse:
    asked = request.GET.get("season") or None
    number = number_from(asked)
    season, seasons = rules_season(number, user=request.user)
    if asked is not None and (number is None or season is None):
        raise Http404("No such season.")
    context = rules_page(
        user=request.user, season=season, seasons=seasons, query=request.GET.get("q", "")
    )
    return render(request, "league/rules.html", context)
