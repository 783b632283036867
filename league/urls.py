"""Public pages, score entry, the venue scoreboard and the organiser's workspace."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from league.views import (
    accounts,
    entry,
    games,
    history,
    language,
    organiser,
    pages,
    people,
    pwa,
    rules,
    schedule,
    scoreboard,
    sheets,
    standings,
)

app_name = "league"

urlpatterns = [
    path("", pages.home, name="home"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("rules/", rules.rules, name="rules"),
    path("language/", language.choose_language, name="language"),
    path("seasons/<int:pk>/standings/", standings.standings, name="standings"),
    path("seasons/<int:pk>/seeding/", standings.seeding, name="seeding"),
    path("seasons/<int:pk>/schedule/", schedule.schedule, name="schedule"),
    path("matches/<int:pk>/", schedule.match, name="match"),
    path("matches/<int:pk>/start/", schedule.start_game, name="start_game"),
    path("games/<int:pk>/", games.game_page, name="game"),
    path("games/<int:pk>/live/", games.game_live, name="game_live"),
    path("games/<int:pk>/enter/", entry.enter, name="enter"),
    path("games/<int:pk>/confirm/", games.confirm, name="confirm"),
    path("games/<int:pk>/reject/", games.reject, name="reject"),
    path("games/<int:pk>/dispute/", games.dispute, name="dispute"),
    path("games/<int:pk>/rivals/<int:deal>/withdraw/", games.withdraw_rival, name="withdraw_rival"),
    path(
        "games/<int:pk>/disputes/<int:dispute>/withdraw/",
        games.withdraw_dispute,
        name="withdraw_dispute",
    ),
    path("teams/<int:pk>/", people.team, name="team"),
    path("players/<int:pk>/", history.player, name="player"),
    path("leagues/<int:pk>/", history.league, name="league"),
    path("weeks/<int:pk>/sheets/", sheets.week_sheets_page, name="week_sheets"),
    path("welcome/<uidb64>/<token>/", accounts.welcome, name="welcome"),
    # The organiser's workspace
    path("organise/", organiser.home, name="organise"),
    path("organise/seasons/<int:pk>/", organiser.season, name="organise_season"),
    path(
        "organise/seasons/<int:pk>/delete/", organiser.season_delete, name="organise_season_delete"
    ),
    path("organise/seasons/<int:pk>/players/", organiser.players, name="organise_players"),
    path("organise/seasons/<int:pk>/teams/", organiser.teams, name="organise_teams"),
    path("organise/teams/<int:pk>/delete/", organiser.team_delete, name="organise_team_delete"),
    path("organise/seasons/<int:pk>/schedule/", organiser.schedule, name="organise_schedule"),
    path(
        "organise/seasons/<int:pk>/schedule/delete/",
        organiser.schedule_delete,
        name="organise_schedule_delete",
    ),
    path("organise/matches/<int:pk>/move/", organiser.move_match, name="organise_move_match"),
    path("venues/<int:pk>/scoreboard/", scoreboard.venue, name="venue_scoreboard"),
    path(
        "venues/<int:venue>/weeks/<int:week>/scoreboard/",
        scoreboard.scoreboard,
        name="scoreboard",
    ),
    path(
        "venues/<int:venue>/weeks/<int:week>/scoreboard/boards/",
        scoreboard.boards,
        name="scoreboard_boards",
    ),
    path("score/show/", entry.score_show_json, name="score_show"),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="jsi18n"),
]
