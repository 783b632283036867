"""Security review, L10: after ``kill -9`` mid-import, the half-written season stays hidden
(``importing``) until the import is run again. The API hid it; its pages answered 200 to
visitors. Every page of it is a 404 now, and the other seasons' pages do not show it."""

from __future__ import annotations

import pytest
from django.test import Client

from league.models import Player, Season


@pytest.fixture
def half_imported(game, ann, home_team):
    """The conftest's season as ``kill -9`` leaves an import: written, still ``importing``."""
    Season.objects.update(importing=True)
    return game


def pages_of(game, team) -> list[str]:
    match = game.match
    week = match.week
    ann = Player.objects.get(name="Ann")
    return [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/live/",
        f"/matches/{match.pk}/",
        f"/teams/{team.pk}/",
        f"/players/{ann.pk}/",
        f"/weeks/{week.pk}/sheets/",
        *([f"/venues/{week.venue_id}/weeks/{week.pk}/scoreboard/"] if week.venue_id else []),
    ]


@pytest.mark.django_db
def test_every_page_of_a_half_imported_season_is_a_404(half_imported, home_team, ann, judge):
    for who in (None, ann, judge):
        client = Client()
        if who is not None:
            client.force_login(who)
        for url in [*pages_of(half_imported, home_team), f"/games/{half_imported.pk}/enter/"]:
            if who is None and url.endswith("/enter/"):
                continue  # a visitor is sent to log in first
            assert client.get(url).status_code == 404, (who, url)


@pytest.mark.django_db
def test_the_same_pages_answer_once_the_import_is_done(game, home_team):
    for url in pages_of(game, home_team):
        assert Client().get(url).status_code == 200, url


@pytest.mark.django_db
def test_the_league_page_does_not_list_a_half_imported_season(half_imported):
    season = Season.objects.get()
    page = Client().get(f"/leagues/{season.league_id}/")
    assert page.status_code == 200
    assert season.name not in page.content.decode()
