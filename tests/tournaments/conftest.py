"""Fixture chains for tournaments: director -> club night -> checked-in field -> seated round."""

from __future__ import annotations

import pytest

from league.kernel.permissions import Trusted
from league.models import Player
from tests import factories
from tournaments import services
from tournaments.models import Entrant, TournamentStage


@pytest.fixture
def director(db):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import TOURNAMENT_DIRECTORS

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
            services.scorecard_enter(user=user_of(side), game=game, winner=w, loser_score=score)
    return rnd


TRUSTED = Trusted(None, "test")


def finished_night(name, entrants, *, rounds=3, wins=None, season=None, teams=None):
    """A night played to its champion: ``rounds`` qualifying rounds where the entrant named
    first in ``wins`` order beats the later one (by entry order when None), loser at 100;
    then the bracket, each playoff match won 2-0 by the one named first. ``teams`` (entrant
    name -> two player names) makes it a partnership night."""
    order = list(wins or entrants)
    t = services.tournament_create(
        user=TRUSTED,
        name=name,
        games_per_entrant=rounds,
        variant="partnership-121" if teams else "singles-121",
    )
    if season is not None:
        services.night_assign_season(user=TRUSTED, tournament=t, season=season)
    for e in entrants:
        services.entrant_register(
            user=TRUSTED, tournament=t, name=e, players=(teams or {}).get(e, ()), check_in=True
        )
    for _ in range(rounds):
        rnd = services.round_seat_next(user=TRUSTED, tournament=t)
        for g in rnd.games.select_related("first", "second"):
            w = g.first if order.index(g.first.name) < order.index(g.second.name) else g.second
            services.scorecard_settle(user=TRUSTED, game=g, winner=w, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    while True:
        match = t.playoff_matches.filter(winner__isnull=True, top__isnull=False).exclude(
            bottom__isnull=True
        )
        m = match.order_by("round", "position").first()
        if m is None:
            break
        w = m.top if order.index(m.top.name) < order.index(m.bottom.name) else m.bottom
        services.playoff_game_record(user=TRUSTED, match=m, winner=w, loser_score=90)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED
    return t
