"""The discard analyser's page and API: anyone gives the cards dealt and whose crib it is and
reads every discard ranked, in English and French; the method is said on the page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.discard import analyse_discards

pytestmark = pytest.mark.django_db

HAND = "5H 5D JS 4C KD 9S"


def test_a_visitor_sees_every_discard_ranked_best_first(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):  # the session and the language, no league data
        response = client.get(reverse("league:discard"), {"cards": HAND, "crib": "mine"})
    body = response.content.decode()
    rows = re.findall(r"<tr(?: class=\"best\")?><td>([^<]+)</td><td>([^<]+)</td>", body)
    assert len(rows) == 15
    expected = analyse_discards(HAND, own_crib=True)
    assert [r[0] for r in rows] == [r.discard_text for r in expected]
    assert rows[0] == ("4C 9S", "5H 5D JS KD")
    assert "16.60" in body  # the best total, hand 12.41 + crib 4.19
    assert "drawn uniformly from the cards you cannot see" in body
    assert "Pegging is left out" in body
    assert "its points are added." in body


def test_the_pone_sees_the_crib_taken_away(client):
    body = client.get(reverse("league:discard"), {"cards": HAND, "crib": "theirs"}).content.decode()
    assert "its points are taken away" in body
    assert "−4.19" in body or "-4.19" in body  # the crib of the best dealer's discard, signed


def test_a_partner_dealing_counts_as_your_sides_crib(client):
    url = reverse("league:discard")
    args = {"cards": "5H 5D JS 4C KD", "variant": "partnership-121"}
    partner = client.get(url, {**args, "crib": "partner"}).content.decode()
    mine = client.get(url, {**args, "crib": "mine"}).content.decode()
    table = lambda body: body[body.index("<tbody>") : body.index("</tbody>")]  # noqa: E731
    assert table(partner) == table(mine)
    refused = client.get(url, {"cards": HAND, "crib": "partner"}).content.decode()
    assert "Only the four-player game has a partner to deal." in refused


def test_the_wrong_number_of_cards_is_refused_in_a_sentence(client):
    response = client.get(reverse("league:discard"), {"cards": "5H 5D", "crib": "mine"})
    body = response.content.decode()
    assert "This game deals 6 cards, not 2." in body
    assert "<tbody>" not in body


def test_the_page_reads_in_french(client):
    body = client.get(
        reverse("league:discard"),
        {"cards": HAND, "crib": "theirs"},
        HTTP_ACCEPT_LANGUAGE="fr",
    ).content.decode()
    assert "Les cartes qu&#x27;on vous a distribuées" in body
    assert "tirés uniformément parmi les cartes que vous ne voyez pas" in body
    assert "Chaque écart, le meilleur d" in body
    assert "16,60" not in body and re.search(r"\d+,\d\d", body)  # French decimals


def test_the_rules_page_links_to_the_analyser(client):
    body = client.get(reverse("league:rules")).content.decode()
    assert f'href="{reverse("league:discard")}"' in body


def test_the_api_answers_the_same_ranking(client):
    response = client.get("/api/discard/", {"cards": HAND, "crib": "theirs"})
    assert response.status_code == 200
    data = response.json()
    expected = analyse_discards(HAND, own_crib=False)
    assert data["own_crib"] is False and data["variant"] == "singles-121"
    assert [r["discard"] for r in data["discards"]] == [
        [str(c) for c in r.discard] for r in expected
    ]
    assert data["discards"][0]["total"] == pytest.approx(expected[0].total)
    assert all(r["crib"] < 0 for r in data["discards"])


def test_the_api_refuses_bad_cards_with_a_sentence(client):
    response = client.get("/api/discard/", {"cards": "5H 5H 5D JS 4C KD"})
    assert response.status_code == 400
    assert "5H" in response.json()["detail"] and "twice" in response.json()["detail"]
    seven = client.get("/api/discard/", {"cards": HAND, "variant": "seven-card-181"})
    assert seven.json()["detail"] == "This game deals 7 cards, not 6."
