"""Visitors' pages can be shared by the micro-cache in front of Django (deploy/nginx.conf):
they set no cookie (nginx never stores an answer that does, so a CSRF cookie would defeat it)
and are not marked private; a signed-in person's pages are."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import play
from tests.tournaments.conftest import director, field, night, play_round  # noqa: F401
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def visitor_pages(venue_week, game, ann, home_team, director, night, field):  # noqa: F811
    play(game, ann, deals=3)
    play_round(night, director)
    tournaments.round_seat_next(user=director, tournament=night)
    season = venue_week.season_id
    return [
        reverse("league:home"),
        reverse("league:rules"),
        reverse("league:league", args=[venue_week.season.league_id]),
        reverse("league:standings", args=[season]),
        reverse("league:seeding", args=[season]),
        reverse("league:schedule", args=[season]),
        reverse("league:match", args=[game.match_id]),
        reverse("league:game", args=[game.pk]),
        reverse("league:team", args=[home_team.pk]),
        reverse("league:records"),
        reverse("league:records_honours"),
        reverse("league:records_skunks") + f"?season={season}",
        reverse("league:records_h2h") + f"?team={home_team.pk}",
        reverse("league:scoreboard", args=[venue_week.venue_id, venue_week.pk]),
        reverse("league:scoreboard_boards", args=[venue_week.venue_id, venue_week.pk]),
        reverse("tournaments:list"),
        reverse("tournaments:tournament", args=[night.pk]),
        reverse("tournaments:round", args=[night.pk, 1]),
        reverse("tournaments:bracket", args=[night.pk]),
        reverse("tournaments:tv", args=[night.pk]),
        reverse("tournaments:version", args=[night.pk]),
    ]


def test_visitors_pages_set_no_cookie_and_may_be_shared(client, visitor_pages):
    for url in visitor_pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert not response.cookies, f"{url} sets {list(response.cookies)}: nginx won't cache it"
        assert "private" not in response.get("Cache-Control", ""), url
        assert "no-store" not in response.get("Cache-Control", ""), url


def test_a_signed_in_persons_pages_are_private(client, visitor_pages, ann):
    client.force_login(ann)
    for url in visitor_pages:
        response = client.get(url)
        assert "private" in response.get("Cache-Control", ""), url
