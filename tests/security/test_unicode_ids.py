"""Digits that are not ASCII ("²", "①", "٣") in a page filter, a form field or a JSON key are
a 404 or a 400 with a sentence, never a server error (``str.isdigit()`` says yes to them,
``int()`` then fails)."""

from __future__ import annotations

import json

import pytest
from django import forms
from django.urls import reverse
from rest_framework.test import APIClient

from league.admin import parse_corrections
from league.kernel.ids import number_from
from tests.factories import first_deal
from tests.tournaments.conftest import director, night  # noqa: F401

UNICODE_DIGITS = ["²", "①", "٣", "５"]


@pytest.mark.parametrize("raw", UNICODE_DIGITS)
def test_a_season_of_unicode_digits_on_the_rules_page_is_a_404(client, played_season, raw):
    assert client.get(reverse("league:rules"), {"season": raw}).status_code == 404


@pytest.mark.parametrize("raw", UNICODE_DIGITS)
def test_a_week_of_unicode_digits_on_the_schedule_is_a_404(client, played_season, raw):
    url = reverse("league:schedule", args=[played_season.pk])
    assert client.get(url, {"week": raw}).status_code == 404


@pytest.mark.parametrize("raw", UNICODE_DIGITS)
def test_a_rival_of_unicode_digits_in_a_dispute_is_ignored_not_a_500(client, game, ann, raw):
    client.force_login(ann)
    url = reverse("league:dispute", args=[game.pk])
    response = client.post(url, {"dispute-claim": "The count was wrong.", "rival": raw})
    assert response.status_code in (200, 302)


@pytest.mark.parametrize("raw", UNICODE_DIGITS)
def test_a_cards_seat_of_unicode_digits_is_a_400_naming_cards(game, ann, raw):
    api = APIClient()
    api.force_authenticate(ann)
    body = first_deal(cards={raw: ["2C", "4D", "8H", "KS"]})
    response = api.post(f"/api/games/{game.pk}/deals/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "cards"
    assert "no seat" in response.json()["detail"]


@pytest.mark.parametrize("raw", UNICODE_DIGITS)
def test_a_corrected_deal_numbered_in_unicode_digits_is_a_form_error(raw):
    with pytest.raises(forms.ValidationError):
        parse_corrections(json.dumps({raw: None}, ensure_ascii=False))


def test_ids_are_read_in_ascii_digits_only():
    assert [number_from(raw) for raw in ["7", "007", *UNICODE_DIGITS, "", " 7", "7_0", "-1"]] == [
        7,
        7,
        *[None] * len(UNICODE_DIGITS),
        None,
        None,
        None,
        None,
    ]
    assert number_from("9" * 19) is None


@pytest.mark.parametrize("raw", ["²", "abc"])
def test_inviting_a_player_id_that_is_no_number_invites_nobody(client, league_admin, season, raw):
    from django.core import mail

    client.force_login(league_admin)
    url = reverse("league:organise_players", args=[season.pk])
    response = client.post(url, {"action": "invite", "player": raw})
    assert response.status_code == 302
    assert not mail.outbox


@pytest.mark.parametrize("raw", ["²", "abc"])
def test_removing_a_ledger_entry_that_is_no_number_is_a_404(client, director, night, raw):  # noqa: F811
    client.force_login(director)
    url = reverse("tournaments:money", args=[night.pk])
    assert client.post(url, {"op": "remove", "entry": raw}).status_code == 404
