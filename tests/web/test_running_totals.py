"""Running totals are shown at most at the game hole: the winner is counted at 121 deal by deal
on the game page and in the API, as the header and the result show it."""

from __future__ import annotations

from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Deal
from tests.factories import play_until_over


def _last_deal_past_the_hole(game, ann):
    """A finished game whose last deal was counted past the hole, as the scorer stores it."""
    play_until_over(game, ann)
    game.refresh_from_db()
    last = Deal.objects.get(game=game, number=game.deal_count, is_current=True)
    winner_home = game.winner_id == game.match.home_id
    Deal.objects.filter(pk=last.pk).update(
        **({"home_after": 125} if winner_home else {"away_after": 125})
    )
    return last.pk, "home_after" if winner_home else "away_after"


def test_the_game_page_shows_the_winner_at_the_hole_deal_by_deal(client, game, ann):
    _last_deal_past_the_hole(game, ann)
    body = client.get(reverse("league:game", args=[game.pk])).content.decode()
    assert "<strong>121</strong>" in body
    assert "<strong>125</strong>" not in body


def test_the_api_gives_running_totals_at_most_the_hole(game, ann):
    pk, field = _last_deal_past_the_hole(game, ann)
    api = APIClient()
    deals = api.get(f"/api/games/{game.pk}/").json()["deals"]
    assert deals[-1][field] == 121
    assert api.get(f"/api/games/{game.pk}/deals/").json()[-1][field] == 121
    assert api.get(f"/api/deals/{pk}/").json()[field] == 121
    listed = api.get(f"/api/deals/?game={game.pk}").json()["results"]
    assert max(d[field] for d in listed) == 121
