"""The other team confirms a finished game from its own phone, or rejects it with a claim,
which raises a dispute for the judges."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Dispute, GameStatus

pytestmark = pytest.mark.django_db


def test_the_other_team_is_asked_to_confirm(client, cat, finished_game):
    client.force_login(cat)
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert reverse("league:confirm", args=[finished_game.pk]) in body
    assert reverse("league:reject", args=[finished_game.pk]) in body


def test_the_team_that_entered_waits_for_the_other(client, ann, finished_game):
    client.force_login(ann)
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert reverse("league:confirm", args=[finished_game.pk]) not in body
    assert "Waiting for Nobs to confirm this game." in body


def test_a_visitor_sees_no_confirm_button(client, finished_game):
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert reverse("league:confirm", args=[finished_game.pk]) not in body


def test_confirming_makes_the_game_count(client, cat, finished_game):
    client.force_login(cat)
    response = client.post(reverse("league:confirm", args=[finished_game.pk]), follow=True)
    finished_game.refresh_from_db()
    assert finished_game.status == GameStatus.CONFIRMED
    assert "the game is confirmed" in response.content.decode()


def test_the_team_that_entered_cannot_confirm_and_is_told_why(client, ann, finished_game):
    client.force_login(ann)
    response = client.post(reverse("league:confirm", args=[finished_game.pk]), follow=True)
    finished_game.refresh_from_db()
    assert finished_game.status == GameStatus.FINISHED
    assert "the other team must confirm it" in response.content.decode()


def test_rejecting_raises_a_dispute_with_the_claim(client, cat, finished_game):
    client.force_login(cat)
    response = client.post(
        reverse("league:reject", args=[finished_game.pk]),
        {"claim": "Deal 2: Bob showed 12, not 14.", "deal_number": 2},
        follow=True,
    )
    dispute = Dispute.objects.get(game=finished_game)
    assert dispute.claim == "Deal 2: Bob showed 12, not 14."
    assert dispute.deal_number == 2
    assert dispute.raised_by == cat
    assert "sent to the judges" in response.content.decode()
    finished_game.refresh_from_db()
    assert finished_game.status == GameStatus.DISPUTED  # held: it waits for a judge
    page = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert (
        "Is this right?" not in page
        and reverse("league:confirm", args=[finished_game.pk]) not in page
    )


def test_rejecting_without_a_claim_asks_for_one(client, cat, finished_game):
    client.force_login(cat)
    response = client.post(reverse("league:reject", args=[finished_game.pk]), {"claim": " "})
    assert response.status_code == 400
    assert not Dispute.objects.exists()
    assert 'role="alert"' in response.content.decode()


def test_confirming_needs_a_login(client, finished_game):
    response = client.post(reverse("league:confirm", args=[finished_game.pk]))
    assert response.status_code == 302
    finished_game.refresh_from_db()
    assert finished_game.status == GameStatus.FINISHED
