"""A seated player finds their table from the home page, and everyone finds the club nights
from the home page and the header."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.conftest import user_of
from tournaments import services


def test_the_home_page_and_the_header_lead_to_the_club_nights(client, db):
    html = client.get(reverse("league:home")).content.decode()
    link = reverse("tournaments:list")
    assert "data-club-nights" in html
    assert html.count(f'href="{link}"') == 2  # the header's and the page's
    assert "data-your-tables" not in html  # a visitor has no table


def test_a_seated_player_sees_their_table_and_the_card_to_fill(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    client.force_login(user_of(game.first))
    html = client.get(reverse("league:home")).content.decode()
    assert f"Your table: round 1, table {game.table}, against {game.second.name}" in html
    card = reverse("tournaments:scorecard", args=[game.pk])
    assert f'href="{card}"' in html
    # The card in, the link goes and the page says what the table waits for.
    services.scorecard_enter(user=user_of(game.first), game=game, winner=game.first, loser_score=90)
    html = client.get(reverse("league:home")).content.decode()
    assert f'href="{card}"' not in html and "waiting for your opponent" in html
    # Both in and agreeing: nothing left to do at that table.
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.first, loser_score=90
    )
    assert "data-your-tables" not in client.get(reverse("league:home")).content.decode()


def test_the_opponent_sees_it_from_their_side_in_french(client, night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.order_by("table").first()
    client.force_login(user_of(game.second))
    html = client.get(reverse("league:home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Votre table : tour 1, table {game.table}, contre {game.first.name}" in html
    assert "Soirées de club" in html
