"""The tournament API: the same services as the pages and the admin, its standings in the
archive format's shape, scorecards stored once by their key, query counts pinned."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import singles_game
from tests.tournaments.conftest import play_round, user_of
from tournaments import services
from tournaments.models import Scorecard, TableState


def signed_in(user) -> APIClient:
    """A client signed in with an API token, as an app would be."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def seated(night, director, field):
    return services.round_seat_next(user=director, tournament=night)


@pytest.fixture
def drawn(night, director, field):
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    return night


def test_the_standings_are_what_the_standings_command_prints(night, director, field):
    play_round(night, director)
    out = io.StringIO()
    call_command("tournament_standings", night.name, "--format", "json", stdout=out)
    answer = APIClient().get(f"/api/tournaments/{night.pk}/standings/")
    assert answer.status_code == 200 and answer.json() == json.loads(out.getvalue())
    listing = APIClient().get("/api/tournaments/").json()
    assert [t["name"] for t in listing["results"]] == [night.name]
    assert listing["results"][0]["rules"]["game_points"] == {
        "win": 2,
        "skunk": 3,
        "double_skunk": 3,
        "loss": 0,
    }


def test_the_rounds_give_the_seating_and_whether_you_may_enter_each_card(seated, night):
    mine = seated.games.order_by("table")[0]
    player = user_of(mine.first)
    rounds = signed_in(player).get(f"/api/tournaments/{night.pk}/rounds/").json()
    assert [r["number"] for r in rounds] == [1]
    tables = rounds[0]["tables"]
    assert len(tables) == 3 and len(rounds[0]["byes"]) == 1  # seven entrants
    assert [t["can_enter"] for t in tables] == [True, False, False]
    assert {t["state"] for t in tables} == {"open"}
    services.scorecard_enter(user=player, game=mine, winner=mine.first, loser_score=90)
    table = signed_in(player).get(f"/api/tournament-tables/{mine.pk}/").json()
    assert table["state"] == "entered" and table["cards_in"] == [mine.first.name]
    assert table["can_enter"] is False  # their side's card is in
    other = signed_in(user_of(mine.second)).get(f"/api/tournament-tables/{mine.pk}/").json()
    assert other["can_enter"] is True
    assert "loser_score" in other and other["loser_score"] is None  # the card is not shown


