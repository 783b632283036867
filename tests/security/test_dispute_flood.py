"""Disputes cannot be used to flood the judges and the captains' mailboxes: a player raises at
most ``PEGBOARD_DISPUTES_PER_HOUR`` an hour through any door, a team keeps one open dispute per
deal, and a claim is at most ``CLAIM_LIMIT`` characters at every door."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from league.kernel.errors import Conflict, TooFast, ValidationFailed
from league.models import Dispute
from league.models.disputes import CLAIM_LIMIT
from league.services.disputes import dispute_raise
from tests.factories import play_until_over

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(game, ann):
    play_until_over(game, ann)
    game.refresh_from_db()
    return game


@pytest.fixture
def low_rate(settings):
    settings.PEGBOARD_DISPUTES_PER_HOUR = 3
    return 3


def test_a_player_raising_disputes_faster_than_the_limit_is_refused_politely(
    low_rate, finished, cat
):
    for number in range(1, low_rate + 1):
        dispute_raise(game=finished, user=cat, claim=f"Deal {number} is wrong.", deal_number=number)
    mails = len(mail.outbox)
    with pytest.raises(TooFast) as refused:
        dispute_raise(game=finished, user=cat, claim="And deal 4.", deal_number=4)
    assert "3 disputes in the last hour" in refused.value.message
    assert 0 < refused.value.retry_after <= 3600
    assert Dispute.objects.filter(game=finished).count() == low_rate
    assert len(mail.outbox) == mails  # no mail for the refused one


def test_the_api_answers_429_with_retry_after_once_the_limit_is_reached(low_rate, finished, cat):
    app = APIClient()
    app.force_authenticate(cat)
    url = f"/api/games/{finished.pk}/disputes/"
    for number in range(1, low_rate + 1):
        assert app.post(url, {"claim": "Wrong.", "deal_number": number}, "json").status_code == 201
    refused = app.post(url, {"claim": "Wrong.", "deal_number": 4}, "json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) > 0


def test_the_web_form_counts_against_the_same_limit(low_rate, finished, cat):
    for number in range(1, low_rate + 1):
        dispute_raise(game=finished, user=cat, claim="Wrong.", deal_number=number)
    browser = Client()
    browser.force_login(cat)
    page = browser.post(
        f"/games/{finished.pk}/dispute/",
        {"dispute-claim": "Deal 4 too.", "dispute-deal_number": 4},
        follow=True,
    )
    assert "in the last hour" in page.content.decode()
    assert Dispute.objects.filter(game=finished).count() == low_rate


def test_a_team_keeps_one_open_dispute_per_deal(finished, cat, ann):
    dispute_raise(game=finished, user=cat, claim="Deal 2's crib was 4.", deal_number=2)
    with pytest.raises(Conflict, match="already has an open dispute about deal 2"):
        dispute_raise(game=finished, user=cat, claim="Deal 2 again.", deal_number=2)
    dispute_raise(game=finished, user=ann, claim="We think deal 2 is right.", deal_number=2)


def test_a_claim_past_the_limit_is_refused_at_every_door(finished, cat):
    too_long = "x" * (CLAIM_LIMIT + 1)
    with pytest.raises(ValidationFailed):
        dispute_raise(game=finished, user=cat, claim=too_long)
    app = APIClient()
    app.force_authenticate(cat)
    huge = app.post(f"/api/games/{finished.pk}/disputes/", {"claim": "x" * 2_400_000}, "json")
    assert huge.status_code == 400 and "claim" in huge.content.decode()
    browser = Client()
    browser.force_login(cat)
    form = browser.post(f"/games/{finished.pk}/dispute/", {"dispute-claim": too_long})
    assert form.status_code == 400
    assert not Dispute.objects.exists()
    dispute_raise(game=finished, user=cat, claim="x" * CLAIM_LIMIT)  # the limit itself is fine


def test_the_claim_limit_is_one_declaration():
    from league.api.serializers import DisputeRequestSerializer
    from league.forms import RejectForm

    assert Dispute._meta.get_field("claim").max_length == CLAIM_LIMIT
    assert RejectForm().fields["claim"].max_length == CLAIM_LIMIT
    assert DisputeRequestSerializer().fields["claim"].max_length == CLAIM_LIMIT
