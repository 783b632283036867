"""Fixture chains for the federation: regions -> clubs with members -> closed events -> the
people who send results up and review them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group

from federation.models import ClubRegion, Region
from federation.roles import FEDERATION_ADMINS, STATISTICIANS
from league.kernel.permissions import TOURNAMENT_DIRECTORS, Trusted
from league.models import Player
from tests import factories
from tournaments import services
from tournaments.models import Club, TournamentStage

TRUSTED = Trusted(None, "test")
# Eight players, each an ACC member with a number that is theirs at every club.
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
ACC = {name: str(1000 + i) for i, name in enumerate(NAMES)}


def in_group(user, name):
    user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


@pytest.fixture
def director(db):
    return in_group(factories.UserFactory(username="dora", is_staff=True), TOURNAMENT_DIRECTORS)


@pytest.fixture
def statistician(db):
    return in_group(factories.UserFactory(username="stan", is_staff=True), STATISTICIANS)


@pytest.fixture
def fed_admin(db):
    return in_group(factories.UserFactory(username="fay", is_staff=True), FEDERATION_ADMINS)


@pytest.fixture
def regions(db):
    return Region.objects.create(name="Atlantic"), Region.objects.create(name="Prairies")


@pytest.fixture
def clubs(regions, director):
    """Two clubs, one in each region, both directed by ``director``, all eight players members."""
    out = []
    for name, region in zip(("Crooked Peg", "Skunk Line"), regions, strict=True):
        club = services.club_create(user=TRUSTED, name=name)
        club.directors.add(director)
        ClubRegion.objects.create(club=club, region=region)
        for player in NAMES:
            p, _ = Player.objects.get_or_create(name=player)
            services.club_member_set(user=TRUSTED, club=club, player=p, acc_number=ACC[player])
        out.append(club)
    return out


def finished_event(
    name: str,
    *,
    club: Club,
    day: dt.date,
    kind: str = "main",
    games: int = 12,
    field=NAMES,
    deals=None,
):
    """An event played to its champion: the entrant named earlier beats the later one in every
    qualifying game (the loser on 100) and every playoff game (on 90). ``deals``: the first
    table of the first round is entered deal by deal by both sides instead (its winner is who
    the deals say)."""
    t = services.tournament_create(
        user=TRUSTED, name=name, date=day, kind=kind, games_per_entrant=games
    )
    t.club = club
    t.save()
    for e in field:
        services.entrant_register(
            user=TRUSTED, tournament=t, name=e, players=(Player.objects.get(name=e),), check_in=True
        )
    for number in range(games):
        rnd = services.round_seat_next(user=TRUSTED, tournament=t)
        for g in rnd.games.select_related("first", "second").order_by("table"):
            if deals is not None and number == 0 and g.table == 1:
                g = services.scorecard_enter(user=TRUSTED, game=g, side=g.first, deals=deals)[0]
                card = g.scorecards.get()
                services.scorecard_enter(
                    user=TRUSTED,
                    game=g,
                    side=g.second,
                    winner=card.winner,
                    loser_score=card.loser_score,
                )
                continue
            w = g.first if field.index(g.first.name) < field.index(g.second.name) else g.second
            services.scorecard_settle(user=TRUSTED, game=g, winner=w, loser_score=100)
    services.bracket_draw(user=TRUSTED, tournament=t)
    while True:
        m = (
            t.playoff_matches.filter(winner__isnull=True, top__isnull=False)
            .exclude(bottom__isnull=True)
            .order_by("round", "position")
            .first()
        )
        if m is None:
            break
        w = m.top if field.index(m.top.name) < field.index(m.bottom.name) else m.bottom
        services.playoff_game_record(user=TRUSTED, match=m, winner=w, loser_score=90)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED
    return t
