"""Public pages, score entry and the venue scoreboard."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from league.views import (
    entry,
    games,
    language,
    pages,
    people,
    rules,
    schedule,
    scoreboard,
    standings,
)

app_name = "league"

urlpatterns = [
    path("", pages.home, name="home"),
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
    path("players/<int:pk>/", people.player, name="player"),
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
