"""The league's cards-dealt setting on the phone's score-entry page: "asked" prompts, after each
deal, for the cards dealt to each seat of the user's team (with the picker, skippable);
"allowed" keeps a link to record one's own; "off" shows neither. The prompt records through the
API, for the player in each seat, and only for the user's own team."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from league.models import DealtCards, DealtHand
from tests.factories import play

pytestmark = pytest.mark.django_db


def entry_data(response) -> dict:
    """The data the entry page's script works from (its JSON script)."""
    found = re.search(
        r'<script id="entry-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found, "the page carries its data as JSON"
    return json.loads(found.group(1))


def _setting(game, value):
    league = game.match.week.season.league
    league.dealt_cards = value
    league.save()


@pytest.fixture
def one_deal(game, ann):
    """Deal 1 entered with its cards (Ann, Cat, Bob, Dan clockwise; Ann and Bob partners)."""
    play(game, ann, deals=1, cards=True)
    return game.deals.get(number=1, is_current=True)


def test_asked_prompts_for_each_seat_of_the_team_with_the_picker(client, game, ann, one_deal):
    _setting(game, DealtCards.ASKED)
    client.force_login(ann)
    response = client.get(reverse("league:enter", args=[game.pk]))
    page = response.content.decode()
    data = entry_data(response)["dealt"]
    assert data["mode"] == "asked" and data["count"] == 5
    # Ann (seat 0) and her partner Bob (seat 2): not Cat's nor Dan's cards
    assert data["seats"] == [
        {"seat": 0, "name": "Ann", "own": True},
        {"seat": 2, "name": "Bob", "own": False},
    ]
    assert data["url"] == reverse("api:game-dealt", args=[game.pk])
    assert "data-dealt-prompt" in page and "data-card-deal" in page
    assert "You may skip it" in page and "data-dealt-skip" in page
    assert "cardpicker.js" in page


def test_allowed_keeps_the_link_and_asks_nothing(client, game, ann, one_deal):
    _setting(game, DealtCards.ALLOWED)
    client.force_login(ann)
    response = client.get(reverse("league:enter", args=[game.pk]))
    page = response.content.decode()
    assert entry_data(response)["dealt"]["mode"] == "allowed"
    assert "data-dealt-prompt" not in page
    assert reverse("league:game_dealt", args=[game.pk]) in page
    assert "Record the cards you were dealt" in page


def test_off_shows_neither_prompt_nor_link(client, game, ann, one_deal):
    _setting(game, DealtCards.OFF)
    client.force_login(ann)
    response = client.get(reverse("league:enter", args=[game.pk]))
    page = response.content.decode()
    assert entry_data(response)["dealt"] == {"mode": "off"}
    assert "data-dealt-prompt" not in page
    assert reverse("league:game_dealt", args=[game.pk]) not in page


def test_the_prompt_records_each_seat_of_the_team_for_its_player(client, game, ann, one_deal):
    _setting(game, DealtCards.ASKED)
    client.force_login(ann)
    url = reverse("api:game-dealt", args=[game.pk])
    bob_dealt = [*one_deal.cards["2"], one_deal.cards["crib"][2]]
    answer = client.post(
        url, {"number": 1, "seat": 2, "cards": " ".join(bob_dealt)}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    hand = DealtHand.objects.select_related("player").get()
    assert (hand.seat, hand.player.name, hand.cards) == (2, "Bob", bob_dealt)
    # not a seat of the other team: refused, nothing stored
    cat_dealt = [*one_deal.cards["1"], one_deal.cards["crib"][1]]
    refused = client.post(
        url, {"number": 1, "seat": 1, "cards": " ".join(cat_dealt)}, content_type="application/json"
    )
    assert refused.status_code == 403
    assert "your own team's seats" in refused.json()["detail"]
    assert DealtHand.objects.count() == 1


def test_the_prompt_s_refusal_is_a_sentence_and_stores_nothing(client, game, ann, one_deal):
    _setting(game, DealtCards.ASKED)
    client.force_login(ann)
    answer = client.post(
        reverse("api:game-dealt", args=[game.pk]),
        {"number": 1, "cards": "5H 5D"},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "deals 5 cards, not 2" in answer.json()["detail"]
    assert not DealtHand.objects.exists()


def test_the_prompt_reads_in_french(client, game, ann, one_deal):
    _setting(game, DealtCards.ASKED)
    client.force_login(ann)
    page = client.get(
        reverse("league:enter", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Vous pouvez passer" in page and "Passer" in page