def test_a_card_sent_again_with_its_key_is_stored_once(seated):
    game = seated.games.order_by("table")[0]
    phone = signed_in(user_of(game.first))
    body = {"winner": game.first_id, "loser_score": 95, "key": "2f1c-card"}
    first = phone.post(f"/api/tournament-tables/{game.pk}/scorecards/", body, format="json")
    again = phone.post(f"/api/tournament-tables/{game.pk}/scorecards/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert Scorecard.objects.filter(game=game).count() == 1
    other = {**body, "loser_score": 40}
    clash = phone.post(f"/api/tournament-tables/{game.pk}/scorecards/", other, format="json")
    assert clash.status_code == 409 and clash.json()["field"] == "key"


def test_two_cards_that_disagree_go_to_a_checker_who_settles_over_the_api(seated, judge):
    game = seated.games.order_by("table")[0]
    for side, score in ((game.first, 90), (game.second, 91)):
        answer = signed_in(user_of(side)).post(
            f"/api/tournament-tables/{game.pk}/scorecards/",
            {"winner": game.first_id, "loser_score": score},
            format="json",
        )
        assert answer.status_code == 201
    assert answer.json()["state"] == "mismatch"
    body = {"winner": game.first_id, "loser_score": 91}
    refused = signed_in(user_of(game.first)).post(
        f"/api/tournament-tables/{game.pk}/settle/", body, format="json"
    )
    assert refused.status_code == 403
    settled = signed_in(judge).post(
        f"/api/tournament-tables/{game.pk}/settle/", body, format="json"
    )
    assert settled.status_code == 200 and settled.json()["state"] == "settled"
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game.loser_score == 91


def test_a_checker_keys_in_a_paper_card_for_one_side(seated, judge):
    game = seated.games.order_by("table")[0]
    services.scorecard_enter(
        user=user_of(game.first), game=game, winner=game.second, loser_score=70
    )
    answer = signed_in(judge).post(
        f"/api/tournament-tables/{game.pk}/scorecards/",
        {"side": game.second_id, "winner": game.second_id, "loser_score": 70},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["state"] == "verified"


def test_a_card_deal_by_deal_over_the_api(seated):
    game = seated.games.order_by("table")[0]
    phone = signed_in(user_of(game.first))
    deals = singles_game(strong_seat=1)
    bad = [*deals[:2], {**deals[2], "shows": {"0": 4, "1": 27}}, *deals[3:]]
    refused = phone.post(
        f"/api/tournament-tables/{game.pk}/scorecards/", {"deals": bad}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["field"].startswith("deals.3")
    assert not Scorecard.objects.filter(game=game).exists()
    answer = phone.post(
        f"/api/tournament-tables/{game.pk}/scorecards/", {"deals": deals}, format="json"
    )
    assert answer.status_code == 201
    card = Scorecard.objects.get(game=game)
    assert card.winner_id == game.second_id and 0 <= card.loser_score < 121


def test_bad_input_is_refused_in_words_and_stores_nothing(seated):
    game, other = seated.games.order_by("table")[:2]
    phone = signed_in(user_of(game.first))
    url = f"/api/tournament-tables/{game.pk}/scorecards/"
    stranger = phone.post(url, {"winner": other.first_id, "loser_score": 9}, format="json")
    assert stranger.status_code == 400 and "one of the two entrants" in stranger.json()["detail"]
    high = phone.post(url, {"winner": game.first_id, "loser_score": 121}, format="json")
    assert high.status_code == 400 and "from 0 to 120" in high.json()["detail"]
    typo = phone.post(url, {"winer": game.first_id, "loser_score": 9}, format="json")
    assert typo.status_code == 400 and typo.json()["field"] == "winer"
    nobody = APIClient().post(url, {"winner": game.first_id, "loser_score": 9}, format="json")
    assert nobody.status_code == 401
    assert not Scorecard.objects.exists()


def test_the_bracket_and_playoff_games_to_a_champion(drawn, director):
    bracket = APIClient().get(f"/api/tournaments/{drawn.pk}/bracket/").json()
    assert bracket["champion"] is None and len(bracket["rounds"]) == 1  # two qualifiers
    final = bracket["rounds"][0][0]
    url = f"/api/playoff-matches/{final['id']}/games/"
    body = {"winner": final["top"]["id"], "loser_score": 100}
    player = user_of(drawn.entrants.get(name=final["top"]["name"]))
    assert signed_in(player).post(url, {**body, "key": "g0"}, format="json").status_code == 403
    desk = signed_in(director)
    keyless = desk.post(url, body, format="json")  # two such posts would be two games
    assert keyless.status_code == 400 and keyless.json()["field"] == "key"
    assert desk.post(url, {**body, "key": "g1"}, format="json").status_code == 201
    second = desk.post(url, {**body, "key": "g2"}, format="json")
    assert second.json()["winner"]["id"] == final["top"]["id"]
    after = desk.post(url, {**body, "key": "g3"}, format="json")
    assert after.status_code == 409 and "no game may follow" in after.json()["detail"]
    bracket = APIClient().get(f"/api/tournaments/{drawn.pk}/bracket/").json()
    assert bracket["champion"] == final["top"]["name"]
    assert len(bracket["rounds"][0][0]["games"]) == 2


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_api_lists_query_counts_do_not_grow_with_the_field(
    night, director, field, rounds, django_assert_max_num_queries
):
    for _ in range(rounds):
        play_round(night, director)
    if rounds == 3:
        services.bracket_draw(user=director, tournament=night)
    phone = APIClient()
    phone.force_login(user_of(field[0]))
    pinned = {
        "/api/tournaments/": 4,
        f"/api/tournaments/{night.pk}/standings/": 6,
        f"/api/tournaments/{night.pk}/rounds/": 12,  # 3 tables or 9: the same
        f"/api/tournament-tables/?round__tournament={night.pk}": 11,
        f"/api/tournaments/{night.pk}/bracket/": 5,
        f"/api/playoff-matches/?tournament={night.pk}": 6,
    }
    for url, most in pinned.items():
        with django_assert_max_num_queries(most):
            assert phone.get(url).status_code == 200, url


def test_scorecards_share_the_score_entry_rate_and_say_so_of_a_card(seated, settings):
    from django.core.cache import cache

    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"deals": "2/min"},
    }
    game = seated.games.order_by("table")[0]
    phone = signed_in(user_of(game.first))
    url = f"/api/tournament-tables/{game.pk}/scorecards/"
    answers = [phone.post(url, {"loser_score": 9}, format="json") for _ in range(3)]
    assert [a.status_code for a in answers] == [400, 400, 429]
    assert "send the card again" in answers[2].json()["detail"]
    assert answers[2]["Retry-After"]
    cache.clear()
