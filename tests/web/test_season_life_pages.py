"""Preparing next season never changes the season being played, for anyone: the core bug of
a season's life ("creating next season takes the season being played off the site"), tried through
the pages a visitor, a captain and an organiser open, before and after each step."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Season, SeasonState, Venue, Week
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(season, home_team, away_team, other_team):
    """Fall 2026 at The Crooked Peg: week 1 two weeks ago (played and confirmed), week 2 today
    (Ann's match, game 1 under way), week 3 next week."""
    today = timezone.localdate()
    venue = Venue.objects.create(name="The Crooked Peg")
    weeks = [
        Week.objects.create(
            season=season, number=n, date=today + dt.timedelta(days=7 * (n - 2)), venue=venue
        )
        for n in (1, 2, 3)
    ]
    played = factories.MatchFactory(week=weeks[0], home=home_team, away=other_team)
    for number in (1, 2, 3):
        factories.confirmed_game(played, number, home_team, 10)
    tonight = factories.MatchFactory(week=weeks[1], home=home_team, away=away_team)
    factories.MatchFactory(week=weeks[2], home=away_team, away=other_team)
    from league.services.games import game_start

    game_start(match=tonight, user=home_team.captain.user, seats=["Ann", "Cat", "Bob", "Dan"])
    return {"season": season, "tonight": tonight, "today_week": weeks[1], "venue": venue}


@pytest.fixture
def lena(client, league_admin):
    client.force_login(league_admin)
    return client


def _views(client, user, running) -> dict[str, object]:
    """What a visitor (user None) or a captain sees of the league."""
    client.logout()
    if user is not None:
        client.force_login(user)
    home = client.get("/").content.decode()
    season = running["season"]
    league_page = client.get(reverse("league:league", args=[season.league_id])).content.decode()
    board = client.get(reverse("league:venue_scoreboard", args=[running["venue"].pk]))
    return {
        "home seasons": re.findall(r'id="season-(\d+)"', home),
        "home links": sorted(set(re.findall(r'href="(/seasons/\d+/[a-z]+/)"', home))),
        "open matches": re.findall(r'href="(/matches/\d+/)" data-keep-offline', home),
        "live scoreboard": re.findall(r'href="(/venues/\d+/scoreboard/weeks/\d+/)"', home)
        or re.findall(r'href="(/venues/[^"]+)"', home),
        "tv": board.url,
        "league page": re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", league_page)),
    }


def test_creating_next_season_changes_nothing_for_a_visitor_or_a_captain(
    client, running, league_admin, ann, league
):
    season = running["season"]
    visitor_before = _views(client, None, running)
    captain_before = _views(client, ann, running)
    assert visitor_before["home seasons"] == [str(season.pk)]
    assert captain_before["open matches"] == [f"/matches/{running['tonight'].pk}/"]
    assert running["today_week"].pk and str(running["today_week"].pk) in visitor_before["tv"]

    client.force_login(league_admin)
    response = client.post("/organise/", {"league": league.pk, "name": "Spring 2027"})
    assert response.status_code == 302
    spring = Season.objects.get(name="Spring 2027")
    assert spring.state == SeasonState.DRAFT

    visitor_after = _views(client, None, running)
    captain_after = _views(client, ann, running)
    for before, after in ((visitor_before, visitor_after), (captain_before, captain_after)):
        for key in ("home seasons", "home links", "open matches", "live scoreboard", "tv"):
            assert after[key] == before[key], key
    assert "Spring 2027" not in visitor_after["league page"]
    assert "Spring 2027" not in captain_after["league page"]
    assert "Fall 2026 running" in visitor_after["league page"]
    assert "first place so far" in visitor_after["league page"]
    assert visitor_after["league page"] == visitor_before["league page"]


def test_a_draft_is_seen_only_by_organisers_at_every_door(
    client, running, league_admin, ann, league
):
    client.force_login(league_admin)
    client.post("/organise/", {"league": league.pk, "name": "Spring 2027"})
    spring = Season.objects.get(name="Spring 2027")
    doors = [
        reverse("league:standings", args=[spring.pk]),
        reverse("league:schedule", args=[spring.pk]),
        reverse("league:seeding", args=[spring.pk]),
        f"/api/seasons/{spring.pk}/",
        f"/rules/?season={spring.pk}",
    ]
    for who in (None, ann):
        client.logout()
        if who is not None:
            client.force_login(who)
        for url in doors:
            assert client.get(url).status_code == 404, (who, url)
        listed = [s["id"] for s in client.get("/api/seasons/").json()["results"]]
        assert spring.pk not in listed and running["season"].pk in listed
    client.force_login(league_admin)
    for url in doors:
        assert client.get(url).status_code == 200, url
    organise = client.get("/organise/").content.decode()
    assert "Spring 2027" in organise and "draft: only organisers see it" in organise
    league_page = client.get(reverse("league:league", args=[league.pk])).content.decode()
    assert "Spring 2027" in league_page


def test_a_published_next_season_shows_beside_the_running_one(
    client, running, league_admin, ann, league
):
    from league.services.seasons import schedule_create, team_create

    client.force_login(league_admin)
    client.post("/organise/", {"league": league.pk, "name": "Spring 2027"})
    spring = Season.objects.get(name="Spring 2027")
    for i in range(2):
        players = [factories.PlayerFactory(name=f"S{i}{j}") for j in range(2)]
        team_create(season=spring, user=league_admin, name=f"Spring {i}", players=players)
    start = timezone.localdate() + dt.timedelta(days=60)
    schedule_create(season=spring, user=league_admin, start_date=start)
    captain_before = _views(client, ann, running)

    client.force_login(league_admin)
    response = client.post(
        reverse("league:organise_season_state", args=[spring.pk]), {"move": "publish"}, follow=True
    )
    assert "is published" in response.content.decode()

    client.logout()
    home = client.get("/").content.decode()
    assert re.findall(r'id="season-(\d+)"', home) == [str(running["season"].pk)]
    assert re.findall(r'id="next-(\d+)"', home) == [str(spring.pk)]
    assert "Next seasons" in home and "next season" in home
    assert client.get(reverse("league:schedule", args=[spring.pk])).status_code == 200
    captain_after = _views(client, ann, running)
    for key in ("home seasons", "open matches", "live scoreboard", "tv"):
        assert captain_after[key] == captain_before[key], key


def test_deleting_the_draft_leaves_the_running_season_on_the_home_page(
    client, running, league_admin, league
):
    client.force_login(league_admin)
    client.post("/organise/", {"league": league.pk, "name": "Spring 2027"})
    spring = Season.objects.get(name="Spring 2027")
    client.post(reverse("league:organise_season_delete", args=[spring.pk]))
    assert not Season.objects.filter(pk=spring.pk).exists()
    client.logout()
    home = client.get("/").content.decode()
    assert "No season is running." not in home
    assert re.findall(r'id="season-(\d+)"', home) == [str(running["season"].pk)]


def test_an_organiser_finishes_a_season_with_a_reason_on_the_page(client, running, lena):
    season = running["season"]
    url = reverse("league:organise_season_state", args=[season.pk])
    response = lena.post(url, {"move": "finish", "reason": ""}, follow=True)
    assert "Say why the season is finished early." in response.content.decode()
    season.refresh_from_db()
    assert season.state == SeasonState.PUBLISHED
    # A game is under way: the organiser confirms finishing as it stands, in her name.
    lena.post(url, {"move": "finish", "reason": "The bar closed for good", "confirm": "yes"})
    season.refresh_from_db()
    assert season.state == SeasonState.FINISHED
    page = lena.get(reverse("league:organise_season", args=[season.pk])).content.decode()
    assert "Finished: The bar closed for good" in page
    lena.logout()
    home = lena.get("/").content.decode()
    assert "No season is running." in home
    league_page = lena.get(reverse("league:league", args=[season.league_id])).content.decode()
    assert "first place so far" not in league_page


def test_a_captain_sees_open_matches_of_every_season_they_play_in(client, running, ann):
    """Ann also plays in a second league's running season: both matches are listed."""
    other_league = factories.LeagueFactory(name="Monday Fours")
    monday = factories.SeasonFactory(league=other_league, name="Winter")
    ann_player = ann.player
    mates = factories.PlayerFactory(name="Zed")
    mine = factories.TeamFactory(
        season=monday, name="Crib Kings", captain=ann_player, players=[ann_player, mates]
    )
    them = factories.TeamFactory(season=monday, name="Go Team")
    week = Week.objects.create(
        season=monday, number=1, date=timezone.localdate(), venue=running["venue"]
    )
    other = factories.MatchFactory(week=week, home=them, away=mine)
    client.force_login(ann)
    home = client.get("/").content.decode()
    listed = re.findall(r'href="(/matches/\d+/)" data-keep-offline', home)
    assert listed == [f"/matches/{running['tonight'].pk}/", f"/matches/{other.pk}/"]
    assert sorted(re.findall(r'id="season-(\d+)"', home)) == sorted(
        [str(running["season"].pk), str(monday.pk)]
    )


def test_the_pages_say_the_seasons_life_in_french(client, running, league_admin, league):
    client.force_login(league_admin)
    client.post("/organise/", {"league": league.pk, "name": "Printemps 2027"})
    page = client.get("/organise/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "brouillon : seuls les organisateurs la voient" in page
    spring = Season.objects.get(name="Printemps 2027")
    page = client.get(
        reverse("league:organise_season", args=[spring.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Publier la saison" in page
    client.logout()
    page = client.get(reverse("league:league", args=[league.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "en cours" in page.content.decode()


def test_a_drafts_match_and_team_pages_are_not_there_for_its_players(client, league, league_admin):
    """A captain who guesses the address of next season's match finds nothing to start."""
    from league.services.rules import season_create

    draft = season_create(league=league, user=league_admin, name="Spring 2027")
    home = factories.TeamFactory(season=draft, name="Early Birds")
    away = factories.TeamFactory(season=draft, name="Night Owls")
    week = Week.objects.create(season=draft, number=1, date=timezone.localdate())
    match = factories.MatchFactory(week=week, home=home, away=away)
    captain = home.captain.user
    client.force_login(captain)
    assert client.get(reverse("league:match", args=[match.pk])).status_code == 404
    assert client.get(reverse("league:team", args=[home.pk])).status_code == 404
    seats = [p.pk for p in (home.captain, away.captain)]
    response = client.post(reverse("league:start_game", args=[match.pk]), {"seat_0": seats[0]})
    assert response.status_code == 404 and not match.games.exists()
    assert client.get(f"/api/matches/{match.pk}/").status_code == 404
    assert client.get(f"/api/teams/{home.pk}/").status_code == 404
    client.force_login(league_admin)
    assert client.get(reverse("league:match", args=[match.pk])).status_code == 200


def test_a_players_page_does_not_show_a_draft_seasons_team(client, running, league, league_admin):
    from league.services.rules import season_create

    draft = season_create(league=league, user=league_admin, name="Spring 2027")
    ann = running["tonight"].home.captain
    factories.TeamFactory(season=draft, name="Secret Squad", captain=ann, players=[ann])
    page = client.get(reverse("league:player", args=[ann.pk])).content.decode()
    assert "Fifteen Two" in page and "Secret Squad" not in page


def test_two_leagues_at_one_venue_each_keep_their_night_and_the_tv_follows_the_date(
    client, running
):
    """Thursday Doubles plays today at The Crooked Peg; Tuesday Fours played there two days
    ago and plays again next Tuesday. Both run side by side; the TV shows tonight's."""
    today = timezone.localdate()
    tuesday = factories.SeasonFactory(league=factories.LeagueFactory(name="Tuesday Fours"))
    a = factories.TeamFactory(season=tuesday, name="Pairs Royal")
    b = factories.TeamFactory(season=tuesday, name="Flushes")
    for n, date in ((1, today - dt.timedelta(days=2)), (2, today + dt.timedelta(days=5))):
        week = Week.objects.create(season=tuesday, number=n, date=date, venue=running["venue"])
        factories.MatchFactory(week=week, home=a, away=b)
    home = client.get("/").content.decode()
    assert sorted(re.findall(r'id="season-(\d+)"', home)) == sorted(
        [str(running["season"].pk), str(tuesday.pk)]
    )
    board = client.get(reverse("league:venue_scoreboard", args=[running["venue"].pk]))
    assert f"/weeks/{running['today_week'].pk}/" in board.url
