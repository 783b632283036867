"""28 and 29 hands go up with the results (counted from the cards entered deal by deal), and a
29 held in sanctioned play adds the bonus in force on its day to the holder's points."""

from __future__ import annotations

import datetime as dt

from federation import services
from federation.models import HandBonus, PointsRow
from tests.federation.conftest import finished_event
from tests.tournaments.conftest import game_with_a_29

AUTUMN = dt.date(2026, 9, 1)


def approved(event, director, statistician):
    sent = services.results_send(user=director, tournament=event)
    services.results_approve(user=statistician, submission=sent)
    return sent


def holder_of(event):
    """Who held the 29: the second seat of the first round's first table."""
    game = event.rounds.get(number=1).games.get(table=1)
    return game.second.name


def test_a_29_in_a_main_event_earns_the_bonus_and_is_reported(clubs, director, statistician):
    event = finished_event("Main", club=clubs[0], day=AUTUMN, games=12, deals=game_with_a_29())
    sent = approved(event, director, statistician)
    holder = holder_of(event)
    [reported] = [r for r in sent.package["rows"] if r["name"] == holder]
    assert (reported["hands_28"], reported["hands_29"]) == (0, 1)
    row = PointsRow.objects.get(tournament=event, name=holder)
    # The shipped bonus: 10 points a 29, on top of whatever the holder qualified for.
    assert (row.hands_29, row.bonus_points) == (1, 10)
    assert row.points == row.qualifying_points + row.playoff_points + 10
    others = PointsRow.objects.filter(tournament=event).exclude(name=holder)
    assert set(others.values_list("bonus_points", flat=True)) == {0}


def test_a_29_at_a_club_night_is_reported_but_earns_no_bonus(clubs, director, statistician):
    night = finished_event(
        "Night", club=clubs[0], day=AUTUMN, kind="club-night", games=9, deals=game_with_a_29()
    )
    approved(night, director, statistician)
    row = PointsRow.objects.get(tournament=night, name=holder_of(night))
    assert (row.hands_29, row.bonus_points, row.points) == (1, 0, 0)


def test_a_bonus_changed_mid_season_applies_only_from_its_date(
    clubs, director, statistician, fed_admin
):
    before = finished_event(
        "Before", club=clubs[0], day=dt.date(2026, 9, 1), deals=game_with_a_29()
    )
    after = finished_event("After", club=clubs[0], day=dt.date(2026, 11, 1), deals=game_with_a_29())
    approved(before, director, statistician)
    approved(after, director, statistician)
    services.data_record(
        user=fed_admin,
        obj=HandBonus(hand="29", effective_from=dt.date(2026, 10, 1), points=25, source="Board"),
    )
    bonus = {
        t.name: PointsRow.objects.get(tournament=t, name=holder_of(t)).bonus_points
        for t in (before, after)
    }
    assert bonus == {"Before": 10, "After": 25}
