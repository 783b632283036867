"""A cancelled night is cancelled everywhere: nobody is asked whether they come (home page,
match page, the answer itself), every page says cancelled with its reason, the captain's list of
matches to play leaves it out, and the calendar feed says why. In French too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from league.kernel.errors import Conflict
from league.models import Match, Player, Week
from league.services.availability import availability_answer
from league.services.calendars import calendar_document, calendar_feed_of
from league.services.postponements import week_cancel


@pytest.fixture
def rained_off(season, home_team, away_team, league_admin):
    """Next Thursday's night, Fifteen Two v Nobs, cancelled: the bar is flooded."""
    week = Week.objects.create(
        season=season, number=1, date=timezone.localdate() + timedelta(days=3)
    )
    match = Match.objects.create(week=week, home=home_team, away=away_team)
    week_cancel(week=week, user=league_admin, reason="The bar is flooded")
    return match


def test_the_home_page_asks_nobody_about_a_cancelled_night(client, rained_off, ann):
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert "This night is cancelled: The bar is flooded" in home
    assert 'value="in"' not in home  # no In / Maybe / Out


def test_the_match_page_offers_no_answer_buttons_under_cancelled(client, rained_off, ann):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[rained_off.pk])).content.decode()
    assert "This night is cancelled: The bar is flooded" in page
    assert "Who is coming" not in page and 'value="in"' not in page


def test_an_answer_for_a_cancelled_night_is_refused_with_the_reason(rained_off, ann):
    with pytest.raises(Conflict, match="cancelled \\(The bar is flooded\\)"):
        availability_answer(
            user=ann, player=Player.objects.get(name="Ann"), week=rained_off.week, answer="in"
        )


def test_the_captain_has_no_games_to_play_on_a_cancelled_night(client, rained_off, ann):
    week = rained_off.week
    Week.objects.filter(pk=week.pk).update(date=timezone.localdate() - timedelta(days=1))
    client.force_login(ann)
    assert "Your matches to play or confirm" not in client.get("/").content.decode()


def test_the_calendar_feed_says_the_night_is_cancelled_and_why(rained_off, ann):
    feed = calendar_feed_of(user=ann, player=Player.objects.get(name="Ann"))
    event = next(iter(Calendar.from_ical(calendar_document(feed.token)).walk("VEVENT")))
    assert event["STATUS"] == "CANCELLED"
    assert "Cancelled: The bar is flooded" in str(event["DESCRIPTION"])


def test_the_cancelled_night_reads_in_french(client, rained_off, ann):
    client.force_login(ann)
    home = client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert "annulée" in home and "The bar is flooded" in home
