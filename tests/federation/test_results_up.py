"""Results up, once: a director sends a closed event's results, a statistician approves them or
sends them back with a reason, and the approved points make the national and regional tables
and a member's career across clubs."""

from __future__ import annotations

import datetime as dt

import pytest

from contest.mrp import DEFAULT_SCHEDULE
from federation import selectors, services
from federation.models import PointsRow, PointsSchedule, ScheduleMinimum, SubmissionStatus
from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.models import AuditEntry
from tests import factories
from tests.federation.conftest import ACC, TRUSTED, finished_event
from tournaments import services as tournament_services

AUTUMN = dt.date(2026, 9, 1)  # the 2026 season (1 Aug 2026 to 31 Jul 2027)


def points_of(tournament) -> dict[str, int]:
    return dict(PointsRow.objects.filter(tournament=tournament).values_list("name", "points"))


def test_the_shipped_schedule_is_loaded_as_data_with_its_source(db):
    stored = PointsSchedule.objects.get(effective_from=dt.date(2016, 8, 1))
    assert "checked against the ACC's chart" in stored.source
    assert stored.as_schedule() == DEFAULT_SCHEDULE


def test_an_approved_main_event_earns_its_qualifiers_master_rating_points(
    clubs, director, statistician
):
    event = finished_event("Autumn Main", club=clubs[0], day=AUTUMN, kind="main", games=12)
    sent = services.results_send(user=director, tournament=event)
    assert sent.status == SubmissionStatus.SENT
    assert PointsRow.objects.count() == 0  # nothing counts before the review
    services.results_approve(user=statistician, submission=sent)
    # 8 entrants, one in four qualifies: Ann (24 game points, the champion: one playoff win)
    # and Bob. Main of 12 games: minimum 14. Ann, top half: 5 x (24 - 14 + 1) + 7 x 1 = 62;
    # Bob, bottom half: flat 5; the rest qualified for nothing.
    points = points_of(event)
    assert points["Ann"] == 62
    assert points["Bob"] == 5
    assert {points[n] for n in ("Cy", "Dee", "Eve", "Flo", "Gus", "Hal")} == {0}
    assert AuditEntry.objects.filter(action="results_approve").count() == 1


