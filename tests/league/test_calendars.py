"""Calendar feeds: they parse back as iCalendar, keep each match's UID across a reschedule
(its SEQUENCE and LAST-MODIFIED moving), keep a cancelled match marked cancelled, use the
venue's time zone, and answer 404 once their address is reset."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from icalendar import Calendar

from league.kernel.errors import NotAllowed
from league.models import CalendarEntry, Match, Player
from league.services.calendars import calendar_feed_of, calendar_feed_reset
from tests import factories


@pytest.fixture
def night(week, match, venue):
    venue.time_zone = "America/Toronto"
    venue.save()
    week.date = date(2026, 12, 10)
    week.venue = venue
    week.save()
    match.table = 4
    match.save()
    return week


def _events(client, feed) -> list:
    response = client.get(reverse("league:calendar_feed", args=[feed.token]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return list(Calendar.from_ical(response.content).walk("VEVENT"))


def test_a_players_feed_has_their_match_at_the_venue_in_its_time_zone(night, match, client):
    ann = Player.objects.get(name="Ann")
    feed = calendar_feed_of(user=ann.user, player=ann)
    [event] = _events(client, feed)
    assert str(event["SUMMARY"]) == "Fifteen Two v Nobs"
    starts = event.decoded("DTSTART")
    assert (starts.date(), starts.hour, str(starts.tzinfo)) == (
        date(2026, 12, 10),
        19,
        "America/Toronto",
    )
    assert night.venue.name in str(event["LOCATION"]) and "table 4" in str(event["LOCATION"])
    assert str(event["STATUS"]) == "CONFIRMED" and int(event["SEQUENCE"]) == 0
    assert str(event["URL"]).endswith(f"/matches/{match.pk}/")


def test_a_rescheduled_match_keeps_its_uid_and_raises_its_sequence(night, match, client):
    ann = Player.objects.get(name="Ann")
    feed = calendar_feed_of(user=ann.user, player=ann)
    [before] = _events(client, feed)
    [again] = _events(client, feed)  # nothing changed: nothing moves
    assert int(again["SEQUENCE"]) == 0
    CalendarEntry.objects.update(modified_at=before.decoded("LAST-MODIFIED") - timedelta(days=1))
    night.date = date(2026, 12, 17)
    night.save()
    [after] = _events(client, feed)
    assert str(after["UID"]) == str(before["UID"])
    assert int(after["SEQUENCE"]) == 1
    assert after.decoded("DTSTART").date() == date(2026, 12, 17)
    assert after.decoded("LAST-MODIFIED") > before.decoded("LAST-MODIFIED") - timedelta(days=1)


def test_a_match_taken_off_the_schedule_stays_marked_cancelled(night, match, client, season):
    feed = calendar_feed_of(user=factories.UserFactory(is_superuser=True), season=season)
    [before] = _events(client, feed)
    Match.objects.filter(pk=match.pk).delete()
    [after] = _events(client, feed)
    assert str(after["UID"]) == str(before["UID"])
    assert str(after["STATUS"]) == "CANCELLED" and int(after["SEQUENCE"]) == 1


def test_a_reset_address_answers_404_and_only_the_owner_may_reset(night, client, league_admin):
    bob = Player.objects.get(name="Bob")
    feed = calendar_feed_of(user=bob.user, player=bob)
    old = feed.token
    with pytest.raises(NotAllowed):
        calendar_feed_reset(user=league_admin, feed=feed)
    with pytest.raises(NotAllowed):
        calendar_feed_of(user=league_admin, player=bob)
    client.force_login(bob.user)
    response = client.post(
        reverse("league:calendar_reset"), {"token": old, "next": "/notifications/"}
    )
    assert response.status_code == 302
    assert client.get(reverse("league:calendar_feed", args=[old])).status_code == 404
    feed.refresh_from_db()
    assert feed.token != old and _events(client, feed)


def test_the_players_page_offers_webcal_subscriptions_for_them_and_their_team(
    night, client, home_team
):
    ann = Player.objects.get(name="Ann")
    client.force_login(ann.user)
    page = client.get(reverse("league:notify_choices")).content.decode()
    assert page.count('href="webcal://') == 2
    team_feed = calendar_feed_of(user=ann.user, team=home_team)
    assert f"webcal://127.0.0.1:8000/calendar/{team_feed.token}.ics" in page
