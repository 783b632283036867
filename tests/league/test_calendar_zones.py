"""Calendar feeds read by an independent parser (vobject, not the icalendar library that writes
them): each night in the league's time zone (TZID), a venue's own zone where it has one, set at
/organise/; a moved event's SEQUENCE goes up; a cancelled event says why in its DESCRIPTION."""

from __future__ import annotations

from datetime import timedelta

import pytest
import vobject
from django.urls import reverse
from django.utils import timezone

from league.kernel.errors import ValidationFailed
from league.models import League, Match, Player, Venue, Week
from league.services.calendars import calendar_document, calendar_feed_of
from league.services.postponements import match_postpone, week_cancel
from league.services.time_zones import league_time_zone_set, venue_time_zone_set


@pytest.fixture
def toronto(league, season, home_team, away_team, league_admin):
    """Thursday Doubles plays in Toronto; week 1 in ten days at The Crooked Peg (no zone of its
    own), week 2 a week later."""
    league_time_zone_set(league=league, user=league_admin, zone="America/Toronto")
    venue = Venue.objects.create(name="The Crooked Peg")
    first = timezone.localdate() + timedelta(days=10)
    weeks = [
        Week.objects.create(
            season=season, number=n, date=first + timedelta(weeks=n - 1), venue=venue
        )
        for n in (1, 2, 3, 4)
    ]
    return {
        "venue": venue,
        "weeks": weeks,
        "match": Match.objects.create(week=weeks[0], home=home_team, away=away_team),
        "later": Match.objects.create(week=weeks[1], home=away_team, away=home_team),
    }


def _zone(event) -> str:
    """The TZID the feed wrote on the event's start (vobject keeps it under its own name)."""
    params = event.dtstart.params
    return (params.get("TZID") or params.get("X-VOBJ-ORIGINAL-TZID") or [""])[0]


def _events(user) -> dict[str, vobject.base.Component]:
    feed = calendar_feed_of(user=user, player=Player.objects.get(user=user))
    cal = vobject.readOne(calendar_document(feed.token).decode())
    return {str(e.url.value).rstrip("/").rsplit("/", 1)[-1]: e for e in cal.vevent_list}


def test_a_night_is_in_the_leagues_time_zone(toronto, ann):
    event = _events(ann)[str(toronto["match"].pk)]
    starts = event.dtstart.value
    assert _zone(event) == "America/Toronto"
    assert starts.utcoffset() in (timedelta(hours=-5), timedelta(hours=-4))


def test_a_venue_with_its_own_zone_keeps_it(toronto, ann, league_admin):
    venue_time_zone_set(venue=toronto["venue"], user=league_admin, zone="Europe/Paris")
    event = _events(ann)[str(toronto["match"].pk)]
    assert _zone(event) == "Europe/Paris"
    assert event.dtstart.value.utcoffset() in (timedelta(hours=1), timedelta(hours=2))


def test_a_moved_event_has_a_higher_sequence(toronto, ann, league_admin):
    match = toronto["match"]
    before = int(_events(ann)[str(match.pk)].sequence.value)
    match_postpone(
        match=match, user=league_admin, date=match.week.date + timedelta(days=2), reason="Bar"
    )
    moved = _events(ann)[str(match.pk)]
    assert int(moved.sequence.value) > before
    assert moved.dtstart.value.date() == match.week.date + timedelta(days=2)


def test_a_cancelled_event_says_why(toronto, ann, league_admin):
    week_cancel(week=toronto["weeks"][1], user=league_admin, reason="Snowstorm")
    event = _events(ann)[str(toronto["later"].pk)]
    assert event.status.value == "CANCELLED"
    assert "Cancelled: Snowstorm" in event.description.value


def test_a_zone_that_does_not_exist_is_refused(league, league_admin):
    with pytest.raises(ValidationFailed, match="Mars/Olympus is not a time zone"):
        league_time_zone_set(league=league, user=league_admin, zone="Mars/Olympus")
    assert League.objects.get(pk=league.pk).time_zone == ""


def test_the_organiser_sets_the_zones_at_organise(client, toronto, league, league_admin):
    client.force_login(league_admin)
    page = client.get(reverse("league:organise")).content.decode()
    assert reverse("league:organise_time_zones") in page
    client.post(
        reverse("league:organise_time_zones"),
        {f"league-{league.pk}": "Europe/London", f"venue-{toronto['venue'].pk}": ""},
    )
    assert League.objects.get(pk=league.pk).time_zone == "Europe/London"
    fr = client.get(
        reverse("league:organise_time_zones"), headers={"accept-language": "fr"}
    ).content.decode()
    assert "Fuseaux horaires" in fr
