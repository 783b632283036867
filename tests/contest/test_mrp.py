"""Master Rating Points against hand-worked values: every row of the shipped schedule, both
halves of the qualifiers, each playoff round, and a schedule that changes mid-season."""

from __future__ import annotations

from datetime import date

import pytest

from contest.mrp import (
    DEFAULT_SCHEDULE,
    Award,
    EventKind,
    KindRates,
    NoScheduleInForce,
    Qualifier,
    Schedule,
    UnknownGameCount,
    event_points,
    schedule_in_force,
)

# Each row: qualifying games, the top qualifier's game points (all games won but one: 2g - 2),
# and what they earn worked by hand: factor x (game points - minimum + 1).
MAIN_ROWS = [
    (12, 22, 45),  # 5 x (22 - 14 + 1)
    (13, 24, 50),  # 5 x (24 - 15 + 1)
    (14, 26, 50),  # 5 x (26 - 17 + 1)
    (15, 28, 55),  # 5 x (28 - 18 + 1)
    (16, 30, 60),  # 5 x (30 - 19 + 1)
    (17, 32, 60),  # 5 x (32 - 21 + 1)
    (18, 34, 65),  # 5 x (34 - 22 + 1)
    (19, 36, 70),  # 5 x (36 - 23 + 1)
    (20, 38, 75),  # 5 x (38 - 24 + 1)
    (21, 40, 75),  # 5 x (40 - 26 + 1)
    (22, 42, 80),  # 5 x (42 - 27 + 1)
]
CONSOLATION_ROWS = [
    (7, 12, 12),  # 3 x (12 - 9 + 1)
    (8, 14, 15),  # 3 x (14 - 10 + 1)
    (9, 16, 15),  # 3 x (16 - 12 + 1)
    (10, 18, 18),  # 3 x (18 - 13 + 1)
    (11, 20, 18),  # 3 x (20 - 15 + 1)
    (12, 22, 21),  # 3 x (22 - 16 + 1)
]


def four_qualifiers(top_points: int) -> list[Qualifier]:
    return [
        Qualifier("top", game_points=top_points),
        Qualifier("second", game_points=top_points - 1),
        Qualifier("third", game_points=top_points - 2),
        Qualifier("fourth", game_points=top_points - 3),
    ]


def test_the_shipped_schedule_has_exactly_the_rows_tested():
    assert [g for g, _ in DEFAULT_SCHEDULE.main.minimums] == [g for g, _, _ in MAIN_ROWS]
    assert [g for g, _ in DEFAULT_SCHEDULE.consolation.minimums] == [
        g for g, _, _ in CONSOLATION_ROWS
    ]
    assert DEFAULT_SCHEDULE.effective_from == date(2016, 8, 1)
    assert "checked against the ACC's chart" in DEFAULT_SCHEDULE.source


@pytest.mark.parametrize(("games", "top_points", "expected"), MAIN_ROWS)
def test_a_main_events_top_qualifier_earns_five_per_game_point_over_the_minimum(
    games, top_points, expected
):
    awards = event_points(
        DEFAULT_SCHEDULE, kind=EventKind.MAIN, games=games, qualifiers=four_qualifiers(top_points)
    )
    assert awards[0].qualifying == expected
    assert awards[1].qualifying == expected - 5  # one game point fewer
    assert [a.qualifying for a in awards[2:]] == [5, 5]  # the bottom half: flat


@pytest.mark.parametrize(("games", "top_points", "expected"), CONSOLATION_ROWS)
def test_a_consolations_top_qualifier_earns_three_per_game_point_over_the_minimum(
    games, top_points, expected
):
    awards = event_points(
        DEFAULT_SCHEDULE,
        kind=EventKind.CONSOLATION,
        games=games,
        qualifiers=four_qualifiers(top_points),
    )
    assert awards[0].qualifying == expected
    assert awards[1].qualifying == expected - 3
    assert [a.qualifying for a in awards[2:]] == [3, 3]


