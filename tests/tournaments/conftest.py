"""Fixture chains for tournaments: director -> club night -> checked-in field -> seated round."""

from __future__ import annotations

import pytest

from league.models import Player
from league.tournaments import services
from league.tournaments.models import Entrant
from tests import factories


@pytest.fixture
def director(db):
    from django.contrib.auth.models import Group

    from league.permissions import TOURNAMENT_DIRECTORS

    user = factories.UserFactory(username="dora", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    return user


@pytest.fixture
def night(director):
    return services.tournament_create(
        user=director, name="Crooked Peg Club Night", games_per_entrant=3, draw_seed=1114
    )


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus"]


@pytest.fixture
def field(night, director):
    """Seven checked-in entrants, each a player with an account (username = name, lowercase)."""
    out = []
    for name in NAMES:
        entrant = services.entrant_register(
            user=director, tournament=night, name=name, check_in=True
        )
        player = Player.objects.get(name=name)
        player.user = factories.UserFactory(username=name.lower())
        player.save()
        out.append(entrant)
    return out


def user_of(entrant: Entrant):
    return entrant.players.get().user


def play_round(night, director, *, winner_first=True, score=100):
    """Seat the next round and verify every table with two matching phone entries."""
    rnd = services.round_seat_next(user=director, tournament=night)
    for game in rnd.games.all():
        w = game.first if winner_first else game.second
        for side in (game.first, game.second):
            services.scorecard_submit(user=user_of(side), game=game, winner=w, loser_score=score)
    return rnd
