"""The Legion's ladder: a zone's cup winner is entered into the provincial league by the
provincial organiser, with its captain and list, and plays the provincial cup."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.kernel.errors import Conflict, Locked, NotAllowed
from teamleagues import cups, services
from teamleagues.models import Team
from tests.teamleagues.conftest import (
    POTTERS_BAR,
    SMALL_BOARDS,
    TRUSTED,
    make_team,
    sheet,
    small_lineup,
)

pytestmark = pytest.mark.django_db


def win(fixture, teams, side):
    for t in (teams[fixture.home.name], teams[fixture.away.name]):
        services.boards_name(user=t.captain, fixture=fixture, names=small_lineup(t))
    legs = sheet({1: (side, "2-0"), 2: (side, "2-0")})
    for t in (teams[fixture.home.name], teams[fixture.away.name]):
        services.sheet_enter(user=t.captain, fixture=fixture, legs=legs)


def test_a_zone_winner_goes_up_to_the_provincial_cup(organiser):
    provincial_organiser = get_user_model().objects.create_user(
        username="prov", password="x-y-z-1234"
    )
    settings = {**POTTERS_BAR, "team_size": 3}
    provincial = services.league_set(
        user=TRUSTED,
        name="Provincial",
        boards=SMALL_BOARDS,
        organisers=[provincial_organiser],
        **settings,
    )
    zone = services.league_set(
        user=TRUSTED,
        name="Zone 4",
        boards=SMALL_BOARDS,
        organisers=[organiser],
        feeds=provincial,
        **settings,
    )
    teams = {n: make_team(zone, n) for n in ("Branch 1", "Branch 2")}
    season = services.season_create(
        user=organiser,
        league=zone,
        name="2027",
        divisions=[("Zone", [t.team for t in teams.values()])],
        promoted=0,
        relegated=0,
    )
    cup = cups.cup_create(
        user=organiser,
        season=season,
        name="Zone final",
        teams=[t.team for t in teams.values()],
        seeded=True,
    )
    with pytest.raises(Locked, match="no winner yet"):
        cups.qualifier_enter(user=provincial_organiser, cup=cup, into=provincial)
    win(cup.rounds.get().fixtures.get(), teams, "away")  # Branch 2 wins the zone
    with pytest.raises(NotAllowed):
        cups.qualifier_enter(user=organiser, cup=cup, into=provincial)
    team = cups.qualifier_enter(user=provincial_organiser, cup=cup, into=provincial)
    assert (team.league, team.name, team.captain) == (
        provincial,
        "Branch 2",
        teams["Branch 2"].team.captain,
    )
    assert sorted(m.player.name for m in team.members.all()) == sorted(
        m.player.name for m in teams["Branch 2"].team.members.all()
    )
    assert team.qualification.cup == cup
    with pytest.raises(Conflict, match="already entered"):
        cups.qualifier_enter(user=provincial_organiser, cup=cup, into=provincial)
    # The ladder goes one way: the zone takes no provincial winners.
    with pytest.raises(Locked, match="does not qualify into"):
        cups.qualifier_enter(user=organiser, cup=cup, into=zone)
    # The provincial organiser draws their cup with the zone's winner in it.
    other = make_team(provincial, "Branch 9")
    prov_season = services.season_create(
        user=provincial_organiser,
        league=provincial,
        name="2027",
        divisions=[("All", [team, other.team])],
        promoted=0,
        relegated=0,
    )
    prov_cup = cups.cup_create(
        user=provincial_organiser,
        season=prov_season,
        name="Provincial",
        teams=[team, other.team],
        seeded=True,
    )
    assert prov_cup.rounds.get().fixtures.get().home == team
    assert Team.objects.filter(name="Branch 2").count() == 2
