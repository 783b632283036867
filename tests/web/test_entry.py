"""The phone's score-entry page: who may open it, the data its script works from (the server's
own rules), the card-counting endpoint, and the API contract the script relies on."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Deal
from scoring.game import entry_rules
from tests.factories import game_deals

pytestmark = pytest.mark.django_db


def entry_data(response) -> dict:
    match = re.search(
        r'<script id="entry-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the page carries its data as JSON"
    return json.loads(match.group(1))


def test_a_visitor_is_sent_to_log_in(client, game):
    response = client.get(reverse("league:enter", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_player_of_another_team_is_refused_with_a_sentence(client, eve, game):
    client.force_login(eve)
    response = client.get(reverse("league:enter", args=[game.pk]))
    assert response.status_code == 403
    assert "Only the players of these two teams can enter their scores." in (
        response.content.decode()
    )
    assert "entry-data" not in response.content.decode()


def test_the_page_carries_the_servers_own_rules(client, ann, half_game, league):
    client.force_login(ann)
    data = entry_data(client.get(reverse("league:enter", args=[half_game.pk])))
    assert data["rules"] == json.loads(
        json.dumps(entry_rules(league.variant, target=league.target))
    )
    assert 19 not in data["rules"]["show_totals"]
    assert data["skunk_line"] == league.target - league.skunk_margin
    assert [s["name"] for s in data["seats"]] == ["Ann", "Cat", "Bob", "Dan"]
    assert [s["side"] for s in data["seats"]] == [0, 1, 0, 1]
    assert data["urls"]["deals"] == f"/api/games/{half_game.pk}/deals/"


def test_the_page_carries_the_running_totals_in_side_order(client, ann, half_game):
    client.force_login(ann)
    data = entry_data(client.get(reverse("league:enter", args=[half_game.pk])))
    assert [d["number"] for d in data["deals"]] == [1, 2, 3]
    assert [d["dealer"] for d in data["deals"]] == [0, 1, 2]  # the deal passes clockwise
    assert data["deals"][-1]["after"] == [half_game.home_score, half_game.away_score]


def test_the_page_has_no_inline_script_to_run(client, ann, game):
    client.force_login(ann)
    body = client.get(reverse("league:enter", args=[game.pk])).content.decode()
    for tag in re.findall(r"<script[^>]*>", body):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_entry_page_queries_are_fixed(client, ann, half_game, django_assert_num_queries):
    client.force_login(ann)
    url = reverse("league:enter", args=[half_game.pk])
    client.get(url)
    with django_assert_num_queries(11):  # ... and one for the rival entries (none here)
        client.get(url)


def test_score_show_counts_a_29(client, db):
    response = client.get(reverse("league:score_show"), {"hand": "5H 5D 5S JC", "starter": "5C"})
    assert response.status_code == 200
    body = response.json()
    assert body["total"] == 29
    assert body["breakdown"][-1]["label"] == "one for his nobs"


def test_score_show_counts_a_crib_flush_only_with_the_starter(client, db):
    url = reverse("league:score_show")
    hand = {"hand": "2H 4H 6H 8H", "starter": "KS"}
    assert client.get(url, hand).json()["flush"] == 4
    assert client.get(url, {**hand, "crib": "1"}).json()["flush"] == 0


def test_score_show_says_which_card_is_wrong(client, db):
    response = client.get(reverse("league:score_show"), {"hand": "5H 5X 5S JC", "starter": "5C"})
    assert response.status_code == 400
    assert "5X" in response.json()["detail"]


def test_the_api_the_script_uses_stores_a_deal_once_per_key(ann, game):
    """What outbox.js does: a session cookie, the CSRF token in a header, the same key on retry."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    client.get(reverse("league:enter", args=[game.pk]))  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    deal = {k: v for k, v in game_deals(game)[0].items() if k != "cards"}
    body = json.dumps({**deal, "key": str(uuid.uuid4()), "number": 1})
    url = f"/api/games/{game.pk}/deals/"
    first = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    again = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert (first.status_code, again.status_code) == (201, 200)
    assert Deal.objects.filter(game=game).count() == 1


def test_the_api_refuses_without_the_csrf_header(ann, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    deal = {k: v for k, v in game_deals(game)[0].items() if k != "cards"}
    response = client.post(
        f"/api/games/{game.pk}/deals/",
        json.dumps({**deal, "key": str(uuid.uuid4()), "number": 1}),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]  # outbox.js keeps the entry and asks to log in
    assert not Deal.objects.exists()
