"""Team and player statistics, worked out from the deals of confirmed games."""

from __future__ import annotations

import pytest

from league.models import Deal, GameSeat
from league.selectors.stats import player_stats, team_stats
from league.services.games import game_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed(finished_game, match):
    return game_confirm(game=finished_game, user=match.away.captain.user)


def expected(game, seats: set[int], side: int) -> dict:
    shows = cribs = pegging = 0
    show_count = crib_count = 0
    deals = list(Deal.objects.filter(game=game, is_current=True))
    for deal in deals:
        pegging += deal.pegging[side]
        for seat, points in deal.shows.items():
            if int(seat) in seats:
                shows += points
                show_count += 1
        if deal.crib is not None and deal.dealer in seats:
            cribs += deal.crib
            crib_count += 1
    return {
        "deals": len(deals),
        "average_show": shows / show_count,
        "average_crib": cribs / crib_count,
        "pegging_per_deal": pegging / len(deals),
    }


def test_team_stats_count_the_teams_shows_cribs_and_pegging(confirmed, home_team):
    stats = team_stats(home_team)["stats"]
    side = confirmed.home_side
    want = expected(confirmed, {0, 2} if side == 0 else {1, 3}, side)
    assert stats.games == 1
    assert stats.wins == (1 if confirmed.winner_id == home_team.pk else 0)
    assert stats.deals == want["deals"]
    assert stats.average_show == pytest.approx(want["average_show"])
    assert stats.average_crib == pytest.approx(want["average_crib"])
    assert stats.pegging_per_deal == pytest.approx(want["pegging_per_deal"])


def test_player_stats_count_their_own_hands(confirmed, home_team):
    ann = home_team.captain
    seat = GameSeat.objects.get(game=confirmed, player=ann).seat
    stats = player_stats(ann)["stats"]
    want = expected(confirmed, {seat}, seat % 2)
    assert stats.average_show == pytest.approx(want["average_show"])
    assert stats.average_crib == pytest.approx(want["average_crib"])


def test_best_hands_come_first_with_their_cards(confirmed, home_team):
    best = team_stats(home_team)["stats"].best_hands
    assert best == sorted(best, key=lambda h: -h["points"])
    assert len(best) <= 5
    assert all(h["cards"] and len(h["cards"]) == 4 for h in best)  # entered with the cards


def test_skunks_and_28_29_hands_are_counted(confirmed, home_team, away_team):
    Deal.objects.filter(game=confirmed, number=1).update(shows={"1": 29, "2": 28, "3": 4, "0": 12})
    home, away = team_stats(home_team)["stats"], team_stats(away_team)["stats"]
    assert home.hands_28 + away.hands_28 >= 1
    assert home.hands_29 + away.hands_29 >= 1
    assert {h["points"] for h in home.big_hands + away.big_hands} >= {28, 29}
    if confirmed.skunk_level:
        winner = home if confirmed.winner_id == home_team.pk else away
        loser = away if winner is home else home
        assert (winner.skunks, loser.skunked) == (1, 1)


def test_unconfirmed_games_do_not_count(finished_game, home_team):
    stats = team_stats(home_team)["stats"]
    assert stats.games == 0
    assert stats.average_show is None


def test_team_page_shows_the_statistics(client, confirmed, home_team):
    body = client.get(f"/teams/{home_team.pk}/").content.decode()
    assert "Average show" in body and "Best hands" in body and "29 hands" in body
