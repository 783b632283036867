"""Tournament pages: standings and the cut, seating per round, the bracket, TV and scorecards."""

from django.urls import path

from league.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_page, name="tournament"),
    path("<int:pk>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:pk>/bracket/", views.bracket_page, name="bracket"),
    path("<int:pk>/tv/", views.tv_page, name="tv"),
    path("<int:pk>/version/", views.version, name="version"),
    path("tables/<int:pk>/scorecard/", views.scorecard, name="scorecard"),
]
