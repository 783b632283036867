"""The installable web app: a manifest, and a service worker small enough to read (the issue's
limit for a hand-written one is 100 lines) that keeps only this site's pages, never the admin
or the API, and names every file it keeps with the URL the pages really load."""

from __future__ import annotations

import json

import pytest
from django.templatetags.static import static

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_from_the_root_fresh_on_every_visit(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert len(body.splitlines()) < 100
    assert "{{" not in body and "{%" not in body
    for name in ("js/entry.js", "js/outbox.js", "css/pegboard.css"):
        assert f'"{static(name)}"' in body
    assert "/jsi18n/" in body
    assert r"^\/(admin|api)\/" in body  # never keeps the admin or the API


def test_a_new_deploy_gives_phones_a_new_worker(client, monkeypatch):
    from league.views import pwa

    first = client.get("/sw.js").content
    pwa.shell_version.cache_clear()
    monkeypatch.setattr(pwa, "SHELL_FILES", (*pwa.SHELL_FILES[:-1], "css/missing.css"))
    try:
        assert client.get("/sw.js").content != first
    finally:
        pwa.shell_version.cache_clear()


def test_the_manifest_opens_the_home_page_standalone(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["src"] == static("icons/peg.svg")


def test_pages_link_the_manifest_and_only_signed_in_players_get_the_worker(client, ann):
    page = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "data-signed-in" not in page  # a visitor's page removes any worker
    client.force_login(ann)
    assert "data-signed-in" in client.get("/").content.decode()
