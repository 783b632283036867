"""Games in order: a match's games are played one at a time at its table, so the next one does
not start while one is under way (the service, the match page and the API say the same), and a
game started by mistake is cancelled by its teams before its first deal, at every door."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel.errors import Conflict, Locked, NotAllowed
from league.kernel.permissions import Action, can, refusal
from league.models import AuditEntry, Game, GameStatus
from league.selectors.history import game_history
from league.selectors.scoreboard import week_boards
from league.selectors.standings import compute_standings
from league.services.deals import deal_record
from league.services.games import game_cancel, game_start
from tests.factories import plain_deal, play_until_over

SEATS = ["Ann", "Cat", "Bob", "Dan"]
UNDER_WAY = "Game 1 is still being played: finish it before starting the next one"


@pytest.fixture
def playing(game, ann):
    """Game 1 under way: two deals in."""
    for number in (1, 2):
        deal_record(game=game, user=ann, number=number, data=plain_deal(number - 1))
    game.refresh_from_db()
    return game


def test_the_next_game_does_not_start_while_one_is_under_way(match, playing, cat):
    with pytest.raises(Conflict, match=UNDER_WAY):
        game_start(match=match, user=cat, seats=SEATS)
    with pytest.raises(Conflict, match=UNDER_WAY):
        game_start(match=match, user=cat, seats=SEATS, number=3)
    assert match.games.count() == 1
    assert refusal(cat, Action.START_GAME, match).code == "game_under_way"
    assert can(cat, Action.KEEP_SCORE, match)  # still their match: deals, the entry page


def test_the_next_game_starts_once_the_one_under_way_is_over(match, playing, ann, cat):
    play_until_over(playing, ann)
    assert can(cat, Action.START_GAME, match)
    assert game_start(match=match, user=cat, seats=SEATS).number == 2


def test_a_retry_of_the_start_gets_its_game_back_while_it_is_played(match, ann):
    first = game_start(match=match, user=ann, seats=SEATS, key="phone-1")
    again = game_start(match=match, user=ann, seats=SEATS, key="phone-1")
    assert again.pk == first.pk


def test_the_match_page_offers_no_start_while_a_game_is_under_way_and_says_why(
    client, match, playing, ann
):
    client.force_login(ann)
    body = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Start the game" not in body
    assert UNDER_WAY in body
    play_until_over(playing, ann)
    body = client.get(reverse("league:match", args=[match.pk])).content.decode()
    assert "Start the game" in body and UNDER_WAY not in body


def test_the_api_refuses_the_next_start_with_the_same_sentence(match, playing, cat):
    api = APIClient()
    api.force_authenticate(cat)
    answer = api.post(f"/api/matches/{match.pk}/games/", {"seats": SEATS}, format="json")
    assert answer.status_code == 409
    assert UNDER_WAY in answer.json()["detail"]
    mine = api.get(f"/api/matches/{match.pk}/").json()
    assert mine["can_record"] is True  # the match is still theirs to score


# --- Cancelling a game started by mistake ---------------------------------------------------


def test_a_captain_cancels_an_empty_game_and_its_number_is_free_again(match, game, cat, ann):
    cancelled = game_cancel(game=game, user=cat)
    assert cancelled.status == GameStatus.VOID
    entry = AuditEntry.objects.get(game=game, action="game_cancel")
    assert entry.actor == cat
    assert game_history(game)[-1]["text"].startswith("Cancelled before its first deal")
    again = game_start(match=match, user=ann, seats=SEATS)
    assert again.number == 1 and again.pk != game.pk
    rows = {r["team"]: r for r in compute_standings(match.week.season)["standings"]}
    assert all(r["played"] == 0 and r["pending"] == 0 for r in rows.values())


def test_a_game_with_a_deal_is_not_cancelled(playing, cat):
    assert refusal(cat, Action.CANCEL_GAME, playing).code == "game_has_deals"
    with pytest.raises(Locked, match="only voided by a judge"):
        game_cancel(game=playing, user=cat)
    playing.refresh_from_db()
    assert playing.status == GameStatus.IN_PROGRESS


def test_only_the_two_teams_cancel_their_game(game, eve, judge, league_admin):
    for outsider in (eve, judge):
        with pytest.raises(NotAllowed, match="Only the players of these two teams"):
            game_cancel(game=game, user=outsider)
    assert can(league_admin, Action.CANCEL_GAME, game)  # who enters a paper sheet undoes it
    assert not AuditEntry.objects.filter(action="game_cancel").exists()


def test_a_cancelled_game_cannot_be_cancelled_again(game, cat):
    game_cancel(game=game, user=cat)
    game.refresh_from_db()
    assert refusal(cat, Action.CANCEL_GAME, game).code == "void"


def test_the_game_page_offers_the_cancel_button_only_when_allowed(client, game, ann, cat, eve):
    url = reverse("league:game", args=[game.pk])
    cancel = reverse("league:cancel_game", args=[game.pk])
    client.force_login(eve)
    assert cancel not in client.get(url).content.decode()
    client.force_login(cat)
    assert cancel in client.get(url).content.decode()
    answer = client.post(cancel, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("league:match", args=[game.match_id])
    assert "Game 1 is cancelled" in answer.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    assert cancel not in client.get(url).content.decode()


def test_the_game_page_offers_no_cancel_once_a_deal_is_in(client, playing, cat):
    client.force_login(cat)
    body = client.get(reverse("league:game", args=[playing.pk])).content.decode()
    assert reverse("league:cancel_game", args=[playing.pk]) not in body
    refused = client.post(reverse("league:cancel_game", args=[playing.pk]), follow=True)
    assert "only voided by a judge" in refused.content.decode()
    playing.refresh_from_db()
    assert playing.status == GameStatus.IN_PROGRESS


def test_the_api_cancels_an_empty_game_and_says_so_in_can_cancel(game, cat, eve):
    api = APIClient()
    api.force_authenticate(eve)
    assert api.get(f"/api/games/{game.pk}/").json()["can_cancel"] is False
    assert api.post(f"/api/games/{game.pk}/cancel/").status_code == 403
    api.force_authenticate(cat)
    assert api.get(f"/api/games/{game.pk}/").json()["can_cancel"] is True
    answer = api.post(f"/api/games/{game.pk}/cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "void"
    refused = api.post(f"/api/games/{game.pk}/cancel/")
    assert refused.status_code == 409


def test_the_api_refuses_to_cancel_a_game_with_a_deal(playing, cat):
    api = APIClient()
    api.force_authenticate(cat)
    assert api.get(f"/api/games/{playing.pk}/").json()["can_cancel"] is False
    answer = api.post(f"/api/games/{playing.pk}/cancel/")
    assert answer.status_code == 409 and "only voided by a judge" in answer.json()["detail"]


# --- The venue's TV -----------------------------------------------------------------------------


def test_the_tv_keeps_the_game_being_played_over_a_later_empty_one(venue_week, match, playing):
    """A game 2 left empty beside game 1 under way (started before games were kept in order):
    the board is game 1's."""
    Game.objects.create(match=match, number=2)
    (table,) = week_boards(venue_week, per_screen=32)["tables"]
    assert table["game"].pk == playing.pk
    assert [side["score"] for side in table["board"]["sides"]] == [
        playing.home_score,
        playing.away_score,
    ]


def test_the_tv_drops_a_cancelled_game_for_the_one_played(venue_week, match, ann, cat):
    first = game_start(match=match, user=ann, seats=SEATS)
    play_until_over(first, ann)
    mistake = game_start(match=match, user=ann, seats=SEATS)
    game_cancel(game=mistake, user=cat)
    (table,) = week_boards(venue_week, per_screen=32)["tables"]
    assert table["game"].pk == first.pk
