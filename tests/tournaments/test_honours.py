"""The tournaments' part of the roll of honour: each finished night's winner is its bracket's
champion, each club season's leader tops its table, and the page shows them (in French too)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.demo import build_demo_club_season
from tournaments.honours import club_honours
from tournaments.models import Tournament, TournamentStage
from tournaments.selectors import champion, club_season_standings

pytestmark = pytest.mark.django_db


def test_each_finished_night_is_won_by_its_champion_and_the_table_leader_leads():
    season = build_demo_club_season()
    honours = club_honours()
    assert honours is not None
    (entry,) = honours["club_seasons"]
    finished = Tournament.objects.filter(stage=TournamentStage.FINISHED).order_by("-date")
    assert [row["tournament"] for row in entry["nights"]] == list(finished)
    for row in entry["nights"]:
        assert row["winner"] == {"names": [champion(row["tournament"])], "how": "playoffs"}
    table = club_season_standings(season)["rows"]
    assert [r.name for r in entry["leaders"]] == [r.name for r in table if r.rank == 1]


def test_no_finished_night_leaves_the_section_out(db, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert club_honours() is None


def test_the_roll_of_honour_names_the_night_winners_in_french(client, django_assert_num_queries):
    build_demo_club_season()
    night = Tournament.objects.filter(stage=TournamentStage.FINISHED).order_by("-date").first()
    client.cookies["django_language"] = "fr"
    with django_assert_num_queries(8):  # the league's finished seasons (none), 7 for the nights
        body = client.get(reverse("league:records_honours")).content.decode()
    assert champion(night) in body
    assert "vainqueur des séries" in body
