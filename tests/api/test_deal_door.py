"""The deal door reads its request in one function (``league.kernel.api.read_deal_request``)
rather than a serializer per deal: every odd body is refused as the serializer refused it, in
the same words and languages, the same field named, nothing stored; and the answer is the same."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from league.models import Deal
from league.services.tokens import token_issue
from tests.factories import plain_deal

pytestmark = pytest.mark.django_db

KEY_EN = "The entry key is a short text made by your device, like a UUID."
KEY_FR = "La clé de saisie est un court texte créé par votre appareil, comme un UUID."
WHOLE_EN, WHOLE_FR = "This must be a whole number, like 12.", "Il faut un nombre entier, comme 12."
AT_LEAST_1 = (
    "Ensure this value is greater than or equal to 1.",
    "Assurez-vous que cette valeur est supérieure ou égale à\u00a01.",  # DRF's spacing
)
AT_MOST_999 = (
    "Ensure this value is less than or equal to 999.",
    "Assurez-vous que cette valeur est inférieure ou égale à 999.",
)
DEAL = json.dumps(plain_deal(0))[1:-1]  # the deal's fields, to write bodies around them


def around(envelope: str) -> str:
    """A raw JSON body: ``envelope`` (written as JSON) and a good deal 1."""
    return "{" + envelope + ", " + DEAL + "}"


# (raw JSON body, field named, English, French)
REFUSED = [
    (around('"key": ""'), "key", KEY_EN, KEY_FR),
    (around('"key": "   "'), "key", KEY_EN, KEY_FR),
    (around('"key": 5'), "key", KEY_EN, KEY_FR),
    (around('"key": true'), "key", KEY_EN, KEY_FR),
    (around('"key": ["a"]'), "key", KEY_EN, KEY_FR),
    (around('"key": "' + "x" * 65 + '"'), "key", KEY_EN, KEY_FR),
    (
        around('"key": "\\ud800abc"'),
        "key",
        "Surrogate characters are not allowed: U+D800.",
        "Les caractères de substitution ne sont pas autorisés\u00a0: U+D800.",
    ),
    (around('"number": 0'), "number", *AT_LEAST_1),
    (around('"number": -5'), "number", *AT_LEAST_1),
    (around('"number": 1000'), "number", *AT_MOST_999),
    (around('"number": 1000000000000000000000000000000'), "number", *AT_MOST_999),
    (around('"number": "1"'), "number", WHOLE_EN, WHOLE_FR),
    (around('"number": 1.0'), "number", WHOLE_EN, WHOLE_FR),
    (around('"number": true'), "number", WHOLE_EN, WHOLE_FR),
    (around('"key": "", "number": "x"'), "key", KEY_EN, KEY_FR),  # the key first
    (around('"zzz": 1, "aaa": 2, "key": 5'), "aaa", "Unknown field aaa.", None),
    ('{"key": "k", "number": 0, "dealer": "x"}', "number", *AT_LEAST_1),  # before the deal
    ("[]", None, "Send a JSON object.", "Envoyez un objet JSON."),
    ('"text"', None, "Send a JSON object.", "Envoyez un objet JSON."),
    ("5", None, "Send a JSON object.", "Envoyez un objet JSON."),
    ("null", None, "No data provided", "No data provided"),  # DRF's words, untranslated
]


def phone(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("body", "field", "english", "french"), REFUSED)
def test_an_odd_deal_request_is_refused_as_before(game, ann, body, field, english, french, lang):
    response = phone(ann).generic(
        "POST",
        f"/api/games/{game.pk}/deals/",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == "invalid"
    assert answer.get("field") == field
    if lang == "en" or french is not None:
        assert answer["detail"] == (english if lang == "en" else french)
    else:
        assert answer["detail"] != english  # "Champ inconnu : aaa."
        assert "aaa" in answer["detail"]
    assert not Deal.objects.filter(game=game).exists()


def test_an_outsiders_odd_request_is_refused_for_its_body_first(game, eve):
    """The body is read before the service asks who may enter: an unknown field is a 400 for
    anyone, as it was."""
    response = phone(eve).post(
        f"/api/games/{game.pk}/deals/", {"bogus": 1, **plain_deal(0)}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "bogus"


def test_a_trimmed_key_is_the_same_key(game, ann):
    """The key is trimmed as DRF trimmed it: a retry with spaces around the key gets the deal
    it stored back (200), not a second deal."""
    client = phone(ann)
    url = f"/api/games/{game.pk}/deals/"
    first = client.post(url, {"key": " k-1 ", "number": 1, **plain_deal(0)}, format="json")
    again = client.post(url, {"key": "k-1", "number": 1, **plain_deal(0)}, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["key"] == "k-1"
    assert again.json() == first.json()
    assert Deal.objects.filter(game=game).count() == 1


def test_a_deals_answer_says_what_was_stored(game, ann):
    client = phone(ann)
    url = f"/api/games/{game.pk}/deals/"
    body = {
        "key": "c1",
        "number": 1,
        "dealer": 0,
        "starter": "JH",
        "pegging": [3, 2],
        "shows": {"0": 8, "1": 8, "2": 8, "3": 8},
        "crib": 4,
    }
    answer = client.post(url, body, format="json").json()
    stored = Deal.objects.get(game=game)
    assert answer == {
        "id": stored.pk,
        "game": game.pk,
        "number": 1,
        "version": 1,
        "is_current": True,
        "dealer": 0,
        "starter": "JH",
        "heels": True,  # a jack cut: his heels, whatever was sent
        "pegging": [3, 2],
        "shows": {"0": 8, "1": 8, "2": 8, "3": 8},
        "crib": 4,
        "cards": None,
        "home_after": stored.home_after,
        "away_after": stored.away_after,
        "key": "c1",
        "reason": "",
        "is_rival": False,
        "settled_at": None,
        "entered_by": ann.username,
        "created_at": stored.created_at.isoformat().replace("+00:00", "Z"),
    }
    assert client.get(url).json() == [answer]
    assert client.get(f"/api/deals/{stored.pk}/").json() == answer
