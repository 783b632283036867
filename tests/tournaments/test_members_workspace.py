"""A club's members kept at ``/direct/``: every player's ACC number and standing (member,
guest, visitor) from one form, a guest's nights counted against the club's limit, and the
ACC report complete without the admin."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from league.kernel.errors import NotAllowed
from league.kernel.permissions import TOURNAMENT_DIRECTORS
from league.models import AuditEntry, Player
from tests import factories
from tournaments import acc_reports, services
from tournaments.models import ClubMember, MemberStatus

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


@pytest.fixture
def club(director):
    club = services.club_create(user=director, name="Crooked Peg")
    club.directors.add(director)
    return club


def _roster_form(page: str) -> dict[str, str]:
    """The roster form's fields as the page fills them (name -> value)."""
    form = re.search(r"<form[^>]*data-roster>(.*?)</form>", page, re.S)
    assert form, "no roster form on the club's page"
    fields = dict(re.findall(r'<input[^>]*name="(acc_\d+)"[^>]*value="([^"]*)"', form.group(1)))
    for name, options in re.findall(
        r'<select name="(status_\d+)"[^>]*>(.*?)</select>', form.group(1), re.S
    ):
        chosen = re.search(r'<option value="([^"]+)" selected', options)
        fields[name] = chosen.group(1) if chosen else ""
    return fields


def test_every_acc_number_typed_at_direct_makes_a_report_with_no_blank(client, club, director):
    client.force_login(director)
    client.post(f"/direct/clubs/{club.pk}/", {"op": "members", "names": "\n".join(NAMES[:4])})
    client.post(f"/direct/clubs/{club.pk}/", {"op": "tonight"})
    night = club.club_nights.get()
    assert night.club_season is None  # a night from "Tonight", no club season
    # Eve walks in: she played tonight and is on the roster to fill in too.
    services.entrants_add(user=director, tournament=night, names=NAMES, check_in=True)
    page = client.get(f"/direct/clubs/{club.pk}/").content.decode()
    form = _roster_form(page)
    players = {p.name: p.pk for p in Player.objects.filter(name__in=NAMES)}
    assert {f"acc_{pk}" for pk in players.values()} <= set(form)
    for number, (_name, pk) in enumerate(sorted(players.items()), start=1001):
        form[f"acc_{pk}"] = str(number)
    form[f"status_{players['Cy']}"] = MemberStatus.GUEST
    response = client.post(f"/direct/clubs/{club.pk}/", {"op": "roster", **form}, follow=True)
    assert "5 membership(s) saved." in response.content.decode()
    assert ClubMember.objects.get(player_id=players["Cy"]).status == MemberStatus.GUEST

    report = acc_reports.night_report(night)
    assert sorted(r["name"] for r in report["rows"]) == NAMES
    assert all(r["acc_number"] for r in report["rows"]), report["rows"]
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(
                    reverse("tournaments:night_report_csv", args=[night.pk])
                ).content.decode()
            )
        )
    )
    assert len(rows) == 1 + len(NAMES) and all(row[0] for row in rows[1:])
    assert {row[1]: row[0] for row in rows[1:]}["Ann"] == "1001"
    assert AuditEntry.objects.filter(action="club_member_set").count() == 5


def test_a_guests_nights_from_tonight_count_against_the_clubs_limit(client, club, director):
    club.guest_nights = 1
    club.save(update_fields=["guest_nights"])
    services.club_members_add(user=director, club=club, names=["Ann", "Bob"])
    bob = Player.objects.get(name="Bob")
    services.club_members_set(user=director, club=club, rows=[(bob, "", MemberStatus.GUEST)])
    for _night in range(2):
        night = services.night_tonight(user=director, club=club)
        services.entrants_add(user=director, tournament=night, names=["Ann", "Bob"])
    roster = {row.player.name: row.membership for row in acc_reports.club_roster(club)}
    assert (roster["Bob"].nights, roster["Bob"].over_limit) == (2, True)
    assert (roster["Ann"].nights, roster["Ann"].over_limit) == (2, False)  # a member: no limit
    client.force_login(director)
    page = client.get(f"/direct/clubs/{club.pk}/").content.decode()
    row = re.search(rf'<tr data-roster-row="{bob.pk}"[^>]*>.*?</tr>', page, re.S).group(0)
    assert "data-guest-over" in row and "past the guest limit of 1" in row
    report = acc_reports.night_report(night)
    assert next(r for r in report["rows"] if r["name"] == "Bob")["over_limit"] is True


def test_one_bad_number_refuses_the_whole_form_naming_the_player(client, club, director):
    services.club_members_add(user=director, club=club, names=["Ann", "Bob"])
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    client.force_login(director)
    response = client.post(
        f"/direct/clubs/{club.pk}/",
        {
            "op": "roster",
            f"acc_{ann.pk}": "555",
            f"status_{ann.pk}": "member",
            f"acc_{bob.pk}": "12a",
            f"status_{bob.pk}": "member",
        },
        follow=True,
    )
    assert "Bob: An ACC number is digits only" in response.content.decode()
    assert list(ClubMember.objects.values_list("acc_number", flat=True)) == ["", ""]


def test_a_number_already_another_members_is_refused(club, director):
    services.club_members_add(user=director, club=club, names=["Ann", "Bob"])
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    with pytest.raises(Exception, match="Bob: ACC number 777 is already another member's"):
        services.club_members_set(
            user=director, club=club, rows=[(ann, "777", "member"), (bob, "777", "member")]
        )
    assert not ClubMember.objects.filter(acc_number="777").exists()


def test_a_director_of_another_club_cannot_set_its_numbers(client, club, director):
    services.club_members_add(user=director, club=club, names=["Ann"])
    ann = Player.objects.get(name="Ann")
    other = factories.UserFactory(username="otto")
    other.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    with pytest.raises(NotAllowed):
        services.club_members_set(user=other, club=club, rows=[(ann, "42", "member")])
    client.force_login(other)
    response = client.post(
        f"/direct/clubs/{club.pk}/",
        {"op": "roster", f"acc_{ann.pk}": "42", f"status_{ann.pk}": "member"},
    )
    assert response.status_code == 403
    assert ClubMember.objects.get(player=ann).acc_number == ""


def test_the_clubs_page_costs_the_same_queries_for_a_longer_roster(
    client, club, director, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.club_members_add(user=director, club=club, names=NAMES[:2])
    client.force_login(director)
    url = f"/direct/clubs/{club.pk}/"
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    services.club_members_add(user=director, club=club, names=[*NAMES[2:], "Flo", "Gus"])
    night = services.night_tonight(user=director, club=club)
    services.entrants_add(user=director, tournament=night, names=["Hal", "Ivy"])
    with django_assert_num_queries(len(small)):
        page = client.get(url).content.decode()
    assert page.count("data-roster-row=") == 9
