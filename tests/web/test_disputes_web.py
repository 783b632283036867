"""Disputes and the history of a game on its page: seen by both teams, judges and admins."""

from __future__ import annotations

from django.urls import reverse

from league.models import Dispute
from league.services.disputes import dispute_raise
from tests.factories import plain_deal, play_until_over


def test_a_player_raises_a_dispute_from_the_game_page(client, game, ann, cat):
    play_until_over(game, ann)
    client.force_login(cat)
    url = reverse("league:dispute", args=[game.pk])
    answer = client.post(url, {"dispute-claim": "Deal 2: we pegged 3", "dispute-deal_number": 2})
    assert answer.status_code == 302
    assert Dispute.objects.get().claim == "Deal 2: we pegged 3"
    page = client.get(reverse("league:game", args=[game.pk])).content.decode()
    assert "Deal 2: we pegged 3" in page


def test_both_teams_see_disputes_and_history_but_outsiders_and_visitors_do_not(
    client, game, ann, cat, eve
):
    from league.services.deals import deal_record

    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="k")
    dispute_raise(game=game, user=cat, claim="Crib was 2")
    url = reverse("league:game", args=[game.pk])
    for user in (ann, cat):
        client.force_login(user)
        page = client.get(url).content.decode()
        assert "Crib was 2" in page and "Deal 1 entered." in page  # the history, in words
    client.force_login(eve)
    assert "Crib was 2" not in client.get(url).content.decode()
    client.logout()
    page = client.get(url).content.decode()
    assert "Crib was 2" not in page and "Deal 1 entered." not in page


def test_an_outsider_cannot_raise_a_dispute(client, game, eve):
    client.force_login(eve)
    client.post(reverse("league:dispute", args=[game.pk]), {"dispute-claim": "no"})
    assert Dispute.objects.count() == 0
