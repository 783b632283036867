"""The REST API as a captain's phone and the venue's screens use it."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from league.kernel.api import write_access
from league.kernel.permissions import Action, can
from league.models import AuditEntry, Deal, Game, GameStatus, Match, Week
from league.services.deals import deal_record
from league.services.games import game_confirm, game_start
from tests import factories
from tests.factories import deal_game, first_deal, play_until_over


def deals_url(game: Game) -> str:
    return f"/api/games/{game.pk}/deals/"


def stored(game: Game) -> tuple[Any, ...]:
    """Everything a refused write must leave as it was."""
    game.refresh_from_db()
    return (
        Deal.objects.count(),
        AuditEntry.objects.count(),
        game.home_score,
        game.away_score,
        game.deal_count,
        game.status,
        game.version,
    )


def finish(game: Game, user, *, seed: int = 1) -> None:
    """Play ``game`` to the end through the service (for tests about what comes after)."""
    for body in deal_game(seed=seed, first_dealer=game.first_dealer).deals:
        key, number = body.pop("key"), body.pop("number")
        deal_record(game=game, user=user, number=number, data=body, key=key)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


# --- A whole game, deal by deal ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "pegging", "winner", "margin", "skunk_level", "winner_points"),
    [
        pytest.param(1, ((0, 5), (0, 5)), "home", 13, 0, 1, id="home-wins-mid-show"),
        pytest.param(3, ((0, 5), (0, 5)), "away", 2, 0, 1, id="away-wins-on-the-crib"),
        pytest.param(5, ((3, 8), (0, 1)), "home", 30, 1, 2, id="win-by-30-is-a-skunk-here"),
        pytest.param(7, ((0, 1), (3, 8)), "away", 51, 1, 2, id="away-skunks-home"),
        pytest.param(0, ((3, 8), (0, 1)), "home", 69, 2, 2, id="double-skunk"),
    ],
)
def test_captain_records_a_whole_game_and_it_ends_with_the_right_result(
    client_for, match, ann, cat, seed, pegging, winner, margin, skunk_level, winner_points
):
    client = client_for(ann)
    response = client.post(
        f"/api/matches/{match.pk}/games/",
        {"seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": 0},
        format="json",
    )
    assert response.status_code == 201, response.json()
    game = response.json()
    assert [(s["seat"], s["player"], s["team"]) for s in game["seats"]] == [
        (0, "Ann", "Fifteen Two"),
        (1, "Cat", "Nobs"),
        (2, "Bob", "Fifteen Two"),
        (3, "Dan", "Nobs"),
    ]
    assert game["status"] == "in_progress"
    assert game["can_record"] is True

    dealt = deal_game(seed=seed, pegging=pegging)
    for body, (home_after, away_after) in zip(dealt.deals, dealt.scores_after, strict=True):
        response = client.post(f"/api/games/{game['id']}/deals/", body, format="json")
        assert response.status_code == 201, (body, response.json())
        # the winner's total is given at the game hole, whatever the last deal counted past it
        assert (response.json()["home_after"], response.json()["away_after"]) == (
            min(home_after, 121),
            min(away_after, 121),
        )

    played = client.get(f"/api/games/{game['id']}/").json()
    winning_team = match.home if winner == "home" else match.away
    assert played["status"] == "finished"
    # The winner at the game hole, as the pages show it (the deals say what was pegged past).
    assert (played["home_score"], played["away_score"]) == tuple(min(x, 121) for x in dealt.final)
    assert played["winner"] == {"id": winning_team.pk, "name": winning_team.name}
    assert played["margin"] == margin
    assert played["skunk_level"] == skunk_level
    points = (winner_points, 0) if winner == "home" else (0, winner_points)
    assert (played["home_points"], played["away_points"]) == points
    assert played["deal_count"] == len(dealt.deals)
    assert [d["number"] for d in played["deals"]] == list(range(1, len(dealt.deals) + 1))

    # The other team confirms; the result then counts in the standings.
    confirmed = client_for(cat).post(f"/api/games/{game['id']}/confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["status"] == "confirmed"
    table = APIClient().get(f"/api/seasons/{match.week.season_id}/standings/").json()
    rows = {row["team"]: row for row in table["standings"]}
    assert rows[winning_team.name]["points"] == winner_points
    assert rows[winning_team.name]["won"] == 1
    assert table["standings"][0]["team"] == winning_team.name


def test_starting_a_game_accepts_player_ids(client_for, match, ann, home_team, away_team):
    ids = {p.name: p.pk for p in [*home_team.players.all(), *away_team.players.all()]}
    response = client_for(ann).post(
        f"/api/matches/{match.pk}/games/",
        {"seats": [ids["Cat"], ids["Ann"], ids["Dan"], ids["Bob"]], "first_dealer": 1},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["first_dealer"] == 1
    assert [s["player"] for s in response.json()["seats"]] == ["Cat", "Ann", "Dan", "Bob"]


# --- Refusals: the right status, a message naming the field and the rule, nothing stored ---------


def show(seat: int, value: Any) -> Callable[[dict], None]:
    return lambda body: body["shows"].__setitem__(str(seat), value)


def top(name: str, value: Any) -> Callable[[dict], None]:
    return lambda body: body.__setitem__(name, value)


def peg(side: int, value: Any) -> Callable[[dict], None]:
    return lambda body: body["pegging"].__setitem__(side, value)


def with_cards(body: dict) -> None:
    # Cat holds 2C 4D 8H KS with the 5H turned: fifteen two, fifteen four; she claims 6.
    body["shows"]["1"] = 6
    body["cards"] = {"1": ["2C", "4D", "8H", "KS"]}


WHOLE_NUMBER = "whole number"

REFUSED = [
    pytest.param(show(1, 19), "shows.1", ["A hand can never score 19"], id="show-of-19"),
    pytest.param(show(2, 25), "shows.2", ["A hand can never score 25"], id="show-of-25"),
    pytest.param(show(3, 26), "shows.3", ["A hand can never score 26"], id="show-of-26"),
    pytest.param(show(0, 27), "shows.0", ["A hand can never score 27"], id="show-of-27"),
    pytest.param(show(1, 30), "shows.1", ["can never score 30", "29"], id="show-of-30"),
    pytest.param(show(1, -4), "shows.1", ["can never score -4"], id="negative-show"),
    pytest.param(top("crib", 19), "crib", ["A crib can never score 19"], id="crib-of-19"),
    pytest.param(show(1, "٣"), "shows.1", [WHOLE_NUMBER], id="arabic-indic-digit"),
    pytest.param(show(1, "５"), "shows.1", [WHOLE_NUMBER], id="full-width-digit"),
    pytest.param(show(1, "1.0"), "shows.1", [WHOLE_NUMBER], id="decimal-as-text"),
    pytest.param(show(1, "5 "), "shows.1", [WHOLE_NUMBER], id="number-with-a-space"),
    pytest.param(show(1, "6"), "shows.1", [WHOLE_NUMBER], id="number-as-text"),
    pytest.param(show(1, 6.0), "shows.1", [WHOLE_NUMBER], id="float"),
    pytest.param(show(1, True), "shows.1", [WHOLE_NUMBER], id="boolean-show"),
    pytest.param(top("crib", False), "crib", [WHOLE_NUMBER], id="boolean-crib"),
    pytest.param(top("crib", 5.0), "crib", [WHOLE_NUMBER], id="float-crib"),
    pytest.param(peg(0, "2"), "pegging.0", [WHOLE_NUMBER], id="pegging-as-text"),
    pytest.param(peg(1, -1), "pegging.1", ["negative"], id="negative-pegging"),
    pytest.param(top("pegging", [2]), "pegging", ["pegging", "2 sides"], id="one-pegging"),
    pytest.param(top("dealer", 1), "dealer", ["Ann deals", "not Cat"], id="wrong-dealer"),
    pytest.param(top("dealer", 4), "dealer", ["no seat 4"], id="no-such-seat"),
    pytest.param(top("dealer", "0"), "dealer", [WHOLE_NUMBER], id="dealer-as-text"),
    pytest.param(top("dealer", True), "dealer", [WHOLE_NUMBER], id="dealer-as-boolean"),
    pytest.param(top("number", "1"), "number", [WHOLE_NUMBER], id="deal-number-as-text"),
    pytest.param(top("number", 1.0), "number", [WHOLE_NUMBER], id="deal-number-as-float"),
    pytest.param(top("bonus", 3), "bonus", ["Unknown field bonus"], id="unknown-field"),
    pytest.param(top("starter", "1X"), "starter", ["1X", "not a card"], id="not-a-card"),
    pytest.param(top("heels", True), "heels", ["5H", "not a Jack"], id="heels-without-a-jack"),
    pytest.param(top("heels", "yes"), "heels", ["yes or no"], id="heels-as-text"),
    pytest.param(lambda b: b["shows"].pop("2"), "shows.2", ["Bob", "missing"], id="missing-show"),
    pytest.param(top("crib", None), "crib", ["crib", "missing"], id="missing-crib"),
    pytest.param(
        with_cards, "shows.1", ["make 4", "6 can't be claimed"], id="over-claim-with-cards"
    ),
    pytest.param(top("key", 12345), "key", ["key"], id="key-not-text"),
    pytest.param(top("key", "k" * 65), "key", ["key"], id="key-too-long"),
]


@pytest.mark.parametrize(("change", "field", "words"), REFUSED)
def test_a_deal_that_breaks_a_rule_is_refused_with_the_field_and_nothing_is_stored(
    client_for, game, ann, change, field, words
):
    body = first_deal()
    change(body)
    before = stored(game)
    response = client_for(ann).post(deals_url(game), body, format="json")
    assert response.status_code == 400, response.json()
    answer = response.json()
    assert answer["field"] == field
    for word in words:
        assert word.lower() in answer["detail"].lower(), answer["detail"]
    assert stored(game) == before


def test_a_deal_must_be_a_json_object(client_for, game, ann):
    before = stored(game)
    response = client_for(ann).post(deals_url(game), [first_deal()], format="json")
    assert response.status_code == 400
    assert "JSON object" in response.json()["detail"]
    assert stored(game) == before


def test_a_deal_entered_again_by_the_other_phone_agrees_or_is_kept_as_a_rival(
    client_for, game, ann, cat
):
    assert client_for(ann).post(deals_url(game), first_deal(), format="json").status_code == 201
    before = stored(game)

    same = client_for(cat).post(deals_url(game), first_deal(), format="json")  # a new key
    assert same.status_code == 200 and same.json()["is_rival"] is False
    assert stored(game)[2:5] == before[2:5]  # the same deal: the scores stand, Nobs vouch
    assert Deal.objects.filter(game=game).count() == 1

    other = client_for(cat).post(deals_url(game), first_deal(crib=4), format="json")
    assert other.status_code == 201
    assert other.json()["is_rival"] is True and other.json()["crib"] == 4
    game_body = client_for(cat).get(f"/api/games/{game.pk}/").json()
    assert [d["crib"] for d in game_body["deals"]] == [5]  # the first entry counts meanwhile


def test_skipping_ahead_a_deal_is_a_conflict(client_for, game, ann):
    before = stored(game)
    response = client_for(ann).post(deals_url(game), first_deal(number=3), format="json")
    assert response.status_code == 409
    assert "deal 1" in response.json()["detail"]
    assert stored(game) == before


def test_a_visitor_cannot_write(api, game, match):
    before = stored(game)
    assert api.post(deals_url(game), first_deal(), format="json").status_code in (401, 403)
    assert api.post(f"/api/games/{game.pk}/confirm/").status_code in (401, 403)
    response = api.post(
        f"/api/matches/{match.pk}/games/", {"seats": ["Ann", "Cat", "Bob", "Dan"]}, format="json"
    )
    assert response.status_code in (401, 403)
    assert stored(game) == before
    assert Game.objects.count() == 1


def test_a_player_of_another_team_cannot_enter_scores(client_for, game, eve):
    before = stored(game)
    response = client_for(eve).post(deals_url(game), first_deal(), format="json")
    assert response.status_code == 403
    assert "Only the players of these two teams" in response.json()["detail"]
    assert stored(game) == before


def test_a_player_of_another_team_cannot_start_a_game(client_for, match, eve):
    response = client_for(eve).post(
        f"/api/matches/{match.pk}/games/", {"seats": ["Ann", "Cat", "Bob", "Dan"]}, format="json"
    )
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_a_judge_who_plays_for_neither_team_cannot_enter_scores(client_for, game, judge):
    before = stored(game)
    assert client_for(judge).post(deals_url(game), first_deal(), format="json").status_code == 403
    assert stored(game) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"seats": ["Ann", "Cat", "Bob"]}, "seats", id="three-players"),
        pytest.param({"seats": ["Ann", "Cat", "Bob", "Eve"]}, "seats.3", id="not-in-the-match"),
        pytest.param({"seats": ["Ann", "Bob", "Cat", "Dan"]}, "seats", id="partners-side-by-side"),
        pytest.param({"seats": ["Ann", "Cat", "Bob", "Zed"]}, "seats", id="nobody-called-zed"),
        pytest.param({"seats": "Ann Cat Bob Dan"}, "seats", id="seats-not-a-list"),
        pytest.param({"seats": ["Ann", "Cat", "Bob", 1.5]}, "seats.3", id="seat-as-float"),
        pytest.param(
            {"seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": "1"},
            "first_dealer",
            id="first-dealer-as-text",
        ),
        pytest.param(
            {"seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": True},
            "first_dealer",
            id="first-dealer-as-boolean",
        ),
        pytest.param(
            {"seats": ["Ann", "Cat", "Bob", "Dan"], "first_dealer": 4},
            "first_dealer",
            id="first-dealer-no-such-seat",
        ),
    ],
)
def test_a_game_start_that_breaks_a_rule_is_refused(client_for, match, ann, eve, body, field):
    response = client_for(ann).post(f"/api/matches/{match.pk}/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert response.json()["detail"]
    assert not Game.objects.exists()


# --- Retries -------------------------------------------------------------------------------------


def test_the_same_entry_sent_twice_is_stored_once_and_answered_the_same(client_for, game, ann):
    client = client_for(ann)
    body = first_deal()

    first = client.post(deals_url(game), body, format="json")
    again = client.post(deals_url(game), copy.deepcopy(body), format="json")

    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Deal.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.deal_count == 1


def test_a_captains_deal_costs_a_fixed_handful_of_queries(game, ann, django_assert_num_queries):
    """Every table of a venue night posts one: the game read locked (with the player's teams
    and the key's deal), the three writes (deal, game, audit entry), and the transaction's
    savepoint and release. The token's user comes from the cache after the first request; no
    season row is written while the game goes on."""
    from rest_framework.authtoken.models import Token

    client = APIClient()  # a phone with a token, as the apps are
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=ann).key}")
    first = client.post(deals_url(game), first_deal(), format="json")
    assert first.status_code == 201
    second = first_deal(number=2, dealer=1)
    with django_assert_num_queries(6):  # see tests/league/test_deal_path.py
        response = client.post(deals_url(game), second, format="json")
    assert response.status_code == 201, response.content
    assert Deal.objects.filter(game=game, is_current=True).count() == 2


def test_the_same_key_with_different_numbers_is_a_conflict(client_for, game, ann):
    client = client_for(ann)
    body = first_deal()
    assert client.post(deals_url(game), body, format="json").status_code == 201
    before = stored(game)

    response = client.post(deals_url(game), {**body, "crib": 6}, format="json")

    assert response.status_code == 409
    assert response.json()["field"] == "key"
    assert "different numbers" in response.json()["detail"]
    assert stored(game) == before
    assert Deal.objects.get(game=game).crib == 5


# --- Confirming ----------------------------------------------------------------------------------


def test_the_person_who_entered_a_game_cannot_confirm_it(client_for, game, ann):
    finish(game, ann)
    before = stored(game)
    response = client_for(ann).post(f"/api/games/{game.pk}/confirm/")
    assert response.status_code == 403
    assert "other team must confirm" in response.json()["detail"]
    assert stored(game) == before


def test_the_enterers_partner_cannot_confirm_it_either(client_for, game, ann, bob):
    finish(game, ann)
    before = stored(game)
    assert client_for(bob).post(f"/api/games/{game.pk}/confirm/").status_code == 403
    assert stored(game) == before


def test_a_player_of_a_third_team_cannot_confirm(client_for, game, ann, eve):
    finish(game, ann)
    before = stored(game)
    assert client_for(eve).post(f"/api/games/{game.pk}/confirm/").status_code == 403
    assert stored(game) == before


def test_the_other_teams_player_confirms_and_the_game_then_refuses_deals(
    client_for, game, ann, dan
):
    finish(game, ann)
    response = client_for(dan).post(f"/api/games/{game.pk}/confirm/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "confirmed"
    assert response.json()["confirmed_at"]

    before = stored(game)
    more = first_deal(number=game.deal_count + 1, dealer=game.deal_count % 4)
    refused = client_for(ann).post(deals_url(game), more, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "locked"
    assert refused.json()["current"]["status"] == "confirmed"
    assert stored(game) == before

    again = client_for(dan).post(f"/api/games/{game.pk}/confirm/")
    assert again.status_code == 409
    assert stored(game) == before


def test_a_finished_game_refuses_more_deals(client_for, game, ann):
    finish(game, ann)
    before = stored(game)
    more = first_deal(number=game.deal_count + 1, dealer=game.deal_count % 4)
    response = client_for(ann).post(deals_url(game), more, format="json")
    assert response.status_code == 409
    assert "over" in response.json()["detail"]
    assert stored(game) == before


def test_a_game_in_progress_cannot_be_confirmed(client_for, game, cat):
    before = stored(game)
    response = client_for(cat).post(f"/api/games/{game.pk}/confirm/")
    assert response.status_code == 409
    assert "not over yet" in response.json()["detail"]
    assert stored(game) == before


# --- Token authentication ------------------------------------------------------------------------


def test_a_token_lets_an_app_enter_scores(game, ann):
    anonymous = APIClient()
    response = anonymous.post(
        "/api/auth/token/", {"username": "ann", "password": "pass-word-123"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]

    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = app.post(deals_url(game), first_deal(), format="json")
    assert created.status_code == 201, created.json()
    assert Deal.objects.get(pk=created.json()["id"]).entered_by == ann


def test_a_wrong_password_gets_no_token(ann):
    response = APIClient().post(
        "/api/auth/token/", {"username": "ann", "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert "token" not in response.json()


def test_a_made_up_token_is_refused(game):
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    before = stored(game)
    assert app.post(deals_url(game), first_deal(), format="json").status_code in (401, 403)
    assert stored(game) == before


# --- Reading -------------------------------------------------------------------------------------


def test_leagues_and_seasons_are_public(api, season, league):
    leagues = api.get("/api/leagues/").json()["results"]
    assert [(row["name"], row["skunk_margin"]) for row in leagues] == [("Thursday Doubles", 30)]
    seasons = api.get(f"/api/seasons/?league={league.pk}").json()["results"]
    assert [(row["name"], row["league_name"]) for row in seasons] == [
        ("Fall 2026", "Thursday Doubles")
    ]
    assert api.get(f"/api/seasons/{season.pk}/").json()["name"] == "Fall 2026"


def test_teams_list_their_players_and_captain(api, season, home_team, away_team):
    teams = api.get(f"/api/teams/?season={season.pk}").json()["results"]
    by_name = {t["name"]: t for t in teams}
    assert by_name["Fifteen Two"]["captain_name"] == "Ann"
    assert by_name["Fifteen Two"]["captain"] == home_team.captain_id
    assert sorted(by_name["Fifteen Two"]["player_names"]) == ["Ann", "Bob"]
    assert sorted(by_name["Fifteen Two"]["players"]) == sorted(
        home_team.players.values_list("pk", flat=True)
    )
    assert by_name["Nobs"]["captain_name"] == "Cat"
    one = api.get(f"/api/teams/{home_team.pk}/").json()  # one team keeps the nested shape
    assert one["captain"]["name"] == "Ann"
    assert sorted(p["name"] for p in one["players"]) == ["Ann", "Bob"]


def test_lists_are_flat_and_name_what_they_point_to(api, season, week, match, game):
    matches = api.get(f"/api/matches/?season={season.pk}").json()["results"]
    assert [
        (m["home"], m["home_name"], m["away"], m["away_name"], m["games"]) for m in matches
    ] == [(match.home_id, "Fifteen Two", match.away_id, "Nobs", [game.pk])]
    games = api.get(f"/api/games/?season={season.pk}").json()["results"]
    assert [(g["id"], g["home_name"], g["away_name"], g["status"]) for g in games] == [
        (game.pk, "Fifteen Two", "Nobs", "in_progress")
    ]
    assert "seats" not in games[0] and "deals" not in games[0]
    weeks = api.get(f"/api/weeks/?season={season.pk}").json()["results"]
    assert [(w["number"], w["match_count"]) for w in weeks] == [(1, 1)]


def test_a_page_holds_at_most_200_rows_and_the_schema_says_so(api, season, week, match):
    Match.objects.bulk_create(
        Match(week=week, home=match.home, away=match.away, table=table) for table in range(2, 206)
    )
    page = api.get("/api/matches/?limit=1000").json()
    assert page["count"] == 205 and len(page["results"]) == 200
    assert len(api.get("/api/matches/").json()["results"]) == 100
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    limit = next(
        p for p in schema["paths"]["/api/matches/"]["get"]["parameters"] if p["name"] == "limit"
    )
    assert limit["schema"]["maximum"] == 200 and "at most 200" in limit["description"]


def test_the_schedule_lists_each_week_with_its_matches(api, season, match):
    schedule = api.get(f"/api/seasons/{season.pk}/schedule/").json()
    assert [
        (w["number"], [(m["home_name"], m["away_name"]) for m in w["matches"]]) for w in schedule
    ] == [(1, [("Fifteen Two", "Nobs")])]
    weeks = api.get(f"/api/weeks/?season={season.pk}").json()["results"]
    assert [w["number"] for w in weeks] == [1]


def test_the_season_schedule_reads_exactly_as_its_documented_serializer(
    api, season, venue_week, match, other_team
):
    """The schedule is built from plain rows for speed (5,120 matches at 1,024 teams); what a
    client reads is field for field what the schema's serializer says, dates, venues, empty
    weeks, playoff slots and the order of weeks and tables included."""
    import datetime as dt

    from league.api.serializers import ScheduleWeekSerializer
    from league.api.views import week_rows

    Week.objects.filter(pk=venue_week.pk).update(date=dt.date(2026, 9, 3))
    later = factories.WeekFactory(season=season, number=3, is_playoff=True)
    factories.WeekFactory(season=season, number=2)  # no matches yet
    factories.MatchFactory(
        week=later, home=other_team, away=match.home, table=2, playoff_round=1, playoff_slot=1
    )
    factories.MatchFactory(week=later, home=match.away, away=other_team, table=1)
    answer = api.get(f"/api/seasons/{season.pk}/schedule/").json()
    documented = ScheduleWeekSerializer(week_rows().filter(season=season), many=True).data
    assert answer == json.loads(json.dumps(documented))
    assert [(w["number"], [m["table"] for m in w["matches"]]) for w in answer] == [
        (1, [1]),
        (2, []),
        (3, [1, 2]),
    ]
    assert answer[0]["date"] == "2026-09-03" and answer[0]["venue"] == "The Crooked Peg"


def test_a_match_shows_its_games(api, match, game):
    body = api.get(f"/api/matches/{match.pk}/").json()
    assert body["home"]["name"] == "Fifteen Two"
    assert [(g["number"], g["status"]) for g in body["games"]] == [(1, "in_progress")]
    games = api.get(f"/api/matches/{match.pk}/games/").json()
    assert [g["id"] for g in games] == [game.pk]


def test_a_game_shows_its_current_deals_and_corrections_stay_in_history(client_for, api, game, ann):
    assert client_for(ann).post(deals_url(game), first_deal(), format="json").status_code == 201
    corrected = {**first_deal(), "crib": 4}
    del corrected["key"], corrected["number"]
    answer = client_for(ann).post(
        f"/api/games/{game.pk}/corrections/",
        {"number": 1, "deal": corrected, "reason": "Crib was 4."},
        format="json",
    )
    assert answer.status_code == 201, answer.json()

    body = api.get(f"/api/games/{game.pk}/").json()
    assert [(d["number"], d["version"], d["crib"]) for d in body["deals"]] == [(1, 2, 4)]
    assert api.get(deals_url(game)).json()[0]["crib"] == 4
    current = api.get(f"/api/deals/?game={game.pk}").json()["results"]
    assert [(d["version"], d["is_current"]) for d in current] == [(2, True)]
    history = api.get(f"/api/deals/?game={game.pk}&history=1").json()["results"]
    assert [(d["version"], d["is_current"]) for d in history] == [(1, False), (2, True)]


def test_only_your_own_matches_are_offered_as_writable(client_for, api, match, ann, eve, game):
    assert client_for(ann).get(f"/api/matches/{match.pk}/").json()["can_record"] is True
    assert client_for(eve).get(f"/api/matches/{match.pk}/").json()["can_record"] is False
    assert api.get(f"/api/matches/{match.pk}/").json()["can_record"] is False
    assert client_for(eve).get(f"/api/games/{game.pk}/").json()["can_record"] is False

    assert [m["id"] for m in client_for(ann).get("/api/matches/?mine=1").json()["results"]] == [
        match.pk
    ]
    assert client_for(eve).get("/api/matches/?mine=1").json()["results"] == []
    assert api.get("/api/matches/?mine=1").json()["results"] == []
    assert client_for(eve).get("/api/games/?mine=1").json()["results"] == []
    assert [g["id"] for g in client_for(ann).get("/api/games/?mine=1").json()["results"]] == [
        game.pk
    ]


def test_can_record_agrees_with_the_one_permission_check(
    match, ann, cat, eve, judge, league_admin, bob
):
    from django.contrib.auth.models import AnonymousUser

    inactive = factories.UserFactory(username="gone")
    factories.PlayerFactory(name="Gone", user=inactive)
    inactive.player.teams.add(match.home)
    inactive.is_active = False
    inactive.save()
    for user in [ann, bob, cat, eve, judge, league_admin, inactive, AnonymousUser()]:
        expected = can(user, Action.START_GAME, match)
        request = SimpleNamespace(user=user)
        assert write_access(request, Action.START_GAME, match) is expected, user


def test_standings_are_public(api, season, home_team, away_team):
    table = api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert table["season"] == "Fall 2026"
    assert {row["team"] for row in table["standings"]} == {"Fifteen Two", "Nobs"}


def test_the_schema_and_the_docs_are_served(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/games/{id}/deals/" in paths
    assert "post" in paths["/api/matches/{id}/games/"]
    assert "/api/auth/token/" in paths
    assert api.get("/api/docs/").status_code == 200


# --- Query counts --------------------------------------------------------------------------------


def more_matches(season, week, user, count: int) -> None:
    """``count`` more matches between new teams, each with a game one deal in."""
    deal = {k: v for k, v in first_deal().items() if k not in ("key", "number")}
    for table in range(2, count + 2):
        home = factories.TeamFactory(season=season)
        away = factories.TeamFactory(season=season)
        match = factories.MatchFactory(week=week, home=home, away=away, table=table)
        h, a = list(home.players.all()), list(away.players.all())
        game = game_start(match=match, user=user, seats=[h[0], a[0], h[1], a[1]])
        deal_record(game=game, user=user, number=1, data=deal, key=str(uuid.uuid4()))


def queries(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(ctx)


LISTS = [
    pytest.param("/api/leagues/", 2, id="leagues"),
    pytest.param("/api/seasons/", 2, id="seasons"),
    pytest.param("/api/teams/", 3, id="teams"),
    pytest.param("/api/weeks/", 2, id="weeks"),
    pytest.param("/api/seasons/{season}/schedule/", 3, id="schedule"),
    pytest.param("/api/matches/", 3, id="matches"),
    pytest.param("/api/matches/?mine=1", 3, id="my-matches"),
    pytest.param("/api/games/", 2, id="games"),
    pytest.param("/api/games/?mine=1", 2, id="my-games"),
    pytest.param("/api/deals/", 2, id="deals"),
    pytest.param("/api/matches/{match}/", 4, id="match"),  # + forfeits, postponements
    pytest.param("/api/matches/{match}/games/", 5, id="match-games"),
    pytest.param("/api/games/{game}/", 3, id="game"),
    pytest.param("/api/games/{game}/deals/", 3, id="game-deals"),
    pytest.param("/api/seasons/{season}/standings/", 4, id="standings"),
]
SIGNED_IN = 5  # session, user, and the reader's groups, player and teams (once a request)


@pytest.mark.parametrize(("url", "most"), LISTS)
@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "player"])
def test_reading_costs_the_same_queries_however_many_rows(
    client_for,
    season,
    week,
    match,
    game,
    ann,
    league_admin,
    other_team,
    url,
    most,
    signed_in,
    django_assert_max_num_queries,
):
    deal_record(game=game, user=ann, number=1, data=first_deal(), key=None)
    client = client_for(ann) if signed_in else APIClient()
    url = url.format(season=season.pk, match=match.pk, game=game.pk)
    few = queries(client, url)
    more_matches(season, week, league_admin, 5)
    assert Match.objects.count() == 6
    season.refresh_from_db()  # standings: a new results version, computed again
    with django_assert_max_num_queries(few):
        client.get(url)
    with django_assert_max_num_queries(most + (SIGNED_IN if signed_in else 0)):
        client.get(url)


def test_a_deal_sent_again_answers_what_happened_to_it(client_for, game, ann, bob, cat):
    """The API guide's answers: the team that entered a deal corrects it (201), the other team
    agrees (200) or is kept as a rival (201), and once the game is confirmed it is refused."""
    assert client_for(ann).post(deals_url(game), first_deal(), format="json").status_code == 201

    mine = client_for(ann).post(deals_url(game), first_deal(crib=4), format="json")
    assert mine.status_code == 201, mine.json()
    assert mine.json()["is_rival"] is False and mine.json()["version"] == 2
    partner = client_for(bob).post(deals_url(game), first_deal(crib=3), format="json")
    assert partner.status_code == 201 and partner.json()["is_rival"] is False
    assert [d["crib"] for d in client_for(ann).get(deals_url(game)).json()] == [3]

    agree = client_for(cat).post(deals_url(game), first_deal(crib=3), format="json")
    assert agree.status_code == 200 and agree.json()["version"] == 3
    rival = client_for(cat).post(deals_url(game), first_deal(crib=6), format="json")
    assert rival.status_code == 201 and rival.json()["is_rival"] is True


def test_a_deal_sent_again_after_the_game_is_confirmed_is_refused(client_for, game, ann, cat):
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    before = stored(game)
    late = client_for(ann).post(deals_url(game), first_deal(crib=2), format="json")
    assert late.status_code == 409 and "only a judge" in late.json()["detail"]
    assert stored(game) == before
