"""Luck on the league's confirmed deals: the season's sums are the sums of its hands, a team's
is its players', the week's luckiest cut, and the pages that show it (never the standings)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from contest.luck import cut_luck, expected_show
from league.models import Deal
from league.selectors.luck import luck_by_season, luckiest_cut
from league.selectors.stats import player_stats, team_stats
from league.services.games import game_confirm
from scoring.cards import Card
from tests.factories import play


@pytest.fixture
def confirmed(game, ann, match):
    played = play(game, ann, cards=True)
    return game_confirm(game=played, user=match.away.captain.user)


def hands_by_hand(game, seats):
    """Every show and crib of ``seats`` (a crib for its dealer), counted one by one."""
    cut = above = 0.0
    n = 0
    for deal in Deal.objects.filter(game=game, is_current=True):
        rows = [(deal.shows[k], deal.cards.get(k), False) for k in deal.shows if int(k) in seats]
        if deal.crib is not None and deal.dealer in seats:
            rows.append((deal.crib, deal.cards.get("crib"), True))
        for points, cards, crib in rows:
            n += 1
            above += points - expected_show(hand_size=4, crib=crib)
            hand = [Card.from_str(c) for c in cards]
            cut += cut_luck(hand, Card.from_str(deal.starter), crib=crib)
    return n, cut, above


def test_a_players_season_luck_is_the_sum_of_their_hands(confirmed, home_team):
    ann_player = home_team.captain
    [season] = luck_by_season(player_stats(ann_player)["stats"].hands)
    n, cut, above = hands_by_hand(confirmed, {0})  # Ann sits in seat 0
    assert season.season == confirmed.match.week.season
    assert season.luck.shows == season.luck.cut_shows == n > 0
    assert season.luck.cut == pytest.approx(cut)
    assert season.luck.above == pytest.approx(above)


def test_a_teams_luck_is_its_two_players(confirmed, home_team):
    [team] = luck_by_season(team_stats(home_team)["stats"].hands)
    n, cut, above = hands_by_hand(confirmed, {0, 2})
    assert team.luck.shows == n
    assert team.luck.cut == pytest.approx(cut)
    assert team.luck.above == pytest.approx(above)
    assert team.luck.best["cut"] >= max(0.0, cut / n)


def test_the_luckiest_cut_of_the_week_beats_every_hand(confirmed, week):
    best = luckiest_cut(week)
    everyone = [
        luck_by_season(player_stats(p)["stats"].hands)[0].luck.best["cut"]
        for p in {s.player for s in confirmed.seats.all()}
    ]
    assert best["cut"] == pytest.approx(max(everyone))
    assert best["game"].pk == confirmed.pk


def test_a_game_waiting_for_confirmation_brings_no_luck(game, ann, week):
    play(game, ann, cards=True)
    assert luckiest_cut(week) is None


def test_the_week_s_luckiest_cut_costs_two_queries(confirmed, week, django_assert_num_queries):
    with django_assert_num_queries(2):
        luckiest_cut(week)


def test_player_and_team_pages_show_luck_as_information(client, confirmed, home_team):
    for url in (
        reverse("league:player", args=[home_team.captain.pk]),
        reverse("league:team", args=[home_team.pk]),
    ):
        body = client.get(url).content.decode()
        assert "Luck of the cut" in body and "(information only)" in body
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        assert "Chance à la coupe" in french and "(à titre indicatif)" in french
    standings = client.get(reverse("league:standings", args=[home_team.season_id]))
    assert "Luck" not in standings.content.decode()


def test_the_schedule_names_the_week_s_luckiest_cut(client, confirmed, week):
    url = reverse("league:schedule", args=[week.season_id])
    body = client.get(url, {"week": week.number}).content.decode()
    best = luckiest_cut(week)
    assert "The luckiest cut of the week" in body
    assert f"{best['points']} (+{best['cut']:.1f} on its average over every starter)" in body
    french = client.get(url, {"week": week.number}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "La coupe la plus chanceuse de la semaine" in french
