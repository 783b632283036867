"""A Potters Bar season worked by hand: two divisions of eight, home and away, 9-board matches
(5 pairs, 4 singles) each the best of 3 legs, a leg worth a point and the match 2 (a draw 1),
the match won on legs. The tables below are worked out on paper from the results played, not
by the code under test; then 2 go up and 2 come down and next season's divisions are exact.

The results: in every match the team with the lower number wins each board 2-1, except
- A4 v A5 (at A4): A4 wins board 1 2-0 and boards 2-5 2-1, A5 boards 6-7 2-0 and 8-9 2-1:
  12 legs each, a draw (13 points each);
- A2 v A7 (at A2): A2 cannot raise a singles player for board 6 and forfeits it (A7 takes
  it 2-0); A2 wins the other eight 2-1: 16 legs to 10;
- A3 v A6 (at A3): A3's reserve r1 plays board 5 with p9;
- B7 v B6 (at B7): B7 wins every board 2-1 (the upset leaves them level on everything, so the
  draw, the last tie-break, places them).

So a match the stronger side wins normally is 18 legs to 9, boards 9-0, points 20 to 9.
"""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from league.kernel.errors import Locked, ValidationFailed
from teamleagues import selectors, services
from teamleagues.models import BoardPlayer, Entry, Fixture

SEED = 2026
CHAIN = ["legs_difference", "legs_for", "head_to_head", "draw"]

# name: played, won, drawn, lost, legs for, legs against, boards for, boards against, points
DIVISION_1 = [
    ("A1", 14, 14, 0, 0, 252, 126, 126, 0, 280),
    ("A2", 14, 12, 0, 2, 232, 145, 107, 19, 256),
    ("A3", 14, 10, 0, 4, 216, 162, 90, 36, 236),
    ("A4", 14, 7, 1, 6, 192, 183, 68, 58, 207),
    ("A5", 14, 6, 1, 7, 183, 192, 58, 68, 196),
    ("A6", 14, 4, 0, 10, 162, 216, 36, 90, 170),
    ("A7", 14, 2, 0, 12, 145, 232, 19, 107, 149),
    ("A8", 14, 0, 0, 14, 126, 252, 0, 126, 126),
]
B_LEVEL = (14, 3, 0, 11, 153, 225, 27, 99, 159)
# B6 and B7 are level on points, legs difference, legs won and head to head (29 each): the
# draw's tickets, sha256 of "seed:name", the higher first.
B6_FIRST = (
    hashlib.sha256(f"{SEED}:B6".encode()).hexdigest()
    > hashlib.sha256(f"{SEED}:B7".encode()).hexdigest()
)
DIVISION_2 = [
    ("B1", 14, 14, 0, 0, 252, 126, 126, 0, 280),
    ("B2", 14, 12, 0, 2, 234, 144, 108, 18, 258),
    ("B3", 14, 10, 0, 4, 216, 162, 90, 36, 236),
    ("B4", 14, 8, 0, 6, 198, 180, 72, 54, 214),
    ("B5", 14, 6, 0, 8, 180, 198, 54, 72, 192),
    *[(n, *B_LEVEL) for n in (["B6", "B7"] if B6_FIRST else ["B7", "B6"])],
    ("B8", 14, 0, 0, 14, 126, 252, 0, 126, 126),
]


def outcomes(home: str, away: str) -> dict[int, tuple[str, str]]:
    if (home, away) == ("A4", "A5"):
        return {
            1: ("home", "2-0"),
            **{b: ("home", "2-1") for b in (2, 3, 4, 5)},
            6: ("away", "2-0"),
            7: ("away", "2-0"),
            8: ("away", "2-1"),
            9: ("away", "2-1"),
        }
    if (home, away) == ("B7", "B6"):
        return {b: ("home", "2-1") for b in range(1, 10)}
    stronger = "home" if int(home[1]) < int(away[1]) else "away"
    out = {b: (stronger, "2-1") for b in range(1, 10)}
    if (home, away) == ("A2", "A7"):
        del out[6]
    return out


def row_of(r):
    return (
        r.name,
        r.played,
        r.won,
        r.drawn,
        r.lost,
        r.legs_for,
        r.legs_against,
        r.boards_for,
        r.boards_against,
        r.points,
    )


