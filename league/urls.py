"""Public pages."""

from django.urls import path

from league.views import pages

app_name = "league"

urlpatterns = [
    path("", pages.home, name="home"),
]
