"""Tournament pages: standings and the cut, seating per round, the bracket, TV and scorecards."""

from django.urls import path

from tournaments import club_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_page, name="tournament"),
    path("<int:pk>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:pk>/bracket/", views.bracket_page, name="bracket"),
    path("<int:pk>/tv/", views.tv_page, name="tv"),
    path("<int:pk>/version/", views.version, name="version"),
    path("tables/<int:pk>/scorecard/", views.scorecard, name="scorecard"),
    path("tables/<int:pk>/scorecard/deals/", views.scorecard_deals, name="scorecard_deals"),
    path("<int:pk>/money/", club_views.money_page, name="money"),
    path("clubs/<int:pk>/", club_views.club_page, name="club"),
    path("clubs/seasons/<int:pk>/", club_views.club_season_page, name="club_season"),
]
