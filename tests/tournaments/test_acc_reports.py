"""ACC reporting: a club's members (ACC number, member/guest/visitor, a guest's nights), a
night's and a club season's export (CSV with pinned columns, and a printable page), and the
season's "Player of the year" table."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from league.kernel.errors import ValidationFailed
from league.models import AuditEntry, Player
from tests import factories
from tests.tournaments.conftest import TRUSTED, finished_night
from tournaments import acc_reports, selectors, services
from tournaments.models import PayoutMode

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


@pytest.fixture
def club(db, director):
    club = services.club_create(user=TRUSTED, name="Crooked Peg ACC Club", guest_nights=1)
    club.directors.add(director)  # a club's reports are its own directors' to read
    return club


@pytest.fixture
def season(club):
    return services.club_season_create(user=TRUSTED, club=club, name="Winter 2026", threshold=4)


@pytest.fixture
def nights(club, season):
    first = finished_night("Night 1", NAMES, season=season)
    players = {p.name: p for p in Player.objects.filter(name__in=NAMES)}
    services.club_member_set(
        user=TRUSTED, club=club, player=players["Ann"], acc_number="12345", status="member"
    )
    services.club_member_set(user=TRUSTED, club=club, player=players["Bob"], status="guest")
    services.club_member_set(
        user=TRUSTED, club=club, player=players["Cy"], acc_number="777", status="visitor"
    )
    services.purse_set(
        user=TRUSTED,
        tournament=first,
        entry_fee=500,
        house_percent=0,
        payout_mode=PayoutMode.AMOUNT,
        payout_table=[1500, 1000],
    )
    services.fees_collect(user=TRUSTED, tournament=first)
    services.payouts_record(user=TRUSTED, tournament=first)
    second = finished_night("Night 2", NAMES, season=season, wins=["Bob", *NAMES])
    return first, second


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def _csv(response):
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_nights_export_has_the_acc_columns_in_order(director_client, nights):
    first, _second = nights
    response = director_client.get(reverse("tournaments:night_report_csv", args=[first.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = _csv(response)
    assert rows[0] == [
        "acc_number",
        "name",
        "game_points",
        "games_won",
        "spread",
        "skunks",
        "rank",
        "playoff_finish",
        "payout",
    ]
    by_name = {r[1]: r for r in rows[1:]}
    assert len(by_name) == 5
    standings = {r["entrant"]: r for r in selectors.standings_for_tournament(first)["standings"]}
    ann = standings["Ann"]
    # Ann beat everyone and won the final: champion, paid the first place's $15.00.
    assert by_name["Ann"] == [
        "12345",
        "Ann",
        str(ann["game_points"]),
        str(ann["won"]),
        str(ann["spread"]),
        str(ann["skunks"]),
        "1",
        "1",
        "15.00",
    ]
    assert by_name["Bob"][0] == "" and by_name["Bob"][7] == "2" and by_name["Bob"][8] == "10.00"
    # Out of the bracket: no playoff finish, no payout.
    assert by_name["Eve"][7] == "" and by_name["Eve"][8] == "0.00"


def test_a_guest_past_the_clubs_nights_is_flagged(director_client, nights):
    _first, second = nights
    report = acc_reports.night_report(second)
    bob = next(r for r in report["rows"] if r["name"] == "Bob")
    cy = next(r for r in report["rows"] if r["name"] == "Cy")
    assert (bob["status"], bob["nights"], bob["over_limit"]) == ("guest", 2, True)
    assert (cy["status"], cy["over_limit"]) == ("visitor", False)
    html = director_client.get(reverse("tournaments:night_report", args=[second.pk])).content
    assert b"data-guest-over" in html and b"past the 1 allowed" in html


def test_the_player_of_the_year_table_sums_the_nights(director_client, nights, season):
    first, second = nights
    rows = _csv(director_client.get(reverse("tournaments:season_report_csv", args=[season.pk])))
    assert rows[0] == [
        "season_rank",
        "acc_number",
        "name",
        "nights",
        "club_points",
        "game_points",
        "games_won",
        "spread",
        "skunks",
        "best_playoff_finish",
        "payout",
    ]
    by_name = {r[2]: r for r in rows[1:]}
    gp = {
        name: sum(
            next(
                r["game_points"]
                for r in selectors.standings_for_tournament(t)["standings"]
                if r["entrant"] == name
            )
            for t in (first, second)
        )
        for name in NAMES
    }
    assert by_name["Ann"][3] == "2" and by_name["Ann"][5] == str(gp["Ann"])
    assert by_name["Ann"][9] == "1" and by_name["Ann"][10] == "15.00"
    assert by_name["Bob"][9] == "1"  # Bob won night 2
    table = {r.name: r for r in selectors.club_season_standings(season)["rows"]}
    assert by_name["Ann"][0] == str(table["Ann"].rank) and by_name["Ann"][4] == str(
        table["Ann"].total
    )
    page = director_client.get(reverse("tournaments:season_report", args=[season.pk]))
    assert b"Player of the year" in page.content and page.content.count(b"data-report-row") == 5


def test_only_directors_see_the_reports(client, nights, season):
    first, _second = nights
    for url in (
        reverse("tournaments:night_report", args=[first.pk]),
        reverse("tournaments:night_report_csv", args=[first.pk]),
        reverse("tournaments:season_report_csv", args=[season.pk]),
    ):
        assert client.get(url).status_code == 403
    client.force_login(factories.UserFactory(username="someone"))
    assert client.get(reverse("tournaments:night_report_csv", args=[first.pk])).status_code == 403


def test_an_acc_number_is_digits_and_unique_at_the_club(club):
    ann, bob = factories.PlayerFactory(name="Ann"), factories.PlayerFactory(name="Bob")
    with pytest.raises(ValidationFailed, match="digits only"):
        services.club_member_set(user=TRUSTED, club=club, player=ann, acc_number="12-34")
    services.club_member_set(user=TRUSTED, club=club, player=ann, acc_number="1234")
    with pytest.raises(ValidationFailed, match="already another member"):
        services.club_member_set(user=TRUSTED, club=club, player=bob, acc_number="1234")
    with pytest.raises(ValidationFailed, match="member, a guest or a visitor"):
        services.club_member_set(user=TRUSTED, club=club, player=bob, status="friend")
    row = services.club_member_set(user=TRUSTED, club=club, player=ann, status="guest")
    assert (row.acc_number, row.status) == ("", "guest")
    assert AuditEntry.objects.filter(action="club_member_set").count() == 2


def test_the_report_in_french(director_client, nights):
    first, _second = nights
    html = director_client.get(
        reverse("tournaments:night_report", args=[first.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Rapport ACC" in html and "Télécharger le CSV" in html


def test_a_night_scores_from_12_game_points_by_default(club):
    season = services.club_season_create(user=TRUSTED, club=club, name="Default")
    assert season.threshold == 12


def test_directors_find_the_reports_from_the_night_and_the_season(
    director_client, client, nights, season
):
    first, _second = nights
    night_page = director_client.get(reverse("tournaments:tournament", args=[first.pk]))
    assert reverse("tournaments:night_report", args=[first.pk]) in night_page.content.decode()
    season_page = director_client.get(reverse("tournaments:club_season", args=[season.pk]))
    assert reverse("tournaments:season_report", args=[season.pk]) in season_page.content.decode()
    director_client.logout()
    assert (
        b"data-report-link"
        not in client.get(reverse("tournaments:club_season", args=[season.pk])).content
    )


def test_the_guest_limit_is_a_club_setting_changed_on_record(club, director, client):
    with pytest.raises(ValidationFailed, match="whole number"):
        services.club_update(user=TRUSTED, club=club, changes={"guest_nights": -1})
    club.refresh_from_db()
    assert club.guest_nights == 1
    client.force_login(director)
    director.is_staff = True
    director.save()
    url = reverse("admin:tournaments_club_change", args=[club.pk])
    client.post(url, {"name": club.name, "venue": "The Peg", "guest_nights": 4})
    club.refresh_from_db()
    assert (club.venue, club.guest_nights) == ("The Peg", 4)
    entry = AuditEntry.objects.get(action="club_update")
    assert (entry.before["guest_nights"], entry.after["guest_nights"]) == (1, 4)
