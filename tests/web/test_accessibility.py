"""Every page keeps to the production CSP (no inline script or style) and to the basics of
accessible HTML: a language, one main landmark, labelled inputs, text for images."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages(season, finished_game, match, home_team, venue_week):
    return [
        "/",
        reverse("league:standings", args=[season.pk]),
        reverse("league:schedule", args=[season.pk]),
        reverse("league:seeding", args=[season.pk]),
        reverse("league:match", args=[match.pk]),
        reverse("league:game", args=[finished_game.pk]),
        reverse("league:team", args=[home_team.pk]),
        reverse("league:player", args=[home_team.captain.pk]),
        reverse("league:scoreboard", args=[venue_week.venue_id, venue_week.pk]),
        reverse("league:enter", args=[finished_game.pk]),
        reverse("league:rules"),
        reverse("login"),
    ]


@pytest.mark.parametrize("who", ["visitor", "captain", "other captain"])
def test_pages_keep_to_the_csp_and_accessible_basics(client, pages, ann, cat, who):
    if who == "captain":
        client.force_login(ann)
    elif who == "other captain":
        client.force_login(cat)
    for url in pages:
        response = client.get(url, follow=True)
        body = response.content.decode()
        assert response.status_code in (200, 403), url
        assert re.search(r'<html lang="(en|fr)">', body), url
        assert body.count("<main") == 1, url
        for tag in re.findall(r"<script[^>]*>", body):
            assert "src=" in tag or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"\sstyle=", body), url
        assert not re.search(r"\son[a-z]+=", body), url  # no inline event handlers
        for tag in re.findall(r"<img[^>]*>", body):
            assert "alt=" in tag, (url, tag)
        ids = set(re.findall(r'<label[^>]*for="([^"]+)"', body))
        for tag in re.findall(r"<(?:input|select|textarea)[^>]*>", body):
            if re.search(r'type="(hidden|submit)"', tag):
                continue
            id_ = re.search(r'id="([^"]+)"', tag)
            assert id_ and id_.group(1) in ids, (url, tag)
