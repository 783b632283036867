"""A knockout cup and its plate, worked by hand: eight teams seeded 1 to 8 meet 1v8, 4v5, 3v6,
2v7 (the one seed order: 1 and 2 meet only in the final); the first round's losers go into the
plate, drawn by tickets anyone can recompute; every round dated; both played to their finals."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from league.kernel.errors import Conflict, Locked
from teamleagues import cups, services
from teamleagues.models import Fixture

SEED = 77


def play(fixture, teams, helpers, *, winner=None, level=False):
    """Both captains name and enter the match: ``winner`` ("home"/"away") takes every board
    2-0; ``level``: 12 legs each, home 5 boards to 4 (A4 v A5 of the season test)."""
    home, away = teams[fixture.home.name], teams[fixture.away.name]
    for t in (home, away):
        services.boards_name(user=t.captain, fixture=fixture, names=helpers.lineup(t))
    if level:
        outcome = {1: ("home", "2-0"), **{b: ("home", "2-1") for b in (2, 3, 4, 5)}}
        outcome.update(
            {6: ("away", "2-0"), 7: ("away", "2-0"), 8: ("away", "2-1"), 9: ("away", "2-1")}
        )
    else:
        outcome = {b: (winner, "2-0") for b in range(1, 10)}
    legs = helpers.sheet(outcome)
    services.sheet_enter(user=home.captain, fixture=fixture, legs=legs)
    services.sheet_enter(user=away.captain, fixture=fixture, legs=legs)


def pairs(cup_round):
    return [(f.home.name, f.away.name) for f in cup_round.fixtures.order_by("slot")]


@pytest.fixture
def season(potters_bar, organiser):
    teams = {f"T{i}": potters_bar.make(f"T{i}") for i in range(1, 9)}
    season = services.season_create(
        user=organiser,
        league=potters_bar.league,
        name="2026",
        divisions=[("Only", [t.team for t in teams.values()])],
        promoted=0,
        relegated=0,
        draw_seed=SEED,
    )
    return season, teams


def test_a_seeded_cup_and_its_plate_to_their_finals(season, organiser, helpers):
    season, teams = season
    cup = cups.cup_create(
        user=organiser,
        season=season,
        name="Charity Cup",
        teams=[teams[f"T{i}"].team for i in range(1, 9)],
        seeded=True,
        first_round=dt.date(2026, 10, 1),
        plate_name="Charity Plate",
    )
    r1 = cup.rounds.get(number=1)
    assert r1.date == dt.date(2026, 10, 1)
    assert pairs(r1) == [("T1", "T8"), ("T4", "T5"), ("T3", "T6"), ("T2", "T7")]
    with pytest.raises(Locked, match="round 1 needs a winner"):
        cups.cup_next_round(user=organiser, cup=cup)
    f = {x.home.name: x for x in r1.fixtures.all()}
    play(f["T1"], teams, helpers, winner="home")
    play(f["T4"], teams, helpers, winner="away")  # T5 knocks out T4
    play(f["T3"], teams, helpers, level=True)  # 12 legs each: T3 through on boards, 5 to 4
    play(f["T2"], teams, helpers, winner="home")
    r2 = cups.cup_next_round(user=organiser, cup=cup, on=dt.date(2026, 11, 5))
    assert (r2.number, r2.date) == (2, dt.date(2026, 11, 5))
    assert pairs(r2) == [("T1", "T5"), ("T3", "T2")]

    # The plate: T8, T4, T6 and T7 drawn by their tickets, sha256("77:Charity Plate:Tn").
    plate = cup.plate
    r1p = cups.cup_next_round(user=organiser, cup=plate, on=dt.date(2026, 11, 12))
    ticket = {
        n: hashlib.sha256(f"{SEED}:Charity Plate:{n}".encode()).hexdigest()
        for n in ("T8", "T4", "T6", "T7")
    }
    drawn = sorted(ticket, key=ticket.get, reverse=True)  # seeds 1..4
    assert pairs(r1p) == [(drawn[0], drawn[3]), (drawn[1], drawn[2])]
    for fx in r1p.fixtures.all():
        play(fx, teams, helpers, winner="away")
    plate_final = cups.cup_next_round(user=organiser, cup=plate, on=dt.date(2027, 1, 7))
    assert pairs(plate_final) == [(drawn[3], drawn[2])]
    play(plate_final.fixtures.get(), teams, helpers, winner="home")
    assert cups.cup_winner(plate).name == drawn[3]

    f2 = {x.home.name: x for x in r2.fixtures.all()}
    play(f2["T1"], teams, helpers, winner="home")
    play(f2["T3"], teams, helpers, winner="away")
    final = cups.cup_next_round(user=organiser, cup=cup, on=dt.date(2027, 2, 4))
    assert pairs(final) == [("T1", "T2")] and final.date == dt.date(2027, 2, 4)
    assert cups.cup_winner(cup) is None
    play(final.fixtures.get(), teams, helpers, winner="away")
    assert cups.cup_winner(cup).name == "T2"
    with pytest.raises(Locked, match="cup is won"):
        cups.cup_next_round(user=organiser, cup=cup)
    # Cup matches are in no division's table.
    assert not Fixture.objects.filter(cup_round__isnull=False, division__isnull=False).exists()


def test_byes_go_to_the_top_seeds_and_a_forfeit_counts_in_a_cup_tie(season, organiser, helpers):
    season, teams = season
    six = [teams[f"T{i}"].team for i in range(1, 7)]
    cup = cups.cup_create(user=organiser, season=season, name="Six", teams=six, seeded=True)
    r1 = cup.rounds.get()
    # Eight places for six: seeds 1 and 2 have byes; 4v5 and 3v6 play.
    assert pairs(r1) == [("T4", "T5"), ("T3", "T6")]
    f = {x.home.name: x for x in r1.fixtures.all()}
    play(f["T4"], teams, helpers, winner="home")
    # T3 and T6 share boards 1-8 (2-0 each, 8 legs each); T3 forfeits board 9: T6 through.
    home, away = teams["T3"], teams["T6"]
    services.board_forfeit(user=home.captain, fixture=f["T3"], board=9)
    for t in (home, away):
        names = helpers.lineup(t)
        del names[9]
        services.boards_name(user=t.captain, fixture=f["T3"], names=names)
    legs = helpers.sheet({b: ("home" if b % 2 else "away", "2-0") for b in range(1, 9)})
    services.sheet_enter(user=home.captain, fixture=f["T3"], legs=legs)
    services.sheet_enter(user=away.captain, fixture=f["T3"], legs=legs)
    with pytest.raises(Conflict, match="has a winner"):
        services.match_decide(user=organiser, fixture=f["T3"], side="home")
    r2 = cups.cup_next_round(user=organiser, cup=cup)
    assert pairs(r2) == [("T1", "T4"), ("T6", "T2")]
