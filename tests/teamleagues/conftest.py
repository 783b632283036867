"""Team leagues built through their services: the Potters Bar format (9 boards, 5 pairs then
4 singles, each the best of 3 legs to 121), teams of ten players and two reserves whose
captains have accounts, and helpers that name a match's boards and enter its sheets."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from league.kernel.permissions import Trusted
from league.models import Player
from teamleagues import services

TRUSTED = Trusted(None, "test")
POTTERS_BAR_BOARDS = [("pairs", "five-card")] * 5 + [("singles", "six-card")] * 4
POTTERS_BAR = {
    "team_size": 10,
    "reserves": 2,
    "legs_per_board": 3,
    "best_of": True,
    "target": 121,
    "points_per_leg": 1,
    "points_per_board": 0,
    "points_win": 2,
    "points_draw": 1,
    "decided_by": "legs",
    "naming": "same_pair",
}


def make_team(league, name: str):
    """A team "name" of players "name p1".."name p10" and reserves "name r1", "name r2"; its
    captain, "name p1", signs in as "cap-name"."""
    User = get_user_model()
    user = User.objects.create_user(username=f"cap-{name.lower()}", password="pass-word-123")
    players = [Player.objects.create(name=f"{name} p{i}") for i in range(1, 11)]
    players[0].user = user
    players[0].save()
    reserves = [Player.objects.create(name=f"{name} r{i}") for i in (1, 2)]
    team = services.team_set(
        user=TRUSTED,
        league=league,
        name=name,
        venue=f"The {name} Arms",
        captain=players[0],
        players=players,
        reserves=reserves,
    )
    return SimpleNamespace(team=team, captain=user, players=players, reserves=reserves)


def lineup(t, *, reserve_on_board5: bool = False) -> dict[int, list]:
    """Boards 1-5 pairs (p1+p2 .. p9+p10), boards 6-9 singles (p1..p4)."""
    p = t.players
    names = {i + 1: [p[2 * i], p[2 * i + 1]] for i in range(5)}
    names.update({6 + i: [p[i]] for i in range(4)})
    if reserve_on_board5:
        names[5] = [p[8], t.reserves[0]]
    return names


def sheet(outcomes: dict[int, tuple[str, str]], *, loser_score: int = 100) -> list:
    """Legs from each board's outcome: (winner side, "2-0" or "2-1"); a 2-1 board is won,
    lost, won."""
    legs = []
    for board, (winner, score) in sorted(outcomes.items()):
        loser = "away" if winner == "home" else "home"
        order = [winner, winner] if score == "2-0" else [winner, loser, winner]
        legs.extend((board, n, w, loser_score) for n, w in enumerate(order, start=1))
    return legs


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser", password="pass-word-123")


@pytest.fixture
def potters_bar(db, organiser):
    """The league with its format; ``make(name)`` adds a team."""
    league = services.league_set(
        user=TRUSTED,
        name="Potters Bar & District",
        boards=POTTERS_BAR_BOARDS,
        organisers=[organiser],
        **POTTERS_BAR,
    )
    return SimpleNamespace(league=league, make=lambda name: make_team(league, name))


@pytest.fixture
def helpers():
    return SimpleNamespace(lineup=lineup, sheet=sheet, trusted=TRUSTED)


SMALL_BOARDS = [("pairs", "five-card"), ("singles", "six-card")]


def small_lineup(t) -> dict[int, list]:
    return {1: t.players[:2], 2: [t.players[2]]}


def small_season(organiser, *, league_name: str = "Rye & District", playoffs: bool = False):
    """Two divisions of three (Top: T1-T3, Bottom: U1-U3), matches of a pairs board and a
    singles board, each the best of 3 legs; 1 up, 1 down. Every match is played (the lower
    number wins each board 2-0) but U1 v U2, at U1, left for the test."""
    league = services.league_set(
        user=TRUSTED,
        name=league_name,
        boards=SMALL_BOARDS,
        organisers=[organiser],
        **{**POTTERS_BAR, "team_size": 3},
    )
    teams = {n: make_team(league, n) for n in ("T1", "T2", "T3", "U1", "U2", "U3")}
    season = services.season_create(
        user=organiser,
        league=league,
        name="2026",
        divisions=[
            ("Top", [teams[n].team for n in ("T1", "T2", "T3")]),
            ("Bottom", [teams[n].team for n in ("U1", "U2", "U3")]),
        ],
        promoted=1,
        relegated=1,
        tiebreaks=["legs_difference", "draw"],
        playoffs=playoffs,
    )
    import datetime as dt

    from teamleagues.models import Fixture

    for division in season.divisions.all():
        services.fixtures_make(user=organiser, division=division, first=dt.date(2026, 9, 3))
    left = None
    for fixture in Fixture.objects.filter(season=season).select_related("home", "away"):
        home, away = fixture.home.name, fixture.away.name
        if (home, away) == ("U1", "U2"):
            left = fixture
            continue
        for name in (home, away):
            services.boards_name(
                user=teams[name].captain, fixture=fixture, names=small_lineup(teams[name])
            )
        winner = "home" if int(home[1]) < int(away[1]) else "away"
        legs = sheet({1: (winner, "2-0"), 2: (winner, "2-0")})
        for name in (home, away):
            services.sheet_enter(user=teams[name].captain, fixture=fixture, legs=legs)
    return SimpleNamespace(league=league, teams=teams, season=season, left=left)