def test_results_go_up_once(clubs, director):
    event = finished_event("Once", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    services.results_send(user=director, tournament=event)
    with pytest.raises(Conflict, match="already with the statistician"):
        services.results_send(user=director, tournament=event)


def test_an_event_still_being_played_cannot_send_its_results(clubs, director):
    event = tournament_services.tournament_create(user=TRUSTED, name="Not yet", kind="main")
    with pytest.raises(Locked, match="final must be decided"):
        services.results_send(user=director, tournament=event)


def test_only_the_clubs_directors_send_its_results_up(clubs, statistician):
    event = finished_event("Theirs", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    with pytest.raises(NotAllowed, match="Only this club's directors"):
        services.results_send(user=statistician, tournament=event)


def test_results_sent_back_are_fixed_sent_again_and_then_counted(clubs, director, statistician):
    event = finished_event("Sent back", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    sent = services.results_send(user=director, tournament=event)
    with pytest.raises(ValidationFailed, match="Say what is wrong"):
        services.results_return(user=statistician, submission=sent, reason="  ")
    with pytest.raises(NotAllowed, match="statisticians"):
        services.results_approve(user=director, submission=sent)
    back = services.results_return(
        user=statistician, submission=sent, reason="Hal's ACC number is missing."
    )
    assert back.status == SubmissionStatus.RETURNED
    assert back.reason == "Hal's ACC number is missing."
    with pytest.raises(Locked):
        services.results_approve(user=statistician, submission=back)
    again = services.results_send(user=director, tournament=event)
    assert (again.status, again.times_sent) == (SubmissionStatus.SENT, 2)
    services.results_approve(user=statistician, submission=again)
    # Consolation of 7 games (minimum 9): Ann 14 game points, top half, champion:
    # 3 x (14 - 9 + 1) + 4 x 1 = 22; Bob, bottom half: flat 3.
    assert points_of(event)["Ann"] == 22
    assert points_of(event)["Bob"] == 3
    with pytest.raises(Conflict, match="approved"):
        services.results_send(user=director, tournament=event)


def test_a_statistician_never_approves_results_they_sent(clubs, director, statistician):
    director.groups.add(*statistician.groups.all())
    event = finished_event("Own", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    sent = services.results_send(user=director, tournament=event)
    with pytest.raises(NotAllowed, match="another statistician"):
        services.results_approve(user=director, submission=sent)


def approved(event, director, statistician):
    sent = services.results_send(user=director, tournament=event)
    return services.results_approve(user=statistician, submission=sent)


def test_the_national_table_counts_every_region_and_the_regional_only_its_clubs(
    clubs, regions, director, statistician, django_assert_num_queries
):
    east = finished_event("East", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    # At the second club Bob finishes first and Ann second.
    order = ["Bob", "Ann", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    west = finished_event(
        "West", club=clubs[1], day=AUTUMN, kind="consolation", games=7, field=order
    )
    approved(east, director, statistician)
    approved(west, director, statistician)
    with django_assert_num_queries(1):
        national = selectors.national_table(2026)
    # Ann 22 + 3 = 25, Bob 3 + 22 = 25: tied on the first rank.
    assert [(r.rank, r.name, r.points, r.events) for r in national[:2]] == [
        (1, "Ann", 25, 2),
        (1, "Bob", 25, 2),
    ]
    with django_assert_num_queries(1):
        prairies = selectors.regional_table(regions[1], 2026)
    assert [(r.rank, r.name, r.points) for r in prairies[:2]] == [(1, "Bob", 22), (2, "Ann", 3)]
    assert selectors.national_table(2025) == []
    with django_assert_num_queries(1):
        career = selectors.career(ACC["Ann"])
    assert career is not None
    assert (career.points, career.events, career.clubs) == (25, 2, ["Crooked Peg", "Skunk Line"])


def test_a_schedule_change_dated_mid_season_applies_only_from_its_date(
    clubs, director, statistician, fed_admin
):
    before = finished_event(
        "Before", club=clubs[0], day=dt.date(2027, 1, 10), kind="consolation", games=7
    )
    after = finished_event(
        "After", club=clubs[0], day=dt.date(2027, 1, 20), kind="consolation", games=7
    )
    approved(before, director, statistician)
    approved(after, director, statistician)
    assert points_of(before)["Ann"] == points_of(after)["Ann"] == 22

    revised = PointsSchedule(
        effective_from=dt.date(2027, 1, 15), source="Revised chart", consolation_factor=6
    )
    rows = [
        ScheduleMinimum(kind=kind, games=games, minimum=minimum)
        for kind, rates in (
            ("main", DEFAULT_SCHEDULE.main),
            ("consolation", DEFAULT_SCHEDULE.consolation),
        )
        for games, minimum in rates.minimums
    ]
    services.schedule_record(user=fed_admin, schedule=revised, minimums=rows)
    # Before 15 Jan: the 2016 schedule still (22); from it: 6 x (14 - 9 + 1) + 4 x 1 = 40.
    assert points_of(before)["Ann"] == 22
    assert points_of(after)["Ann"] == 40
    assert selectors.national_table(2026)[0].points == 62
    entry = AuditEntry.objects.get(action="points_schedule_set")
    assert entry.actor == fed_admin and entry.after["consolation_factor"] == 6


def test_only_a_federation_admin_edits_the_points_schedule(db):
    stored = PointsSchedule.objects.get()
    stored.main_factor = 50
    with pytest.raises(NotAllowed, match="federation admin"):
        services.schedule_record(user=factories.UserFactory(), schedule=stored)
    stored.refresh_from_db()
    assert stored.main_factor == 5
