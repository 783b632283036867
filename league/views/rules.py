"""The rules reference, readable by everyone and searchable."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.rules_reference import search_rules


def rules(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    return render(request, "league/rules.html", {"rules": search_rules(query), "q": query})
