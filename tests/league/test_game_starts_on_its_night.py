"""A game starts on its night: the match's date, or its accepted make-up date. A week-6 game is
refused three days early, a postponed match is refused before its make-up date and starts on
it; the organiser may allow an earlier start for one match, on record. The refusal names the
night, on the page as in the service."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from league.kernel.errors import Conflict, NotAllowed
from league.models import AuditEntry, Match, Week
from league.services.game_start import match_early_start
from league.services.games import game_start
from league.services.postponements import postponement_answer, postponement_ask

SEATS = ["Ann", "Cat", "Bob", "Dan"]


@pytest.fixture
def in_three_days(season, home_team, away_team):
    """Week 6, three days from today: Fifteen Two v Nobs."""
    week = Week.objects.create(
        season=season, number=6, date=timezone.localdate() + timedelta(days=3)
    )
    return Match.objects.create(week=week, home=home_team, away=away_team)


def test_a_game_three_days_early_is_refused_naming_its_night(in_three_days, ann):
    night = date_format(in_three_days.week.date, "DATE_FORMAT")
    with pytest.raises(Conflict, match=f"This match is played on {night}"):
        game_start(match=in_three_days, user=ann, seats=SEATS)
    assert not in_three_days.games.exists()


def test_on_its_night_the_game_starts(in_three_days, ann):
    Week.objects.filter(pk=in_three_days.week_id).update(date=timezone.localdate())
    assert game_start(match=in_three_days, user=ann, seats=SEATS).number == 1


def test_a_postponed_match_starts_on_its_make_up_date_not_before(season, match, ann, cat):
    today = timezone.localdate()
    Week.objects.filter(pk=match.week_id).update(date=today - timedelta(days=1))
    asked = postponement_ask(match=match, user=ann, date=today + timedelta(days=2), reason="Away")
    postponement_answer(postponement=asked, user=cat, accept=True)
    match.refresh_from_db()
    night = date_format(today + timedelta(days=2), "DATE_FORMAT")
    with pytest.raises(Conflict, match=f"played on {night}"):
        game_start(match=match, user=ann, seats=SEATS)


def test_the_organiser_allows_an_earlier_start_for_that_match_on_record(
    in_three_days, ann, league_admin
):
    with pytest.raises(NotAllowed):
        match_early_start(match=in_three_days, user=ann, allow=True, reason="We agree")
    match_early_start(
        match=in_three_days, user=league_admin, allow=True, reason="Both teams away that night"
    )
    in_three_days.refresh_from_db()
    assert game_start(match=in_three_days, user=ann, seats=SEATS).number == 1
    assert AuditEntry.objects.filter(action="match_early_start").exists()


def test_the_match_page_says_which_night_instead_of_the_start_form(client, in_three_days, ann):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[in_three_days.pk])).content.decode()
    night = date_format(in_three_days.week.date, "DATE_FORMAT")
    assert f"This match is played on {night}: its games start that night" in page
    assert "Start the game" not in page


def test_the_organiser_allows_it_from_the_match_page_and_it_reads_in_french(
    client, in_three_days, league_admin
):
    client.force_login(league_admin)
    url = reverse("league:match", args=[in_three_days.pk])
    page = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "Autoriser un début anticipé" in page
    client.post(
        reverse("league:early_start", args=[in_three_days.pk]),
        {"allow": "yes", "reason": "Both away"},
    )
    assert Match.objects.get(pk=in_three_days.pk).early_start
