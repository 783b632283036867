"""A JSON body nested absurdly deep, or larger than any request the API takes, is a 400 with a
sentence on every API write (the token endpoint, open to visitors, included), never a 500: the
one JSON parser refuses it before Python's recursion gives out."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.parsers import JSONParser
from rest_framework.test import APIClient
from rest_framework.views import APIView

from league.kernel.parsers import BODY_DEPTH_LIMIT, BoundedJSONParser
from tests.factories import first_deal

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT], ids=["list", "object"])
def test_a_body_nested_100000_deep_is_a_400_at_the_token_endpoint(db, body):
    response = APIClient().post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert "nested" in response.json()["detail"]


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT], ids=["list", "object"])
def test_a_deal_nested_100000_deep_is_a_400_and_nothing_is_stored(game, ann, body):
    api = APIClient()
    api.force_authenticate(ann)
    response = api.post(f"/api/games/{game.pk}/deals/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert "nested" in response.json()["detail"]
    assert game.deals.count() == 0


def test_a_deal_nested_just_past_the_limit_is_refused_in_words(game, ann):
    api = APIClient()
    api.force_authenticate(ann)
    nested: object = 1
    for _ in range(BODY_DEPTH_LIMIT + 1):
        nested = [nested]
    body = first_deal(cards={"1": nested})
    response = api.post(f"/api/games/{game.pk}/deals/", body, format="json")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


def test_a_body_larger_than_any_request_is_a_400(db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = '{"username": "%s", "password": "x"}' % ("a" * 20_000)
    response = APIClient().post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert "too large" in response.json()["detail"]


def _api_views(patterns: list) -> list[type[APIView]]:
    views: list[type[APIView]] = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            views += _api_views(entry.url_patterns)
        elif isinstance(entry, URLPattern):
            cls = getattr(entry.callback, "cls", None)
            if isinstance(cls, type) and issubclass(cls, APIView):
                views.append(cls)
    return views


def test_every_api_view_reads_json_with_the_bounded_parser():
    views = _api_views(get_resolver().url_patterns)
    assert views
    for view in views:
        json_parsers = [p for p in view.parser_classes if issubclass(p, JSONParser)]
        assert all(issubclass(p, BoundedJSONParser) for p in json_parsers), view
