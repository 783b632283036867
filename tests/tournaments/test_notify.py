"""A club night's players hear about it: the night's reminder, and where they finished."""

from __future__ import annotations

import datetime as dt

from django.core import mail
from django.utils import timezone

from league.models import Player
from league.services.notify import notify_scheduled
from tests import factories
from tests.tournaments.conftest import finished_night
from tournaments.models import Tournament
from tournaments.selectors import standings_for_tournament


def _addresses(names):
    for name in names:
        player = Player.objects.get(name=name)
        if player.user is None:
            player.user = factories.UserFactory(username=name.lower())
        player.user.email = f"{name.lower()}@example.com"
        player.user.save()
        player.save()


def test_the_nights_entrants_are_reminded_once(
    night, field, director, django_capture_on_commit_callbacks
):
    _addresses(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus"])
    Tournament.objects.filter(pk=night.pk).update(date=timezone.localdate() + dt.timedelta(days=1))
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert notify_scheduled()["club_night_reminders"] == 1
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{n}@example.com" for n in ("ann", "bob", "cy", "dee", "eve", "flo", "gus")
    )
    assert all("Club night on" in m.subject and night.name in m.subject for m in mail.outbox)
    assert f"/tournaments/{night.pk}/" in mail.outbox[0].body


def test_each_entrant_hears_where_they_finished(db, django_capture_on_commit_callbacks):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    with django_capture_on_commit_callbacks(execute=True):
        for name in names:
            factories.PlayerFactory(name=name)
        _addresses(names)
        night = finished_night("Friday Night", names, rounds=3)
    standing = {m.to[0]: m for m in mail.outbox if "you finished" in m.subject}
    assert sorted(standing) == [f"{n.lower()}@example.com" for n in names]
    assert "you finished 1 of 8" in standing["ann@example.com"].subject
    for row in standings_for_tournament(night)["standings"]:
        said = standing[f"{row['entrant'].lower()}@example.com"]
        assert f"you finished {row['rank']} of 8" in said.subject
        assert f"with {row['game_points']} points" in said.body
    assert night.name in standing["ann@example.com"].subject


def test_a_players_calendar_has_the_club_nights_they_are_entered_in(night, field, client):
    from icalendar import Calendar

    from league.services.calendars import calendar_feed_of

    Tournament.objects.filter(pk=night.pk).update(date=dt.date(2026, 12, 11))
    ann = Player.objects.get(name="Ann")
    feed = calendar_feed_of(user=ann.user, player=ann)
    body = client.get(f"/calendar/{feed.token}.ics").content

    [event] = Calendar.from_ical(body).walk("VEVENT")
    assert str(event["SUMMARY"]) == night.name
    assert event.decoded("DTSTART").date() == dt.date(2026, 12, 11)
    assert str(event["UID"]).startswith(f"tournament-{night.pk}@")
