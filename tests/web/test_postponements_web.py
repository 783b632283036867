"""Postponements on the pages: a captain asks from the match page, the other accepts there,
the schedule says "postponed to" with the match's own date; the organiser moves or cancels a
whole night from the schedule; and it reads in French."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from league.models import Match, Week
from tests.web.french import english_runs

THURSDAY = dt.date(2026, 9, 3)
NAMES = ["Fifteen Two", "Nobs", "Thursday Doubles", "Fall 2026", "Ann", "Bob", "Cat", "Dan"]


@pytest.fixture
def dated(season, match):
    """The match's week on 3 September and five more Thursdays."""
    Week.objects.filter(pk=match.week_id).update(date=THURSDAY)
    for n in range(2, 7):
        Week.objects.create(season=season, number=n, date=THURSDAY + dt.timedelta(weeks=n - 1))
    return match


def test_a_captain_asks_and_the_other_accepts_on_the_match_page(client, dated, ann, cat, season):
    url = reverse("league:match", args=[dated.pk])
    client.force_login(ann)
    page = client.get(url).content.decode()
    assert "Ask to postpone" in page and "Play it by Sept. 17, 2026 at the latest." in page
    client.post(
        reverse("league:postpone", args=[dated.pk]), {"date": "2026-09-08", "reason": "Away"}
    )
    client.force_login(cat)
    page = client.get(url).content.decode()
    assert "Fifteen Two ask to play on Sept. 8, 2026" in page
    asked = dated.postponements.get()
    client.post(reverse("league:postponement_answer", args=[asked.pk]), {"answer": "accept"})
    dated.refresh_from_db()
    assert dated.date == dt.date(2026, 9, 8)
    page = client.get(url).content.decode()
    assert "postponed</span>" in page
    schedule = client.get(reverse("league:schedule", args=[season.pk]) + "?week=1").content
    assert "postponed to Sept. 8, 2026" in schedule.decode()


def test_a_visitor_is_offered_no_postponement(client, dated):
    page = client.get(reverse("league:match", args=[dated.pk])).content.decode()
    assert "Ask to postpone" not in page and "Decide another date" not in page


def test_the_organiser_decides_from_the_match_page(client, dated, league_admin):
    client.force_login(league_admin)
    page = client.get(reverse("league:match", args=[dated.pk])).content.decode()
    assert "Decide another date" in page
    client.post(
        reverse("league:postpone", args=[dated.pk]), {"date": "2026-09-09", "reason": "Bar"}
    )
    assert Match.objects.get(pk=dated.pk).date == dt.date(2026, 9, 9)


def test_the_organiser_moves_and_cancels_a_night_from_the_schedule(
    client, dated, season, league_admin
):
    client.force_login(league_admin)
    week = dated.week
    url = reverse("league:organise_schedule", args=[season.pk])
    assert "Move the whole night" in client.get(url).content.decode()
    night = reverse("league:organise_week_night", args=[week.pk])
    client.post(night, {"what": "move", "date": "2026-09-04", "reason": "Snow"})
    week.refresh_from_db()
    assert week.date == dt.date(2026, 9, 4)
    client.post(night, {"what": "cancel", "reason": "The bar is closed"})
    week.refresh_from_db()
    assert week.cancelled_reason == "The bar is closed"
    public = client.get(reverse("league:schedule", args=[season.pk]) + "?week=1").content
    assert "This night is cancelled: The bar is closed" in public.decode()


def test_postponements_read_in_french(client, dated, cat, ann, season):
    client.force_login(ann)
    client.post(
        reverse("league:postpone", args=[dated.pk]), {"date": "2026-09-08", "reason": "Loin"}
    )
    client.get(reverse("league:match", args=[dated.pk]))  # Ann's message, in English
    client.force_login(cat)
    client.cookies["django_language"] = "fr"
    page = client.get(
        reverse("league:match", args=[dated.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "demandent à jouer le" in page
    assert english_runs(page, NAMES) == []
