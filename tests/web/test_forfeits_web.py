"""Forfeits on the pages: a judge or league admin records one from the match page or the
organiser's schedule, a judge undoes it from the match page; the match, the game and the
schedule say "forfeit"; captains are offered neither; and it all reads in French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Forfeit, GameStatus
from tests.web.french import english_runs

NAMES = ["Fifteen Two", "Nobs", "Thursday Doubles", "Fall 2026", "Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def forfeited(match, away_team, league_admin, client):
    client.force_login(league_admin)
    answer = client.post(
        reverse("league:forfeit", args=[match.pk]),
        {"team": away_team.pk, "reason": "Nobs did not turn up by 7:30"},
    )
    assert answer.status_code == 302
    client.get(answer.headers["Location"])  # its message, said in English, is read
    return Forfeit.objects.get(match=match)


def test_a_league_admin_records_a_forfeit_from_the_match_page(client, match, league_admin):
    client.force_login(league_admin)
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Record a forfeit" in page
    assert "Undo the forfeit" not in page  # a judge's


def test_a_captain_is_offered_no_forfeit_and_cannot_post_one(client, match, ann, away_team):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Record a forfeit" not in page
    client.post(
        reverse("league:forfeit", args=[match.pk]), {"team": away_team.pk, "reason": "Gone"}
    )
    assert not Forfeit.objects.exists()
    follow = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Only a judge or a league admin" in follow


def test_the_match_and_schedule_say_forfeit(client, forfeited, match, season):
    client.logout()
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Nobs forfeited this match" in page
    assert "Nobs did not turn up by 7:30" in page
    assert page.count("Fifteen Two won by forfeit.") == 3
    schedule = client.get(reverse("league:schedule", args=[season.pk])).content.decode()
    assert schedule.count("forfeit</span>") == 3
    assert '<span class="tally">3–0</span>' in schedule


def test_a_judge_undoes_the_forfeit_from_the_match_page(client, forfeited, match, judge):
    client.force_login(judge)
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Undo the forfeit" in page
    client.post(reverse("league:forfeit_undo", args=[match.pk]), {"reason": "Wrong match"})
    forfeited.refresh_from_db()
    assert forfeited.undone_by == judge
    assert set(match.games.values_list("status", flat=True)) == {GameStatus.VOID}
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "forfeited this match" not in page


def test_the_organiser_records_a_forfeit_from_the_schedule(
    client, match, away_team, league_admin, season
):
    client.force_login(league_admin)
    url = reverse("league:organise_schedule", args=[season.pk])
    page = client.get(url).content.decode()
    assert f'action="{reverse("league:forfeit", args=[match.pk])}"' in page
    answer = client.post(
        reverse("league:forfeit", args=[match.pk]),
        {"team": away_team.pk, "reason": "No show", "back": "organise"},
    )
    assert answer.headers["Location"] == f"{url}#match-{match.pk}"
    page = client.get(url).content.decode()
    assert "Nobs forfeited this match: No show" in page


def test_forfeits_read_in_french(client, forfeited, match, judge, season):
    client.force_login(judge)
    client.cookies["django_language"] = "fr"
    for url in (
        reverse("league:match", args=[match.pk]),
        reverse("league:schedule", args=[season.pk]),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        assert english_runs(page, ["Nobs did not turn up by 7:30", *NAMES]) == [], url
    page = client.get(
        reverse("league:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "forfait" in page


def test_the_organiser_sets_what_a_forfeit_is_worth_on_the_season_page(
    client, season, league_admin
):
    client.force_login(league_admin)
    url = reverse("league:organise_season", args=[season.pk])
    page = client.get(url).content.decode()
    assert "Forfeits and results that close" in page
    client.post(
        reverse("league:organise_season_settings", args=[season.pk]),
        {
            "forfeit_games": "",
            "forfeit_points": "2",
            "close_after_hours": "48",
            "makeup_days": "14",
        },
    )
    season.refresh_from_db()
    assert (season.forfeit_points, season.close_after_hours) == (2, 48)
    assert season.forfeit_wins_week is False  # the box left unticked
    assert season.forfeit_games is None
    client.get(url)  # the message, said in English
    client.cookies["django_language"] = "fr"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert english_runs(page, [*NAMES]) == []
