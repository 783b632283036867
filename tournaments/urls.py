"""Tournament pages: standings and the cut, seating per round, the bracket, TV and scorecards."""

from django.urls import path

from tournaments import club_views, recap_views, report_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_page, name="tournament"),
    path("<int:pk>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:pk>/bracket/", views.bracket_page, name="bracket"),
    path("<int:pk>/rules/", views.rules_page, name="rules"),
    path("<int:pk>/story/", recap_views.night_recap_page, name="recap"),
    path("<int:pk>/tv/", views.tv_page, name="tv"),
    path("<int:pk>/version/", views.version, name="version"),
    path("tables/<int:pk>/scorecard/", views.scorecard, name="scorecard"),
    path("tables/<int:pk>/scorecard/deals/", views.scorecard_deals, name="scorecard_deals"),
    path("playoff/<int:pk>/card/", views.playoff_card, name="playoff_card"),
    path("<int:pk>/money/", club_views.money_page, name="money"),
    path("clubs/<int:pk>/", club_views.club_page, name="club"),
    path("clubs/seasons/<int:pk>/", club_views.club_season_page, name="club_season"),
    path("<int:pk>/report/", report_views.night_report, name="night_report"),
    path("<int:pk>/report.csv", report_views.night_report_csv, name="night_report_csv"),
    path("clubs/seasons/<int:pk>/report/", report_views.season_report, name="season_report"),
    path(
        "clubs/seasons/<int:pk>/report.csv",
        report_views.season_report_csv,
        name="season_report_csv",
    ),
]
