"""Grass Roots points per club night and their tables, titles by lifetime points, the National
Champion and the Tournament of Champions' invitations, every number a dated row: tests build
club nights and events, send them up, approve them and check hand-worked points."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from federation import selectors, services
from federation.models import GrassRootsSchedule, InvitationRule, PointsRow, Title
from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import AuditEntry
from tests.federation.conftest import ACC, finished_event

AUTUMN = dt.date(2026, 9, 1)  # the 2026 season
# At the second club the field's order is turned round: Hal beats everyone, Ann no one.
REVERSED = ["Hal", "Gus", "Flo", "Eve", "Dee", "Cy", "Bob", "Ann"]


def approved(event, director, statistician):
    sent = services.results_send(user=director, tournament=event)
    return services.results_approve(user=statistician, submission=sent)


def night(name, club, day, field=None):
    """A club night of 9 games: the earlier of two players in ``field`` always wins, by 21."""
    kwargs = {"field": field} if field else {}
    return finished_event(name, club=club, day=day, kind="club-night", games=9, **kwargs)


def gr_of(event) -> dict[str, int]:
    return dict(PointsRow.objects.filter(tournament=event).values_list("name", "gr_points"))


def gp_of(event) -> dict[str, int]:
    return dict(PointsRow.objects.filter(tournament=event).values_list("name", "game_points"))


def test_a_club_night_earns_grass_roots_points_from_the_threshold_and_no_master_points(
    clubs, director, statistician
):
    event = night("Monday 1", clubs[0], AUTUMN)
    approved(event, director, statistician)
    gp, gr = gp_of(event), gr_of(event)
    # Ann wins all nine games by 21 (no skunk): 18 game points; the shipped schedule scores
    # from 12 game points, points = game points. Hal loses every game: 0.
    assert gp["Ann"] == 18 and gr["Ann"] == 18
    assert gp["Hal"] == 0 and gr["Hal"] == 0
    for name in gp:  # below the threshold nothing; from it, the game points
        assert gr[name] == (gp[name] if gp[name] >= 12 else 0)
    assert set(PointsRow.objects.filter(tournament=event).values_list("points", flat=True)) == {0}


def test_a_grass_roots_schedule_dated_mid_season_applies_only_from_its_date(
    clubs, director, statistician, fed_admin
):
    before = night("Before", clubs[0], dt.date(2026, 10, 5))
    after = night("After", clubs[0], dt.date(2026, 10, 19))
    approved(before, director, statistician)
    approved(after, director, statistician)
    assert gr_of(before)["Ann"] == gr_of(after)["Ann"] == 18
    revised = GrassRootsSchedule(
        effective_from=dt.date(2026, 10, 12),
        source="Revised Grass Roots chart",
        threshold=12,
        at_threshold=5,
        per_game_point=2,
    )
    services.data_record(user=fed_admin, obj=revised)
    # Before 12 Oct: 18 still. From it: 5 + 2 x (18 - 12) = 17.
    assert gr_of(before)["Ann"] == 18
    assert gr_of(after)["Ann"] == 17
    assert selectors.national_gr_table(2026)[0].points == 35
    entry = AuditEntry.objects.get(action="federation_data_set")
    assert entry.actor == fed_admin and entry.after["per_game_point"] == 2


def test_only_a_federation_admin_edits_the_federation_data_and_with_a_source(
    db, director, fed_admin
):
    schedule = GrassRootsSchedule.objects.get()
    schedule.per_game_point = 9
    with pytest.raises(NotAllowed, match="federation admin"):
        services.data_record(user=director, obj=schedule)
    schedule.source = "  "
    with pytest.raises(ValidationFailed, match="where these numbers come from"):
        services.data_record(user=fed_admin, obj=schedule)
    schedule.refresh_from_db()
    assert schedule.per_game_point == 1


def test_grass_roots_tables_national_and_regional(
    clubs, regions, director, statistician, django_assert_num_queries
):
    east = night("East night", clubs[0], AUTUMN)
    west = night("West night", clubs[1], AUTUMN, field=REVERSED)
    approved(east, director, statistician)
    approved(west, director, statistician)
    with django_assert_num_queries(1):
        national = selectors.national_gr_table(2026)
    # Ann 18 at the first club and 0 at the second; Hal the other way round: tied at 18.
    assert [(r.rank, r.name, r.points) for r in national[:2]] == [(1, "Ann", 18), (1, "Hal", 18)]
    with django_assert_num_queries(1):
        prairies = selectors.regional_gr_table(regions[1], 2026)
    assert prairies[0].name == "Hal" and all(r.name != "Ann" for r in prairies)
    career = selectors.career(ACC["Ann"])
    assert career is not None and career.gr_points == 18 and career.points == 0


def test_titles_are_data_and_the_career_shows_progress_in_french(
    client, clubs, director, statistician, fed_admin
):
    event = finished_event("Autumn Main", club=clubs[0], day=AUTUMN, kind="main", games=12)
    approved(event, director, statistician)  # Ann 62 Master Rating Points (see test_results_up)
    url = reverse("federation:member", args=[ACC["Ann"]])
    page = client.get(url).content.decode()
    assert "1938 points to Master" in page  # 2,000 - 62
    master = Title.objects.get(name="Master")
    master.points = 50  # the federation admin's edit: titles are data
    services.data_record(user=fed_admin, obj=master)
    page = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "Maître" in page and "data-title>Maître<" in page
    # From 50 to Grand Master's 4,000: 3,938 to go.
    assert "3938 points avant Grand maître" in page


def test_the_national_champion_has_the_most_points_from_august_to_july(
    client, clubs, director, statistician
):
    approved(
        finished_event("Summer", club=clubs[0], day=dt.date(2026, 7, 31), games=12),
        director,
        statistician,
    )  # the 2025 season: Ann
    approved(
        finished_event("Fall", club=clubs[0], day=dt.date(2026, 8, 1), field=REVERSED, games=12),
        director,
        statistician,
    )  # the 2026 season: Hal
    assert [c.name for c in selectors.national_champions(2025)] == ["Ann"]
    assert [c.name for c in selectors.national_champions(2026)] == ["Hal"]
    page = client.get(reverse("federation:national") + "?season=2026").content.decode()
    assert "National Champion" in page and "Hal" in page.split("data-national-champion")[1][:300]
    career = client.get(reverse("federation:member", args=[ACC["Hal"]])).content.decode()
    assert "National Champion 2026–2027" in career


def test_the_tournament_of_champions_invites_the_top_grass_roots_and_every_club_champion(
    client, clubs, director, statistician, fed_admin
):
    approved(night("East 1", clubs[0], AUTUMN), director, statistician)
    approved(night("East 2", clubs[0], dt.date(2026, 9, 8)), director, statistician)
    approved(night("West 1", clubs[1], AUTUMN, field=REVERSED), director, statistician)
    rule = InvitationRule.objects.get()
    rule.top_gr = 1
    services.data_record(user=fed_admin, obj=rule)
    # National GR: Ann 36 (two nights), Hal 18. Top 1: Ann. Club champions: Ann (Crooked
    # Peg), Hal (Skunk Line). Ann once, for both reasons.
    invited = selectors.invitations(2026, selectors.invitation_rule_on(dt.date(2027, 7, 31)))
    assert [(i.name, i.reasons, i.gr_rank, i.clubs) for i in invited] == [
        ("Ann", ["gr", "club"], 1, ["Crooked Peg"]),
        ("Hal", ["club"], None, ["Skunk Line"]),
    ]
    page = client.get(reverse("federation:invitations"), headers={"accept-language": "fr"})
    text = page.content.decode()
    assert "Tournoi des champions" in text and "champion de Skunk Line" in text


def test_a_table_page_ranks_as_the_whole_table_does(db, django_assert_num_queries):
    from federation.models import MemberSeason

    # Seven members: 50, 40, 40, 40, 30, 20, 10 points. Pages of three.
    for i, points in enumerate((50, 40, 40, 40, 30, 20, 10)):
        MemberSeason.objects.create(
            season=2026, scope="national", acc_number=f"9{i}", name=f"M{i}", points=points
        )
    whole = selectors.national_table(2026)
    assert [r.rank for r in whole] == [1, 2, 2, 2, 5, 6, 7]
    pages = []
    for number in (1, 2, 3):
        with django_assert_num_queries(2 if number == 1 else 3):
            pages.append(selectors.table_page(2026, None, "points", number=number, per_page=3))
    # The tie at 40 straddles pages 1 and 2: its member on page 2 keeps rank 2.
    assert [[r.rank for r in p.rows] for p in pages] == [[1, 2, 2], [2, 5, 6], [7]]
    assert [(p.first, p.total, p.pages) for p in pages] == [(1, 7, 3), (4, 7, 3), (7, 7, 3)]
    assert selectors.table_page(2026, None, "points", number=99, per_page=3).number == 3
