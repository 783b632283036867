"""Tournament pages: standings and the cut, seating per round, the bracket, TV and scorecards."""

from django.urls import path

from tournaments.views import club, public, recap, reports

app_name = "tournaments"

urlpatterns = [
    path("", public.tournament_list, name="list"),
    path("<int:pk>/", public.tournament_page, name="tournament"),
    path("<int:pk>/rounds/<int:number>/", public.round_page, name="round"),
    path("<int:pk>/bracket/", public.bracket_page, name="bracket"),
    path("<int:pk>/rules/", public.rules_page, name="rules"),
    path("<int:pk>/story/", recap.night_recap_page, name="recap"),
    path("<int:pk>/tv/", public.tv_page, name="tv"),
    path("<int:pk>/version/", public.version, name="version"),
    path("tables/<int:pk>/scorecard/", public.scorecard, name="scorecard"),
    path("tables/<int:pk>/scorecard/deals/", public.scorecard_deals, name="scorecard_deals"),
    path("playoff/<int:pk>/card/", public.playoff_card, name="playoff_card"),
    path("<int:pk>/money/", club.money_page, name="money"),
    path("clubs/<int:pk>/", club.club_page, name="club"),
    path("clubs/seasons/<int:pk>/", club.club_season_page, name="club_season"),
    path("<int:pk>/report/", reports.night_report, name="night_report"),
    path("<int:pk>/report.csv", reports.night_report_csv, name="night_report_csv"),
    path("clubs/seasons/<int:pk>/report/", reports.season_report, name="season_report"),
    path(
        "clubs/seasons/<int:pk>/report.csv",
        reports.season_report_csv,
        name="season_report_csv",
    ),
]
