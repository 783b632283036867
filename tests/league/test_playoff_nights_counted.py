"""The playoff minimum, as the league's sheet reads it: "each player must have played N nights".
A night the other team forfeited counts for the team that came, a cancelled night for both (a
season setting chooses; on by default); the page says which nights counted and why. And what
``forfeit_wins_week`` means: on, the team with more games wins the week; off, nobody does."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from league.models import Match, Season, Week
from league.selectors.playoffs import playoff_ineligible, playoff_shortfalls
from league.selectors.standings import compute_standings
from league.services.forfeits import match_forfeit
from league.services.postponements import week_cancel
from league.services.season_ops import season_ops_update
from tests.factories import confirmed_game

THURSDAY = dt.date(2026, 9, 3)


@pytest.fixture
def three_nights(season, home_team, away_team, other_team, league_admin, judge):
    """Fifteen Two's three nights, two nights required: week 1 played against Nobs; week 2 His
    Heels did not turn up (forfeit); week 3 cancelled (the bar flooded)."""
    weeks = [
        Week.objects.create(season=season, number=n, date=THURSDAY + dt.timedelta(weeks=n - 1))
        for n in (1, 2, 3)
    ]
    played = Match.objects.create(week=weeks[0], home=home_team, away=away_team)
    from league.models import GameSeat, Player

    game = confirmed_game(played, 1, home_team, 10)
    for number in range(2, season.games_per_match + 1):  # the match is over: Fifteen Two win
        confirmed_game(played, number, home_team, 5)
    for seat, name in enumerate(["Ann", "Cat", "Bob", "Dan"]):
        GameSeat.objects.create(game=game, seat=seat, player=Player.objects.get(name=name))
    no_show = Match.objects.create(week=weeks[1], home=home_team, away=other_team)
    match_forfeit(match=no_show, team=other_team, reason="His Heels did not come", user=judge)
    Match.objects.create(week=weeks[2], home=home_team, away=away_team)
    week_cancel(week=weeks[2], user=league_admin, reason="The bar flooded")
    season_ops_update(season=season, user=league_admin, changes={"playoff_min_nights": 3})
    return Season.objects.get(pk=season.pk)


def test_a_forfeited_and_a_cancelled_night_count_for_the_team_that_came(three_nights):
    # Ann and Bob sat on week 1; His Heels forfeited week 2; week 3 was cancelled.
    assert "Fifteen Two" not in playoff_shortfalls(three_nights)  # 1 played + 2 counted = 3


def test_the_team_that_forfeited_gets_no_night_for_it(three_nights):
    short = playoff_shortfalls(three_nights)
    assert [row[:2] for row in short["His Heels"]] == [("Eve", 0), ("Fay", 0)]


def test_with_the_setting_off_only_nights_at_a_table_count(three_nights, league_admin):
    season_ops_update(
        season=three_nights, user=league_admin, changes={"playoff_absent_nights_count": False}
    )
    short = playoff_shortfalls(Season.objects.get(pk=three_nights.pk))
    assert [row[:2] for row in short["Fifteen Two"]] == [("Ann", 1), ("Bob", 1)]


def test_the_page_says_which_nights_counted_and_why(client, three_nights, league_admin):
    Season.objects.filter(pk=three_nights.pk).update(playoff_min_nights=4)
    reasons = playoff_ineligible(Season.objects.get(pk=three_nights.pk))["teams"]
    ann = next(r for r in reasons if r.team == "Fifteen Two").reasons[0]
    assert ann == (
        "Ann played 3 of the 4 nights required (counted without playing: week 2: His Heels "
        "forfeited; week 3: cancelled)"
    )
    page = client.get(reverse("league:seeding", args=[three_nights.pk])).content.decode()
    assert "week 2: His Heels forfeited; week 3: cancelled" in page


def test_forfeit_wins_week_on_gives_the_team_that_came_the_week(three_nights):
    rows = {r["team"]: r for r in compute_standings(three_nights)["standings"]}
    assert rows["Fifteen Two"]["weeks_won"] == 2  # week 1 played, week 2 by the forfeit


def test_forfeit_wins_week_off_gives_nobody_the_week_though_the_games_count(
    three_nights, league_admin
):
    season_ops_update(season=three_nights, user=league_admin, changes={"forfeit_wins_week": False})
    rows = {
        r["team"]: r for r in compute_standings(Season.objects.get(pk=three_nights.pk))["standings"]
    }
    assert rows["Fifteen Two"]["weeks_won"] == 1  # week 1 only
    assert rows["Fifteen Two"]["won"] > 1  # the forfeited games still count as won


def test_the_rules_page_says_what_a_forfeit_does_to_the_week(client, three_nights, league_admin):
    page = client.get(reverse("league:rules") + f"?season={three_nights.pk}").content.decode()
    assert "After a forfeit, the team with more games, counting those given, wins the week." in page
    season_ops_update(season=three_nights, user=league_admin, changes={"forfeit_wins_week": False})
    page = client.get(reverse("league:rules") + f"?season={three_nights.pk}").content.decode()
    assert "A forfeited match wins nobody the week; its games still count." in page


def test_the_organisers_form_says_exactly_what_forfeit_wins_week_means(
    client, three_nights, league_admin
):
    client.force_login(league_admin)
    page = client.get(reverse("league:organise_season", args=[three_nights.pk])).content.decode()
    assert "even when the team that came had already won the games played" in page
    assert "Nights not played through no fault count for the playoffs" in page
