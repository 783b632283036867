"""Fixtures for the web pages: games played through the services, a venue, logged-in clients."""

from __future__ import annotations

import pytest

from league import models
from league.services.games import game_start
from tests import factories
from tests.factories import play


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
