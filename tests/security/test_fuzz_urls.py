"""Every address the site answers, asked with ids past 64 bits and odd parameters, answers a page,
a 400 or a 404: never a server error. The addresses come from the URL resolver, so a page added
tomorrow is walked the day it lands."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

HUGE = "251745983518154709465563136"  # past 64 bits
IDS = [HUGE, str(2**63), str(2**63 - 1), "0"]
ODD_QUERIES = [
    "?_export=xlsx&sort=<script>alert(1)</script>&x=%00",
    f"?_export=ods&season={HUGE}&league={HUGE}&is_playoff=maybe&limit={HUGE}&offset=-1",
    f"?_export={HUGE}&page={HUGE}&format=json&language=xx&next=//evil.example",
    "?_export=xls&hand=5H5S5C5D&starter=JH&crib=1&q=" + "%" * 300,
    "?hand=" + "5H" * 500 + "&starter=%00&sort=" + "-" * 50,
]
SLOW = ("/api/schema/", "/api/docs/")  # the schema, not the parameters, is what takes time
_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_CONVERTER = re.compile(r"<(?:\w+:)?\w+>")


def _piece(pattern: object, value: str) -> str | None:
    """One level of a URL pattern with every argument set to ``value`` (None: not fillable)."""
    text = str(pattern)
    if isinstance(pattern, RoutePattern):
        return _CONVERTER.sub(value, text)
    if isinstance(pattern, RegexPattern):
        if "format" in text:
            return None  # DRF's .json twins
        text = _GROUP.sub(value, text).removeprefix("^").removesuffix("$").removesuffix(r"\Z")
        return None if re.search(r"[()\[\]*+?\\|^$]", text) else text
    return None


def _addresses(patterns: list, prefix: str, value: str) -> Iterator[str]:
    for entry in patterns:
        piece = _piece(entry.pattern, value)
        if piece is None:
            continue
        if isinstance(entry, URLResolver):
            yield from _addresses(entry.url_patterns, prefix + piece, value)
        elif isinstance(entry, URLPattern):
            yield prefix + piece


def addresses(value: str, *, admin: bool) -> list[str]:
    found = {
        "/" + a
        for a in _addresses(get_resolver().url_patterns, "", value)
        if admin or not a.startswith("admin/")
    }
    return sorted(found)


def test_the_walk_reaches_the_pages_the_api_and_the_admin():
    walked = addresses(HUGE, admin=True)
    assert f"/games/{HUGE}/" in walked
    assert f"/api/games/{HUGE}/" in walked
    assert f"/seasons/{HUGE}/standings/" in walked
    assert any(a.startswith("/admin/league/game/") for a in walked)
    assert len(walked) > 60


def _asked(client: Client, *, admin: bool, existing: int) -> list[str]:
    """Every address (the admin's too) with an id past 64 bits; the site's and the API's with
    the other odd ids; and with an id that exists, each odd query string."""
    failures = []
    asked = [(HUGE, [""], admin)] + [(value, [""], False) for value in IDS[1:]]
    asked.append((str(existing), ODD_QUERIES, False))
    done = set()  # an address with no id in it is the same for every id: asked once
    for value, queries, with_admin in asked:
        for address in addresses(value, admin=with_admin):
            for query in queries if address not in SLOW else [""]:
                if address + query in done:
                    continue
                done.add(address + query)
                response = client.get(address + query)
                if address == "/readyz" and response.status_code == 503:
                    continue  # a probe's "not ready" (no worker heartbeat here), not an error
                if response.status_code >= 500:
                    failures.append(f"{response.status_code} {address}{query}")
    return failures


@pytest.mark.django_db
def test_a_visitor_gets_no_server_error_anywhere(played_season):
    failures = _asked(Client(raise_request_exception=False), admin=False, existing=played_season.pk)
    assert failures == [], "\n".join(failures)


@pytest.mark.slow  # every URL twice over, signed in: the visitor's walk above stays in make test
@pytest.mark.django_db
def test_a_captain_and_a_judge_get_no_server_error_anywhere(played_season, ann, judge):
    for user in (ann, judge):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        failures = _asked(client, admin=True, existing=played_season.pk)
        assert failures == [], "\n".join(failures)
