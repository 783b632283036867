"""A season archive carries forfeits, postponed matches, cancelled nights and the season's
night settings, and round-trips them exactly; an archive without them reads as before."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from league.models import Forfeit, Match, Season, Week
from league.selectors.standings import compute_standings
from league.services.archive import export_season, standings_rows
from league.services.archive_import import ArchiveRefused, import_season
from league.services.forfeits import match_forfeit
from league.services.postponements import match_postpone, week_cancel
from league.services.season_ops import season_ops_update
from tests.factories import game_summary, make_archive, wipe_league_data


@pytest.fixture
def eventful(league_admin):
    """Sunday Pairs, Fall 2026 (three weeks of two games a match) imported; then Nobs forfeit
    the third game of week 1 at 2 points a game, week 4's match is postponed and week 6 is
    cancelled."""
    season = import_season(make_archive(games=2))
    season_ops_update(season=season, user=league_admin, changes={"forfeit_points": 2})
    first = Match.objects.get(week__season=season, week__number=1)
    match_forfeit(match=first, team=first.away, reason="Nobs left early", user=league_admin)
    weeks = [
        Week.objects.create(
            season=season, number=n, date=dt.date(2026, 9, 3) + dt.timedelta(weeks=n - 1)
        )
        for n in (4, 5, 6)
    ]
    fourth = Match.objects.create(week=weeks[0], home=first.away, away=first.home)
    match_postpone(match=fourth, user=league_admin, date=dt.date(2026, 9, 29), reason="Snow")
    week_cancel(week=weeks[2], user=league_admin, reason="The bar is closed")
    season.refresh_from_db()
    return season


def test_forfeits_postponements_and_cancelled_nights_round_trip_exactly(eventful):
    doc = export_season(eventful).archive
    first = doc["weeks"][0]["matches"][0]
    assert first["forfeit"] == {"team": "Nobs", "reason": "Nobs left early", "games": [3]}
    assert len(first["games"]) == 2  # the games played, deal by deal
    assert doc["weeks"][3]["matches"][0]["date"] == "2026-09-29"
    assert doc["weeks"][5]["cancelled"] == "The bar is closed"
    assert doc["season"]["forfeit_points"] == 2
    before_games = game_summary(eventful)
    before = standings_rows(compute_standings(eventful))
    # Fifteen Two: 2 points for the forfeited game on top of what they won.
    text = json.dumps(doc)

    wipe_league_data()
    season = import_season(json.loads(text))

    assert game_summary(season) == before_games
    assert standings_rows(compute_standings(season)) == before
    forfeit = Forfeit.objects.get(match__week__season=season)
    assert (forfeit.team.name, forfeit.reason) == ("Nobs", "Nobs left early")
    assert list(forfeit.games.values_list("number", "home_points")) == [(3, 2)]
    assert Match.objects.get(week__season=season, week__number=4).date == dt.date(2026, 9, 29)
    assert Week.objects.get(season=season, number=6).cancelled_reason == "The bar is closed"
    assert export_season(season).archive == json.loads(text)


def test_an_archive_with_a_forfeit_of_a_team_not_playing_is_refused(db):
    doc = make_archive(games=2)
    doc["weeks"][0]["matches"][0]["forfeit"] = {"team": "His Heels", "reason": "x", "games": [3]}
    with pytest.raises(Exception, match="does not play this match"):
        import_season(doc)
    assert not Forfeit.objects.exists()


def test_an_archive_whose_forfeit_awards_a_game_the_match_does_not_have_is_refused(db):
    """A game 4 of a 3-game match was stored and gave a team a league point: refused, saying
    where, by the rule the table's forfeit keeps."""
    doc = make_archive(games=2)
    doc["weeks"][0]["matches"][0]["forfeit"] = {"team": "Nobs", "reason": "x", "games": [3, 4]}
    with pytest.raises(ArchiveRefused) as refused:
        import_season(doc)
    message = refused.value.message
    assert "Week 1" in message and "forfeit" in message
    assert "A match has 3 games: a forfeit cannot award game 4." in message
    assert not Forfeit.objects.exists() and not Season.objects.exists()


def test_an_archive_whose_cancelled_night_lists_played_games_is_refused(db):
    """The app refuses cancelling a played night; the importer took one: refused, saying which
    night, with the app's own sentence."""
    doc = make_archive(games=2)
    doc["weeks"][1]["cancelled"] = "The bar is closed"
    with pytest.raises(ArchiveRefused) as refused:
        import_season(doc)
    message = refused.value.message
    assert message.startswith("Week 2")
    assert "A game of this night has been played: it can no longer be cancelled." in message
    assert not Season.objects.exists()


def test_a_cancelled_night_with_no_game_still_imports(db):
    doc = make_archive(games=2)
    doc["weeks"][1]["matches"][0]["games"] = []
    doc["weeks"][1]["cancelled"] = "The bar is closed"
    season = import_season(doc)
    assert Week.objects.get(season=season, number=2).cancelled_reason == "The bar is closed"
