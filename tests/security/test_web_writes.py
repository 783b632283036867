"""The web pages' writes (start a game, confirm, reject) refuse whoever may not make them, and
every POST on the site needs the CSRF token. Routes come from the URL resolver."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from league.services.disputes import dispute_raise
from league.services.games import game_start
from tests.security.routes import database_state, finish, site_routes

WEB_WRITES = {"league:start_game", "league:confirm", "league:reject"}


@pytest.fixture
def night(match, home_team, away_team, ann, cat):
    """Fifteen Two v Nobs: game 1 finished (entered by Ann) and disputed, game 2 under way."""
    finished = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    finish(finished, ann)
    playing = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    dispute_raise(game=finished, user=cat, claim="Deal 2's crib was 4.", deal_number=2)
    players = {p.name: p.pk for p in [*home_team.players.all(), *away_team.players.all()]}
    body = {
        "seat_0": players["Ann"],
        "seat_1": players["Cat"],
        "seat_2": players["Bob"],
        "seat_3": players["Dan"],
        "first_dealer": 0,
        "claim": "Deal 1's crib was 4, not 5.",
        "deal_number": 1,
        "username": "ann",
        "password": "pass-word-123",
        "language": "fr",
    }
    ids = sorted({match.pk, finished.pk, playing.pk, match.week_id, match.week.season_id})
    return SimpleNamespace(match=match, games=[finished, playing], body=body, ids=ids)


def urls(night: SimpleNamespace) -> list[tuple[str, str]]:
    """(route name, URL) for every site route, its arguments filled with the night's ids."""
    out = []
    for page in site_routes():
        for values in itertools.product(night.ids, repeat=len(page.kwargs)):
            kwargs = dict(zip(page.kwargs, values, strict=True))
            out.append((page.name, reverse(page.name, kwargs=kwargs)))
    return out


def test_the_resolver_finds_the_web_writes():
    assert {p.name for p in site_routes()} >= WEB_WRITES


def test_a_visitor_posting_anywhere_on_the_site_changes_nothing(night):
    before = database_state()
    for name, url in urls(night):
        response = Client().post(url, night.body)
        if name in WEB_WRITES:
            assert response.status_code == 302, url
            assert response["Location"].startswith("/accounts/login/"), url
        assert database_state() == before, url


def test_every_post_on_the_site_needs_the_csrf_token(night, ann):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    before = database_state()
    for name, url in urls(night):
        if name == "league:unsubscribe":
            # RFC 8058: a mail provider posts the one-click unsubscribe with no cookie, so its
            # signed link is the authority; an unsigned one is 404 (test_notify signs one).
            assert browser.post(url, night.body).status_code == 404, url
            continue
        assert browser.post(url, night.body).status_code == 403, url
    assert database_state() == before
    assert browser.session.get("_auth_user_id") == str(ann.pk)


@pytest.mark.parametrize("who", ["Eve", "Fay"], ids=["captain", "player"])
def test_a_third_team_changes_nothing_through_the_web_pages(night, other_team, who):
    browser = Client()
    browser.force_login(other_team.players.get(name=who).user)
    before = database_state()
    posts = [reverse("league:start_game", kwargs={"pk": night.match.pk})]
    for game in night.games:
        for name in ("league:confirm", "league:reject"):
            posts.append(reverse(name, kwargs={"pk": game.pk}))
    for url in posts:
        response = browser.post(url, night.body)
        assert response.status_code in (302, 400, 403), url
    assert database_state() == before


def test_the_entering_team_cannot_confirm_through_the_web_page(night, home_team):
    before = database_state()
    for player in home_team.players.all():
        browser = Client()
        browser.force_login(player.user)
        browser.post(reverse("league:confirm", kwargs={"pk": night.games[0].pk}))
    assert database_state() == before
