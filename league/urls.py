"""Public pages."""

from django.urls import path

from league.views import pages, rules, standings

app_name = "league"

urlpatterns = [
    path("", pages.home, name="home"),
    path("rules/", rules.rules, name="rules"),
    path("seasons/<int:pk>/standings/", standings.standings, name="standings"),
    path("seasons/<int:pk>/seeding/", standings.seeding, name="seeding"),
]
