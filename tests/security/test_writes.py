"""Every write is refused to whoever may not make it, and a refused write changes nothing.

The routes come from the URL resolver (and are checked against the published schema), so an
endpoint added tomorrow is in these tests the day it lands.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.services.disputes import dispute_raise
from league.services.games import game_start
from tests import factories
from tests.factories import deal_game
from tests.security.routes import (
    LOGIN_ROUTES,
    UNSAFE,
    Route,
    api_routes,
    database_state,
    deal_body,
    finish,
    good_body,
    write_routes,
)

# What the API lets people write today; the resolver must find at least these.
KNOWN_WRITES = {
    "api:match-games",
    "api:game-deals",
    "api:game-confirm",
    "api:game-disputes",
    "api:game-reject",
    "api:token",
}


@pytest.fixture
def night(week, match, home_team, away_team, other_team, ann, cat, eve):
    """Fifteen Two v Nobs (game 1 finished and disputed, game 2 under way) and, at table 2,
    His Heels v Fifteen Two (game 1 under way)."""
    finished = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    finish(finished, ann)
    playing = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    dispute = dispute_raise(game=finished, user=cat, claim="Deal 2's crib was 4.", deal_number=2)
    own = factories.MatchFactory(week=week, home=other_team, away=home_team, table=2)
    own_game = game_start(match=own, user=eve, seats=["Eve", "Ann", "Fay", "Bob"])
    return SimpleNamespace(
        match=match,
        games=[finished, playing],
        dispute=dispute,
        own_match=own,
        own_game=own_game,
    )


def targets(route: Route, night: SimpleNamespace) -> list[str]:
    """The route's URL for each object of Fifteen Two v Nobs it can act on."""
    if not route.has_pk:
        return [reverse(route.name)]
    model = route.model.__name__ if route.model else ""
    if model == "Match":
        pks = [night.match.pk]
    elif model == "Game":
        pks = [g.pk for g in night.games]
    elif model == "Dispute":
        pks = [night.dispute.pk]
    elif route.model is not None and route.model.objects.exists():
        pks = [route.model.objects.order_by("pk").first().pk]
    else:
        pks = [999999]
    return [reverse(route.name, kwargs={"pk": pk}) for pk in pks]


def send(client: APIClient, method: str, url: str, body: Any) -> Any:
    return getattr(client, method)(url, body, format="json")


# --- The list of writes -------------------------------------------------------------------------


@pytest.fixture
def published_schema(db) -> dict[str, Any]:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def schema_path(route: Route) -> str:
    """``api/^games/(?P<pk>[^/.]+)/deals/$`` as the schema writes it: ``/api/games/{id}/deals/``."""
    path = re.sub(r"\(\?P<pk>[^)]*\)", "{id}", route.pattern)
    return "/" + path.replace("^", "").replace("$", "")


def test_the_resolver_finds_every_write_the_schema_documents(published_schema):
    routes = write_routes()
    assert {r.name for r in routes} >= KNOWN_WRITES
    from_resolver = {(schema_path(r), m) for r in routes for m in r.methods if m in UNSAFE}
    from_schema = {
        (path, method)
        for path, operations in published_schema["paths"].items()
        for method in operations
        if method in UNSAFE
    }
    assert from_resolver == from_schema


# --- Visitors ------------------------------------------------------------------------------------


def test_a_visitor_can_write_nothing_anywhere(night):
    before = database_state()
    tried = 0
    for route in api_routes():
        if route.name in LOGIN_ROUTES:
            continue
        for url in targets(route, night):
            for method in UNSAFE:
                response = send(APIClient(), method, url, good_body(route, night.match))
                tried += 1
                if method in route.methods:
                    assert response.status_code == 401, (method, url, response.content)
                    assert response.headers["WWW-Authenticate"].startswith("Token")
                else:
                    assert response.status_code in (401, 403, 405), (method, url)
    assert tried > 50
    assert database_state() == before


def test_a_made_up_or_malformed_token_writes_nothing(night):
    before = database_state()
    made_up = "Token 0123456789abcdef0123456789abcdef01234567"
    for header in [made_up, "Token", "Token a b", "Bearer x"]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        for route in write_routes():
            if route.name in LOGIN_ROUTES:
                continue
            for url in targets(route, night):
                for method in route.methods & set(UNSAFE):
                    response = send(client, method, url, good_body(route, night.match))
                    assert response.status_code in (401, 403), (header, method, url)
    assert database_state() == before


def test_an_inactive_account_writes_nothing(night, ann, session_client, token_client):
    clients = [session_client(ann), token_client(ann)]
    ann.is_active = False
    ann.save()
    before = database_state()
    for client in clients:
        for route in write_routes():
            if route.name in LOGIN_ROUTES:
                continue
            for url in targets(route, night):
                for method in route.methods & set(UNSAFE):
                    response = send(client, method, url, good_body(route, night.match))
                    assert response.status_code in (401, 403), (method, url)
    assert database_state() == before


# --- A captain (or player) of a third team ----------------------------------------------------


