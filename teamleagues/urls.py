"""The team leagues' pages under /team-leagues/."""

from django.urls import path

from teamleagues import views

app_name = "teamleagues"

urlpatterns = [
    path("", views.leagues, name="leagues"),
    path("<int:pk>/", views.league, name="league"),
    path("seasons/<int:pk>/", views.season, name="season"),
    path("seasons/<int:pk>/close/", views.season_close, name="season_close"),
    path("fixtures/<int:pk>/", views.fixture, name="fixture"),
    path("fixtures/<int:pk>/names/", views.fixture_names, name="fixture_names"),
    path("fixtures/<int:pk>/leg/", views.fixture_leg, name="fixture_leg"),
    path("fixtures/<int:pk>/forfeit/", views.fixture_forfeit, name="fixture_forfeit"),
    path("teams/<int:pk>/", views.team, name="team"),
    path("cups/<int:pk>/", views.cup, name="cup"),
]
