"""Subs on the pages: the organiser keeps the season's sub list on the players step; the match
page's start form seats a sub; a captain asks the list from the match page; in French too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import AuditEntry, GameSeat, SeasonSub
from league.selectors.subs import subs_of
from league.services.people import PlayerLine
from league.services.subs import subs_add
from tests.web.french import english_runs

NAMES = ["Ann", "Bob", "Cat", "Dan", "Gus", "Fifteen Two", "Nobs", "Thursday Doubles", "Fall 2026"]


@pytest.fixture
def gus(season, league_admin):
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus")])
    return subs_of(season)[0]


def test_the_organiser_adds_subs_on_the_players_step_and_takes_one_off(
    client, season, league_admin, home_team
):
    client.force_login(league_admin)
    url = reverse("league:organise_players", args=[season.pk])
    answer = client.post(
        url,
        {"action": "subs", "subs-names": "Gus Grant, gus@example.org\nHal", "subs-invite": ""},
        follow=True,
    )
    page = answer.content.decode()
    assert "2 subs added to the list." in page
    assert "Sub list: 2 subs" in page and "Gus Grant" in page
    gus = SeasonSub.objects.get(player__name="Gus Grant").player
    page = client.post(url, {"action": "sub_remove", "player": gus.pk}, follow=True)
    assert "Gus Grant is off the sub list." in page.content.decode()
    assert [p.name for p in subs_of(season)] == ["Hal"]


def test_a_player_of_a_team_is_refused_as_a_sub_on_the_page(
    client, season, league_admin, home_team
):
    client.force_login(league_admin)
    url = reverse("league:organise_players", args=[season.pk])
    answer = client.post(url, {"action": "subs", "subs-names": "Bob"})
    assert answer.status_code == 400
    assert "Bob already play for a team this season" in answer.content.decode()
    assert subs_of(season) == []


def test_the_start_form_offers_the_sub_list_and_seats_a_sub(client, match, ann, gus):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert '<optgroup label="Subs">' in page
    assert "The season's sub can take their seat" in page
    ann_p, cat_p, dan_p = (
        match.home.captain,
        match.away.captain,
        match.away.players.get(name="Dan"),
    )
    answer = client.post(
        reverse("league:start_game", args=[match.pk]),
        {"seat_0": ann_p.pk, "seat_1": cat_p.pk, "seat_2": gus.pk, "seat_3": dan_p.pk,
         "first_dealer": 0, "key": "web-sub"},
    )  # fmt: skip
    game = match.games.get()
    assert answer.status_code == 302 and answer.url == reverse("league:enter", args=[game.pk])
    assert GameSeat.objects.get(game=game, seat=2).is_sub


def test_a_sub_seated_beside_the_other_team_is_refused_on_the_page(client, match, ann, gus):
    # Gus opposite Ann, Bob beside Cat: Bob would play for Nobs.
    client.force_login(ann)
    ann_p, cat_p = match.home.captain, match.away.captain
    bob_p = match.home.players.get(name="Bob")
    answer = client.post(
        reverse("league:start_game", args=[match.pk]),
        {"seat_0": ann_p.pk, "seat_1": cat_p.pk, "seat_2": gus.pk, "seat_3": bob_p.pk,
         "first_dealer": 0},
        follow=True,
    )  # fmt: skip
    assert not match.games.exists()
    assert "Partners sit opposite each other" in answer.content.decode()


def test_a_captain_asks_for_a_sub_from_the_match_page(client, match, ann, gus):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Need a sub?" in page and "Ask the sub list" in page
    answer = client.post(reverse("league:ask_sub", args=[match.pk]), follow=True)
    assert "Asked: 1 sub is told you need a player." in answer.content.decode()
    assert AuditEntry.objects.filter(action="sub_ask").count() == 1


def test_a_visitor_is_not_offered_to_ask_for_a_sub(client, match, gus):
    page = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Need a sub?" not in page


def test_subs_read_in_french(client, match, ann, gus, season, league_admin):
    client.cookies["django_language"] = "fr"
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert english_runs(page.content.decode(), NAMES) == []
    client.force_login(league_admin)
    url = reverse("league:organise_players", args=[season.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert english_runs(page, NAMES) == []
    assert "remplaçant" in page