def test_a_whole_main_event_with_its_playoffs_worked_by_hand():
    # 12 games (minimum 14), 8 qualifiers in final standings order.
    standings = [("A", 22, 1), ("B", 20, 3), ("C", 19, 0), ("D", 17, 2)]
    standings += [("E", 16, 0), ("F", 16, 1), ("G", 15, 0), ("H", 14, 0)]
    awards = event_points(
        DEFAULT_SCHEDULE,
        kind=EventKind.MAIN,
        games=12,
        qualifiers=[Qualifier(n, game_points=gp, playoff_wins=w) for n, gp, w in standings],
    )
    assert awards == [
        Award("A", qualifying=45, playoff=7),  # 5 x 9; won one playoff match: 7 x 1
        Award("B", qualifying=35, playoff=42),  # 5 x 7; the champion, three wins: 7 x 6
        Award("C", qualifying=30, playoff=0),  # 5 x 6
        Award("D", qualifying=20, playoff=21),  # 5 x 4; the runner-up, two wins: 7 x 3
        Award("E", qualifying=5, playoff=0),  # bottom half: flat 5
        Award("F", qualifying=5, playoff=7),
        Award("G", qualifying=5, playoff=0),
        Award("H", qualifying=5, playoff=0),
    ]
    assert [a.total for a in awards] == [52, 77, 30, 41, 5, 12, 5, 5]


def test_each_playoff_round_of_a_consolation_is_worth_four_times_the_triangle():
    qualifiers = [Qualifier(str(w), game_points=16, playoff_wins=w) for w in (4, 3, 2, 1, 0)]
    awards = event_points(
        DEFAULT_SCHEDULE, kind=EventKind.CONSOLATION, games=12, qualifiers=qualifiers
    )
    assert [a.playoff for a in awards] == [40, 24, 12, 4, 0]


def test_a_top_half_qualifier_below_the_minimum_still_earns_the_flat_points():
    awards = event_points(
        DEFAULT_SCHEDULE,
        kind=EventKind.MAIN,
        games=22,
        qualifiers=[Qualifier("low", game_points=20), Qualifier("lower", game_points=18)],
    )
    assert [a.qualifying for a in awards] == [5, 5]


def test_with_an_odd_number_of_qualifiers_the_middle_one_is_in_the_bottom_half():
    qualifiers = [Qualifier(n, game_points=20) for n in "ABC"]
    awards = event_points(DEFAULT_SCHEDULE, kind=EventKind.MAIN, games=12, qualifiers=qualifiers)
    assert [a.qualifying for a in awards] == [35, 5, 5]


def test_a_game_count_off_the_schedule_is_refused_not_guessed():
    with pytest.raises(UnknownGameCount, match="no row for a main of 11 games"):
        event_points(DEFAULT_SCHEDULE, kind=EventKind.MAIN, games=11, qualifiers=[])


def test_a_schedule_dated_mid_season_applies_only_from_its_date():
    richer = Schedule(
        effective_from=date(2027, 1, 15),
        source="revised chart",
        main=KindRates(10, 10, 7, ((12, 14),)),
        consolation=DEFAULT_SCHEDULE.consolation,
    )
    schedules = [DEFAULT_SCHEDULE, richer]
    one = [Qualifier("A", game_points=20), Qualifier("B", game_points=18)]

    def earned(on: date) -> int:
        schedule = schedule_in_force(schedules, on)
        return event_points(schedule, kind=EventKind.MAIN, games=12, qualifiers=one)[0].qualifying

    assert earned(date(2027, 1, 14)) == 35  # 5 x (20 - 14 + 1)
    assert earned(date(2027, 1, 15)) == 70  # 10 x 7 from its date on
    with pytest.raises(NoScheduleInForce):
        schedule_in_force(schedules, date(2016, 7, 31))
