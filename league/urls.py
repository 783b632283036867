"""Public pages, score entry, the venue scoreboard and the organiser's workspace."""

from django.urls import path, register_converter
from django.views.i18n import JavaScriptCatalog

from league.converters import IdConverter
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

register_converter(IdConverter, "id")

app_name = "league"

urlpatterns = [
    path("", pages.home, name="home"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("rules/", rules.rules, name="rules"),
    path("language/", language.choose_language, name="language"),
    path("seasons/<id:pk>/standings/", standings.standings, name="standings"),
    path("seasons/<id:pk>/seeding/", standings.seeding, name="seeding"),
    path("seasons/<id:pk>/schedule/", schedule.schedule, name="schedule"),
    path("matches/<id:pk>/", schedule.match, name="match"),
    path("matches/<id:pk>/start/", schedule.start_game, name="start_game"),
    path("games/<id:pk>/", games.game_page, name="game"),
    path("games/<id:pk>/live/", games.game_live, name="game_live"),
    path("games/<id:pk>/enter/", entry.enter, name="enter"),
    path("games/<id:pk>/confirm/", games.confirm, name="confirm"),
    path("games/<id:pk>/cancel/", games.cancel, name="cancel_game"),
    path("games/<id:pk>/reject/", games.reject, name="reject"),
    path("games/<id:pk>/dispute/", games.dispute, name="dispute"),
    path("games/<id:pk>/rivals/<id:deal>/withdraw/", games.withdraw_rival, name="withdraw_rival"),
    path(
        "games/<id:pk>/disputes/<id:dispute>/withdraw/",
        games.withdraw_dispute,
        name="withdraw_dispute",
    ),
    path("teams/<id:pk>/", people.team, name="team"),
    path("players/<id:pk>/", history.player, name="player"),
    path("leagues/<id:pk>/", history.league, name="league"),
    path("weeks/<id:pk>/sheets/", sheets.week_sheets_page, name="week_sheets"),
    path("welcome/<uidb64>/<token>/", accounts.welcome, name="welcome"),
    path("sign-in/link/", accounts.signin_link_request, name="signin_link_request"),
    path("sign-in/link/<str:token>/", accounts.signin_link, name="signin_link"),
    # The organiser's workspace
    path("organise/", organiser.home, name="organise"),
    path("organise/seasons/<id:pk>/", organiser.season, name="organise_season"),
    path(
        "organise/seasons/<id:pk>/delete/", organiser.season_delete, name="organise_season_delete"
    ),
    path("organise/seasons/<id:pk>/players/", organiser.players, name="organise_players"),
    path("organise/seasons/<id:pk>/teams/", organiser.teams, name="organise_teams"),
    path("organise/teams/<id:pk>/delete/", organiser.team_delete, name="organise_team_delete"),
    path("organise/seasons/<id:pk>/schedule/", organiser.schedule, name="organise_schedule"),
    path(
        "organise/seasons/<id:pk>/schedule/delete/",
        organiser.schedule_delete,
        name="organise_schedule_delete",
    ),
    path("organise/matches/<id:pk>/move/", organiser.move_match, name="organise_move_match"),
    path("venues/<id:pk>/scoreboard/", scoreboard.venue, name="venue_scoreboard"),
    path(
        "venues/<id:venue>/weeks/<id:week>/scoreboard/",
        scoreboard.scoreboard,
        name="scoreboard",
    ),
    path(
        "venues/<id:venue>/weeks/<id:week>/scoreboard/boards/",
        scoreboard.boards,
        name="scoreboard_boards",
    ),
    path("score/show/", entry.score_show_json, name="score_show"),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="jsi18n"),
]
