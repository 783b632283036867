"""The public pages render for a visitor, link to each other, and read in a fixed number of
queries however much has been played."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tests.factories import play, play_until_over

pytestmark = pytest.mark.django_db


def test_home_lists_the_current_season_with_its_pages(client, played_season):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Thursday Doubles" in body
    for name in ("standings", "schedule", "seeding"):
        assert reverse(f"league:{name}", args=[played_season.pk]) in body


def test_home_shows_a_captain_their_match_this_week(client, ann, match, game):
    client.force_login(ann)
    body = client.get("/").content.decode()
    assert "Your matches to play or confirm" in body
    assert reverse("league:match", args=[match.pk]) in body


def test_home_tells_a_captain_what_keeps_each_match_open(client, ann, match, finished_game):
    """Game 1 finished and waiting for the other team; games 2 and 3 not started."""
    from league.models import GameStatus

    client.force_login(ann)
    body = client.get("/").content.decode()
    assert "2 games to play · 1 to confirm" in body
    game_2 = factories.confirmed_game(match, 2, match.home, 10)
    game_2.status = GameStatus.DISPUTED
    game_2.save()
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 partie à jouer · 1 à confirmer · 1 contestée, en attente de l'arbitre" in body


def test_home_no_longer_lists_a_match_whose_games_are_all_confirmed(client, ann, match):
    for number in (1, 2, 3):
        factories.confirmed_game(match, number, match.home, 10)
    client.force_login(ann)
    body = client.get("/").content.decode()
    assert reverse("league:match", args=[match.pk]) not in body.split("Current seasons")[0]


def test_schedule_shows_one_week_the_current_one_first(client, played_season):
    url = reverse("league:schedule", args=[played_season.pk])
    body = client.get(url).content.decode()
    # Undated weeks: the current one is the latest with a game (week 2); week 1 is a link.
    assert 'id="week-2"' in body and 'id="week-1"' not in body
    assert "His Heels" in body and "2–1" in body
    assert f'href="{url}?week=1"' in body and 'rel="prev"' in body and 'rel="next"' not in body
    week_1 = client.get(url, {"week": 1}).content.decode()
    assert 'id="week-1"' in week_1 and 'id="week-2"' not in week_1
    assert "Nobs" in week_1 and "His Heels" not in week_1.split('id="week-1"')[1]
    assert f'href="{url}?week=2"' in week_1 and 'rel="next"' in week_1


def test_schedule_picks_the_week_of_today_by_date(client, season, home_team, away_team):
    import datetime

    from django.utils import timezone

    today = timezone.localdate()
    for number, days in ((1, -14), (2, -7), (3, 0), (4, 7)):
        week = factories.WeekFactory(
            season=season, number=number, date=today + datetime.timedelta(days=days)
        )
        factories.MatchFactory(week=week, home=home_team, away=away_team, table=number)
    body = client.get(reverse("league:schedule", args=[season.pk])).content.decode()
    assert 'id="week-3"' in body and "Table 3" in body and "Table 2" not in body


def test_schedule_week_the_season_does_not_have_says_so(client, played_season):
    url = reverse("league:schedule", args=[played_season.pk])
    for asked in ("9", "abc", "-1", "99999999999999999999"):
        response = client.get(url, {"week": asked})
        body = response.content.decode()
        assert response.status_code == 404, asked
        assert "This season has no week" in body and f'href="{url}?week=1"' in body


def test_schedule_queries_do_not_grow_with_the_season(
    client, played_season, django_assert_num_queries
):
    url = reverse("league:schedule", args=[played_season.pk])
    # the season, its weeks, the week's matches with their teams, their games; the week's
    # luckiest cut (its deals with cards, its seats)
    with django_assert_num_queries(6):
        client.get(url)
    for number in range(3, 30):
        week = factories.WeekFactory(season=played_season, number=number, date=None)
        for table in range(1, 4):
            match = factories.MatchFactory(
                week=week,
                home=factories.TeamFactory(season=played_season),
                away=factories.TeamFactory(season=played_season),
                table=table,
            )
            factories.confirmed_game(match, 1, match.home, 10)
    with django_assert_num_queries(6):
        body = client.get(url, {"week": 2}).content.decode()
    assert 'id="week-2"' in body and f'href="{url}?week=29"' in body
    with django_assert_num_queries(6):
        client.get(url)  # the latest week played: 29


def test_links_to_a_match_land_on_its_week(client, played_season):
    match = played_season.weeks.get(number=1).matches.get()
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    link = reverse("league:schedule", args=[played_season.pk]) + f"?week=1#match-{match.pk}"
    assert link in page
    assert f'id="match-{match.pk}"' in client.get(link.split("#")[0]).content.decode()


def test_match_page_shows_each_game_with_its_board(client, half_game, match):
    response = client.get(reverse("league:match", args=[match.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in body and 'role="img"' in body
    assert f"Fifteen Two {half_game.home_score}, Nobs {half_game.away_score}" in body


def test_match_page_offers_a_captain_to_start_the_next_game_once_this_one_is_over(
    client, ann, half_game, match
):
    client.force_login(ann)
    body = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Start a game" not in body  # game 1 is being played
    assert reverse("league:enter", args=[half_game.pk]) in body
    play_until_over(half_game, ann)
    body = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Start a game" in body


def test_a_visitor_sees_no_entry_buttons(client, half_game, match):
    body = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Start a game" not in body
    assert reverse("league:enter", args=[half_game.pk]) not in body


def test_starting_a_game_from_the_match_page_seats_the_players(client, ann, match):
    client.force_login(ann)
    ids = {p.name: p.pk for t in (match.home, match.away) for p in t.players.all()}
    response = client.post(
        reverse("league:start_game", args=[match.pk]),
        {
            "seat_0": ids["Ann"],
            "seat_1": ids["Cat"],
            "seat_2": ids["Bob"],
            "seat_3": ids["Dan"],
            "first_dealer": 1,
        },
    )
    game = match.games.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("league:enter", args=[game.pk])
    assert game.first_dealer == 1
    assert [s.player.name for s in game.seats.order_by("seat")] == ["Ann", "Cat", "Bob", "Dan"]


def test_starting_a_game_with_partners_side_by_side_says_why_not(client, ann, match):
    client.force_login(ann)
    ids = {p.name: p.pk for t in (match.home, match.away) for p in t.players.all()}
    response = client.post(
        reverse("league:start_game", args=[match.pk]),
        {
            "seat_0": ids["Ann"],
            "seat_1": ids["Bob"],
            "seat_2": ids["Cat"],
            "seat_3": ids["Dan"],
            "first_dealer": 0,
        },
        follow=True,
    )
    assert "Partners sit opposite each other" in response.content.decode()
    assert not match.games.exists()


def test_game_page_shows_every_deal_and_the_breakdowns(client, finished_game):
    response = client.get(reverse("league:game", args=[finished_game.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert body.count('<th scope="row">') == finished_game.deal_count
    assert "fifteen two" in body  # the scorer's breakdown of a hand entered with its cards


def test_game_page_queries_are_fixed(client, finished_game, django_assert_num_queries):
    url = reverse("league:game", args=[finished_game.pk])
    # 6: who is still asked to confirm reads the game's stored facts (lifecycle.game_facts),
    # not a count of its open disputes, which its state already says.
    with django_assert_num_queries(6):
        client.get(url)


def test_game_live_part_is_the_board_alone(client, half_game):
    response = client.get(reverse("league:game_live", args=[half_game.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and "<svg" in body


def test_standings_page_links_every_team(client, played_season, home_team):
    body = client.get(reverse("league:standings", args=[played_season.pk])).content.decode()
    assert reverse("league:team", args=[home_team.pk]) in body


def test_seeding_page_renders(client, played_season):
    response = client.get(reverse("league:seeding", args=[played_season.pk]))
    assert response.status_code == 200
    assert "Playoff seeding" in response.content.decode()


def test_team_and_player_pages_render_for_a_visitor(client, finished_game, home_team):
    ann_player = home_team.captain
    assert client.get(reverse("league:team", args=[home_team.pk])).status_code == 200
    assert client.get(reverse("league:player", args=[ann_player.pk])).status_code == 200


def test_team_page_queries_are_fixed(
    client, game, ann, match, home_team, django_assert_num_queries
):
    from league.services.games import game_confirm, game_start

    play(game, ann, cards=True)
    game_confirm(game=game, user=match.away.captain.user)
    url = reverse("league:team", args=[home_team.pk])
    # the team, its players, stats (three) and the rating block (one)
    with django_assert_num_queries(6) as one_game:
        client.get(url)
    second = game_start(match=match, user=ann, seats=["Bob", "Dan", "Ann", "Cat"])
    play(second, ann, seed=11)
    game_confirm(game=second, user=match.away.captain.user)
    with django_assert_num_queries(len(one_game.captured_queries)):
        client.get(url)


def test_player_page_queries_are_fixed(
    client, finished_game, match, home_team, django_assert_num_queries
):
    from league.services.games import game_confirm

    game_confirm(game=finished_game, user=match.away.captain.user)
    url = reverse("league:player", args=[home_team.captain.pk])
    # the player, teams, stats, games and, per season played, its standings (cache cold: the
    # snapshot, then the teams with their matches' tallies); their seasons as a sub (one
    # query); their tournament events (none); the rating block (one)
    with django_assert_num_queries(11):
        client.get(url)


def test_unknown_pages_answer_404(client, db):
    assert client.get(reverse("league:game", args=[999])).status_code == 404
    assert client.get(reverse("league:match", args=[999])).status_code == 404
    assert client.get(reverse("league:team", args=[999])).status_code == 404


def test_the_schedule_rows_read_in_french_and_escape_team_names(client, season, week, match):
    match.home.name = "<b>Fifteen & Two</b>"
    match.home.save()
    url = reverse("league:schedule", args=[season.pk])
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<span class="tally">c.</span>' in french  # "v", not played yet
    assert "&lt;b&gt;Fifteen &amp; Two&lt;/b&gt;" in french and "<b>Fifteen" not in french
    assert "Semaine 1" in french


def test_a_browser_asking_for_the_site_icon_gets_pegboards(client):
    """The admin's and the API's pages name no icon, so browsers ask for /favicon.ico."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302  # not cached for ever: the address has a hash in production
    assert response["Location"] == "/static/icons/peg.svg"
    assert client.get(response["Location"]).status_code in (200, 304)


def test_the_schedule_marks_a_score_that_does_not_count_yet(client, game, ann, cat, match):
    """A finished game waiting for the other team, and a disputed one, may still change: the
    schedule says so beside the score; a confirmed score carries no such word."""
    from league.services.disputes import dispute_raise

    url = reverse("league:schedule", args=[match.week.season_id])
    factories.play_until_over(game, ann)
    body = client.get(url).content.decode()
    assert '<span class="game-flag badge--wait">to confirm</span>' in body
    dispute_raise(game=game, user=cat, claim="Our crib was 8, not 4.")
    body = client.get(url).content.decode()
    assert 'badge--wait">to confirm<' not in body
    assert '<span class="game-flag badge--disputed">disputed</span>' in body
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<span class="game-flag badge--disputed">contestée</span>' in french
    factories.confirmed_game(match, 2, match.home, 12)
    body = client.get(url).content.decode()
    assert body.count('class="game-flag') == 1  # the disputed game only
