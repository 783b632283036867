"""API tokens expire, are revoked by a new password, and their owner can revoke them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-123"


def sign_in(username: str = "ann") -> dict:
    answer = APIClient().post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def app(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def whoami(client: APIClient, game) -> int:
    """A write only a signed-in player may make (a dispute list read is public; this is not)."""
    return client.post(f"/api/games/{game.pk}/disputes/", {"claim": ""}, format="json").status_code


def test_a_token_says_when_it_expires(ann, settings):
    settings.API_TOKEN_DAYS = 30
    body = sign_in()
    expires = timezone.datetime.fromisoformat(body["expires"])
    assert timedelta(days=29) < expires - timezone.now() <= timedelta(days=30)


def test_an_expired_token_is_refused_and_signing_in_again_gives_a_new_one(ann, game, settings):
    settings.API_TOKEN_DAYS = 30
    old = sign_in()["token"]
    assert whoami(app(old), game) == 400  # signed in: the empty claim is what is refused
    token = Token.objects.get(key=old)  # saved through the ORM: its cached copy goes too
    token.created = timezone.now() - timedelta(days=31)
    token.save()
    refused = app(old).post(f"/api/games/{game.pk}/disputes/", {"claim": "x"}, format="json")
    assert refused.status_code == 401
    assert "expired" in refused.json()["detail"]
    new = sign_in()["token"]
    assert new != old and whoami(app(new), game) == 400


def test_a_new_password_revokes_the_token(ann, game):
    token = sign_in()["token"]
    ann.set_password("a-brand-new-one-456")
    ann.save()
    assert whoami(app(token), game) == 401
    assert not Token.objects.filter(user=ann).exists()


def test_saving_a_user_without_a_new_password_keeps_the_token(ann, game):
    token = sign_in()["token"]
    ann.first_name = "Annie"
    ann.save()
    assert whoami(app(token), game) == 400


def test_the_owner_signs_the_app_out_with_delete(ann, cat, game):
    mine, theirs = sign_in("ann")["token"], sign_in("cat")["token"]
    assert app(mine).delete("/api/auth/token/").status_code == 204
    assert whoami(app(mine), game) == 401
    assert whoami(app(theirs), game) == 400  # Cat's app is still signed in
    assert sign_in("ann")["token"] != mine


def test_nobody_signed_out_cannot_revoke_anything(ann):
    sign_in()
    assert APIClient().delete("/api/auth/token/").status_code == 401
    assert Token.objects.filter(user=ann).exists()