@pytest.mark.django_db
def test_a_two_division_season_its_tables_and_next_seasons_divisions(
    potters_bar, organiser, helpers
):
    teams = {
        n: potters_bar.make(n)
        for n in [f"A{i}" for i in range(1, 9)] + [f"B{i}" for i in range(1, 9)]
    }
    season = services.season_create(
        user=organiser,
        league=potters_bar.league,
        name="2026-27",
        divisions=[
            ("Division One", [teams[f"A{i}"].team for i in range(1, 9)]),
            ("Division Two", [teams[f"B{i}"].team for i in range(1, 9)]),
        ],
        promoted=2,
        relegated=2,
        tiebreaks=CHAIN,
        draw_seed=SEED,
    )
    one, two = season.divisions.order_by("level")
    for division in (one, two):
        made = services.fixtures_make(
            user=organiser, division=division, first=dt.date(2026, 9, 10), days_between=7
        )
        assert len(made) == 56  # 8 teams, each at home to the other 7
        pairs = {(f.home.name, f.away.name) for f in made}
        assert len(pairs) == 56 and all((a, h) in pairs for h, a in pairs)
        assert {f.date for f in made} == {
            dt.date(2026, 9, 10) + dt.timedelta(weeks=w) for w in range(14)
        }

    fixtures = Fixture.objects.filter(season=season).select_related("home", "away")
    for fixture in fixtures:
        home, away = fixture.home.name, fixture.away.name
        results = outcomes(home, away)
        if (home, away) == ("A2", "A7"):
            services.board_forfeit(user=teams["A2"].captain, fixture=fixture, board=6)
        for name, side in ((home, "home"), (away, "away")):
            names = helpers.lineup(
                teams[name],
                reserve_on_board5=(home, away, side)
                == (
                    "A3",
                    "A6",
                    "home",
                ),
            )
            if (home, away) == ("A2", "A7"):
                del names[6]
            services.boards_name(user=teams[name].captain, fixture=fixture, names=names)
        legs = helpers.sheet(results)
        services.sheet_enter(user=teams[home].captain, fixture=fixture, legs=legs)
        services.sheet_enter(user=teams[away].captain, fixture=fixture, legs=legs)

    # The reserve is on the sheet as a reserve.
    a3a6 = fixtures.get(home__name="A3", away__name="A6")
    reserve = BoardPlayer.objects.get(board__fixture=a3a6, player=teams["A3"].reserves[0])
    assert reserve.reserve and reserve.board.number == 5 and reserve.side == "home"
    # The draw and the forfeit, as matches.
    draw = selectors.match_result(
        selectors.fixture_detail(fixtures.get(home__name="A4", away__name="A5").pk)
    )
    assert (draw.result, draw.home_legs, draw.away_legs, draw.home_points, draw.away_points) == (
        "draw",
        12,
        12,
        13,
        13,
    )
    walk = selectors.match_result(
        selectors.fixture_detail(fixtures.get(home__name="A2", away__name="A7").pk)
    )
    assert (walk.result, walk.home_legs, walk.away_legs, walk.home_boards, walk.away_boards) == (
        "home",
        16,
        10,
        8,
        1,
    )

    tables = selectors.division_tables(season)
    assert [row_of(r) for r in tables[0].rows] == DIVISION_1
    assert [row_of(r) for r in tables[1].rows] == DIVISION_2
    assert [r.position for r in tables[1].rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r.placed_by for r in tables[1].rows if r.name in ("B6", "B7")] == ["draw", "draw"]

    nxt = services.season_close(user=organiser, season=season, next_name="2027-28")

    divisions = [
        sorted(e.team.name for e in d.entries.select_related("team"))
        for d in nxt.divisions.order_by("level")
    ]
    assert divisions == [
        ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2"],
        ["A7", "A8", "B3", "B4", "B5", "B6", "B7", "B8"],
    ]
    moved = {e.team.name: (e.position, e.moved) for e in Entry.objects.filter(season=season)}
    assert moved["A7"] == (7, "down") and moved["A8"] == (8, "down")
    assert moved["B1"] == (1, "up") and moved["B2"] == (2, "up")
    assert moved["A6"] == (6, "") and moved["B3"] == (3, "")
    # The team's history across divisions, newest first.
    history = selectors.team_history(teams["B2"].team)
    assert [(h.season.name, h.division.name, h.position, h.moved) for h in history] == [
        ("2027-28", "Division One", None, ""),
        ("2026-27", "Division Two", 2, "up"),
    ]
    # Closed: its matches stay as they are, and it closes once.
    with pytest.raises(Locked):
        services.season_close(user=organiser, season=season, next_name="2028-29")
    with pytest.raises(Locked):
        services.board_forfeit(user=organiser, fixture=a3a6, board=1, side="home")
    # Next season has the same settings and no fixtures yet: the organiser dates them.
    assert (nxt.promoted, nxt.relegated, nxt.tiebreaks) == (2, 2, CHAIN)
    assert not Fixture.objects.filter(season=nxt).exists()
    with pytest.raises(ValidationFailed):
        services.season_close(user=organiser, season=nxt, next_name="  ")
