"""Fixtures for the web pages: games played through the services, a venue, logged-in clients."""

from __future__ import annotations

import random

import pytest

from league import models
from league.services.demo import random_game_deals
from league.services.games import deal_record, game_start
from tests import factories


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def venue(db):
    return models.Venue.objects.create(name="The Crooked Peg")


@pytest.fixture
def venue_week(week, venue):
    week.venue = venue
    week.save()
    return week


def game_deals(game, *, seed: int = 7) -> list[dict]:
    """A whole legal game for ``game``'s seats and first dealer (the same for the same seed)."""
    league = game.match.week.season.league
    return random_game_deals(random.Random(seed), league.variant, game.first_dealer, league.target)


def play(
    game, user, *, seed: int = 7, deals: int | None = None, start: int = 1, cards: bool = False
):
    """Enter deals ``start``..``deals`` (to the end, by default) of a legal game (the service)."""
    data = game_deals(game, seed=seed)
    for number, deal in enumerate(data[start - 1 : deals], start=start):
        if not cards:
            deal = {k: v for k, v in deal.items() if k != "cards"}
        deal_record(game=game, user=user, number=number, data=deal)
    game.refresh_from_db()
    return game


@pytest.fixture
def finished_game(game, ann):
    """Game 1 played to the end by Ann (home captain), with the cards: waiting for Nobs."""
    return play(game, ann, cards=True)


@pytest.fixture
def half_game(game, ann):
    """Game 1 after three deals."""
    return play(game, ann, deals=3)


@pytest.fixture
def more_tables(venue_week, season):
    """Two more tables in the same week, each with a game under way."""
    games = []
    for table in (2, 3):
        home = factories.TeamFactory(season=season, name=f"Home {table}")
        away = factories.TeamFactory(season=season, name=f"Away {table}")
        match = models.Match.objects.create(week=venue_week, home=home, away=away, table=table)
        captain = home.captain.user
        seats = [home.captain, away.captain, *home.players.exclude(pk=home.captain_id)]
        seats.append(*away.players.exclude(pk=away.captain_id))
        game = game_start(match=match, user=captain, seats=seats, first_dealer=1)
        games.append(play(game, captain, seed=table, deals=2))
    return games