@pytest.mark.parametrize("who", ["Eve", "Fay"], ids=["captain", "player"])
@pytest.mark.parametrize("door", ["session", "token"])
def test_a_third_team_can_change_nothing_of_someone_elses_match(
    night, other_team, session_client, token_client, who, door
):
    user = other_team.players.get(name=who).user
    client = session_client(user) if door == "session" else token_client(user)
    before = database_state()
    tried = 0
    for route in write_routes():
        if route.name in LOGIN_ROUTES:
            continue
        for url in targets(route, night):
            for method in sorted(route.methods & set(UNSAFE)):
                response = send(client, method, url, good_body(route, night.match))
                tried += 1
                # who is asking is checked before the game's state: always 403, never 409;
                # a route whose kind of object this league night has none of (a tournament's
                # playoff match) is asked about one that does not exist: 404 is as good
                allowed = {403, 404} if "/999999/" in url else {403}
                assert response.status_code in allowed, (method, url, response.content)
                assert response.json()["detail"]
    assert tried >= 9
    assert database_state() == before


def can_record_by_match(rows: list[dict], match_of) -> dict[int, set[bool]]:
    seen: dict[int, set[bool]] = {}
    for row in rows:
        seen.setdefault(match_of(row), set()).add(row["can_record"])
    return seen


def test_a_third_team_is_never_offered_someone_elses_match_as_writable(night, eve, session_client):
    client = session_client(eve)
    bc, own = night.match.pk, night.own_match.pk

    matches = client.get("/api/matches/").json()["results"]
    assert can_record_by_match(matches, lambda m: m["id"]) == {bc: {False}, own: {True}}
    mine = client.get("/api/matches/?mine=1").json()["results"]
    assert [m["id"] for m in mine] == [own]
    assert client.get(f"/api/matches/{bc}/").json()["can_record"] is False

    games = client.get("/api/games/").json()["results"]
    assert can_record_by_match(games, lambda g: g["match"]) == {bc: {False}, own: {True}}
    my_games = client.get("/api/games/?mine=1").json()["results"]
    assert [g["id"] for g in my_games] == [night.own_game.pk]
    assert client.get(f"/api/games/?mine=1&match={bc}").json()["results"] == []
    assert (
        client.get(f"/api/matches/?mine=1&season={night.match.week.season_id}").json()["results"]
        == mine
    )
    for game in night.games:
        assert client.get(f"/api/games/{game.pk}/").json()["can_record"] is False
    assert {g["can_record"] for g in client.get(f"/api/matches/{bc}/games/").json()} == {False}

    # Their dispute is theirs: not listed, not readable.
    assert client.get("/api/disputes/").json()["results"] == []
    assert client.get(f"/api/games/{night.games[0].pk}/disputes/").json() == []
    assert client.get(f"/api/disputes/{night.dispute.pk}/").status_code == 404


def test_the_players_of_the_match_are_offered_it(night, ann, cat, session_client):
    """The other side of the previous test: the filters do not simply hide everything."""
    for user in (ann, cat):
        mine = session_client(user).get("/api/matches/?mine=1").json()["results"]
        assert night.match.pk in [m["id"] for m in mine]
        assert all(m["can_record"] for m in mine)


# --- Confirming your own entry ----------------------------------------------------------------


@pytest.mark.parametrize("enterer", ["Ann", "Bob"], ids=["captain", "player"])
@pytest.mark.parametrize("door", ["session", "token"])
def test_nobody_on_the_entering_team_can_confirm_the_game(
    match, home_team, away_team, session_client, token_client, enterer, door
):
    make = session_client if door == "session" else token_client
    user = home_team.players.get(name=enterer).user
    partner = home_team.players.exclude(name=enterer).get().user
    client = make(user)
    started = client.post(
        f"/api/matches/{match.pk}/games/", {"seats": ["Ann", "Cat", "Bob", "Dan"]}, format="json"
    )
    assert started.status_code == 201, started.json()
    game_id = started.json()["id"]
    for body in deal_game(seed=3).deals:
        assert client.post(f"/api/games/{game_id}/deals/", body, format="json").status_code == 201
    assert client.get(f"/api/games/{game_id}/").json()["status"] == "finished"

    before = database_state()
    for who in (client, make(partner)):
        refused = who.post(f"/api/games/{game_id}/confirm/")
        assert refused.status_code == 403
        assert "other team must confirm" in refused.json()["detail"]
    assert database_state() == before

    confirmed = make(away_team.captain.user).post(f"/api/games/{game_id}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"


# --- CSRF on session writes ---------------------------------------------------------------------


def test_a_session_write_without_the_csrf_token_is_refused_everywhere(night, ann, cat):
    """A page on another site can make a signed-in browser POST; without our token it fails."""
    before = database_state()
    for user in (ann, cat):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        for route in write_routes():
            if route.name in LOGIN_ROUTES:
                continue
            for url in targets(route, night):
                for method in sorted(route.methods & set(UNSAFE)):
                    response = send(client, method, url, good_body(route, night.match))
                    assert response.status_code == 403, (method, url)
                    assert "CSRF" in response.json()["detail"]
    assert database_state() == before


def test_the_same_session_write_with_the_csrf_token_goes_through(night, ann):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(ann)
    client.get("/accounts/login/")  # the page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/games/{night.games[1].pk}/deals/", deal_body(), format="json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201, response.json()


def test_the_login_and_logout_forms_need_the_csrf_token(ann):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    refused = browser.post("/accounts/login/", {"username": "ann", "password": "pass-word-123"})
    assert refused.status_code == 403
    assert "_auth_user_id" not in browser.session

    browser.force_login(ann)
    assert browser.post("/accounts/logout/").status_code == 403
    assert browser.session.get("_auth_user_id") == str(ann.pk)
