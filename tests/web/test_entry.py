"""The phone's score-entry page: who may open it, the data its script works from (the server's
own rules), the card-counting endpoint, and the API contract the script relies on."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Deal
from scoring.game import entry_rules
from tests.factories import game_deals

pytestmark = pytest.mark.django_db


def entry_data(response) -> dict:
    match = re.search(
        r'<script id="entry-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the page carries its data as JSON"
    return json.loads(match.group(1))


def test_a_visitor_is_sent_to_log_in(client, game):
    response = client.get(reverse("league:enter", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_player_of_another_team_is_refused_with_a_sentence(client, eve, game):
    client.force_login(eve)
    response = client.get(reverse("league:enter", args=[game.pk]))
    assert response.status_code == 403
    assert "Only the players of these two teams can enter their scores." in (
        response.content.decode()
    )
    assert "entry-data" not in response.content.decode()


def test_the_page_carries_the_servers_own_rules(client, ann, half_game, league):
    client.force_login(ann)
    data = entry_data(client.get(reverse("league:enter", args=[half_game.pk])))
    assert data["rules"] == json.loads(
        json.dumps(entry_rules(league.variant, target=league.target))
    )
    assert 19 not in data["rules"]["show_totals"]
    assert data["skunk_line"] == league.target - league.skunk_margin
    assert [s["name"] for s in data["seats"]] == ["Ann", "Cat", "Bob", "Dan"]
    assert [s["side"] for s in data["seats"]] == [0, 1, 0, 1]
    assert data["urls"]["deals"] == f"/api/games/{half_game.pk}/deals/"


def test_the_page_carries_the_running_totals_in_side_order(client, ann, half_game):
    client.force_login(ann)
    data = entry_data(client.get(reverse("league:enter", args=[half_game.pk])))
    assert [d["number"] for d in data["deals"]] == [1, 2, 3]
    assert [d["dealer"] for d in data["deals"]] == [0, 1, 2]  # the deal passes clockwise
    assert data["deals"][-1]["after"] == [half_game.home_score, half_game.away_score]


def test_the_page_has_no_inline_script_to_run(client, ann, game):
    client.force_login(ann)
    body = client.get(reverse("league:enter", args=[game.pk])).content.decode()
    for tag in re.findall(r"<script[^>]*>", body):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_entry_page_queries_are_fixed(client, ann, half_game, django_assert_num_queries):
    client.force_login(ann)
    url = reverse("league:enter", args=[half_game.pk])
    client.get(url)
    with django_assert_num_queries(9):  # ... and one for the rival entries (none here)
        client.get(url)


def test_score_show_counts_a_29(client, db):
    response = client.get(reverse("league:score_show"), {"hand": "5H 5D 5S JC", "starter": "5C"})
    assert response.status_code == 200
    body = response.json()
    assert body["total"] == 29
    assert body["breakdown"][-1]["label"] == "one for his nobs"


def test_score_show_counts_a_crib_flush_only_with_the_starter(client, db):
    url = reverse("league:score_show")
    hand = {"hand": "2H 4H 6H 8H", "starter": "KS"}
    assert client.get(url, hand).json()["flush"] == 4
    assert client.get(url, {**hand, "crib": "1"}).json()["flush"] == 0


def test_score_show_says_which_card_is_wrong(client, db):
    response = client.get(reverse("league:score_show"), {"hand": "5H 5X 5S JC", "starter": "5C"})
    assert response.status_code == 400
    assert "5X" in response.json()["detail"]


def test_the_api_the_script_uses_stores_a_deal_once_per_key(ann, game):
    """What outbox.js does: a session cookie, the CSRF token in a header, the same key on retry."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    client.get(reverse("league:enter", args=[game.pk]))  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    deal = {k: v for k, v in game_deals(game)[0].items() if k != "cards"}
    body = json.dumps({**deal, "key": str(uuid.uuid4()), "number": 1})
    url = f"/api/games/{game.pk}/deals/"
    first = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    again = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert (first.status_code, again.status_code) == (201, 200)
    assert Deal.objects.filter(game=game).count() == 1


def test_the_api_refuses_without_the_csrf_header(ann, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    deal = {k: v for k, v in game_deals(game)[0].items() if k != "cards"}
    response = client.post(
        f"/api/games/{game.pk}/deals/",
        json.dumps({**deal, "key": str(uuid.uuid4()), "number": 1}),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]  # outbox.js keeps the entry and asks to log in
    assert not Deal.objects.exists()


# --- What the page's script is told it may do (all from can()) ------------------------------


def test_a_team_may_correct_the_deals_it_entered_and_only_those(client, ann, cat, half_game):
    client.force_login(ann)
    assert entry_data(client.get(reverse("league:enter", args=[half_game.pk])))["correctable"] == [
        1,
        2,
        3,
    ]
    client.force_login(cat)
    data = entry_data(client.get(reverse("league:enter", args=[half_game.pk])))
    assert data["correctable"] == [] and data["can_record"]
    assert data["deals"][0]["deal"]["shows"]  # each deal's stored numbers, to correct from
    assert data["deals"][0]["entered_by"] == "ann"


def test_a_finished_game_offers_nothing_to_enter(client, ann, cat, season, finished_game):
    client.force_login(cat)
    data = entry_data(client.get(reverse("league:enter", args=[finished_game.pk])))
    assert not data["can_record"] and data["correctable"] == []
    assert data["status"] == "finished"
    # the game-over panel names skunks by the season's own margins
    assert data["skunk_margin"] == season.skunk_margin
    assert data["double_skunk_margin"] == season.double_skunk_margin


def test_the_script_catches_up_with_the_same_data_as_json(client, ann, eve, half_game):
    url = reverse("league:enter", args=[half_game.pk])
    client.force_login(ann)
    page = entry_data(client.get(url))
    fresh = client.get(url, {"format": "json"})
    assert fresh.status_code == 200 and fresh.json() == page
    assert page["urls"]["refresh"] == f"{url}?format=json"
    client.force_login(eve)
    refused = client.get(url, {"format": "json"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only the players of these two teams can enter their scores."


def test_a_rival_entry_is_shown_to_both_teams_with_what_each_may_do(client, ann, cat, half_game):
    from league.services.deals import deal_record
    from league.services.disputes import dispute_raise

    other = {k: v for k, v in game_deals(half_game)[1].items() if k != "cards"}
    seat = next(iter(other["shows"]))
    other["shows"] = {**other["shows"], seat: 2 if other["shows"][seat] != 2 else 4}
    rival, created = deal_record(game=half_game, user=cat, number=2, data=other)
    assert created and rival.is_rival
    url = reverse("league:enter", args=[half_game.pk])

    client.force_login(cat)
    [mine] = entry_data(client.get(url))["rivals"]
    assert (mine["number"], mine["entered_by"], mine["deal"]["shows"]) == (2, "cat", other["shows"])
    assert mine["can_withdraw"] and mine["can_dispute"] and not mine["disputed"]
    assert mine["withdraw_url"] == f"/api/deals/{rival.pk}/withdraw/"
    assert "Deal 2 was entered twice" in mine["claim"]

    client.force_login(ann)
    [theirs] = entry_data(client.get(url))["rivals"]
    assert not theirs["can_withdraw"] and theirs["can_dispute"]

    dispute_raise(game=half_game, user=cat, claim=mine["claim"], rival=rival)
    [held] = entry_data(client.get(url))["rivals"]
    assert held["disputed"] and not held["can_dispute"]  # one dispute holds both versions


def test_a_voided_games_page_still_opens_so_refused_entries_can_be_seen(
    client, ann, judge, half_game
):
    from league.services.games import game_void

    game_void(game=half_game, user=judge, reason="Replayed next week")
    client.force_login(ann)
    response = client.get(reverse("league:enter", args=[half_game.pk]))
    assert response.status_code == 200
    data = entry_data(response)
    assert data["status"] == "void" and not data["can_record"] and data["correctable"] == []


# --- The judge's correction form: the same deal form, in the admin ---------------------------


@pytest.fixture
def disputed_game(game, ann, cat):
    """Fifteen Two entered the whole game; Cat entered deal 2 with other numbers and disputed it."""
    from league.services.deals import deal_record
    from league.services.disputes import dispute_raise
    from tests.factories import play

    play(game, ann)
    other = {k: v for k, v in game_deals(game)[1].items() if k != "cards"}
    other["pegging"] = [other["pegging"][0], other["pegging"][1] + 1]
    rival, _ = deal_record(game=game, user=cat, number=2, data=other)
    return dispute_raise(game=game, user=cat, claim="Deal 2: we pegged one more", rival=rival)


def judge_page(client, judge, dispute) -> str:
    judge.is_staff = True
    judge.save()
    client.force_login(judge)
    response = client.get(f"/admin/league/dispute/{dispute.pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_judges_form_is_the_deal_form_with_both_versions_and_no_json_to_type(
    client, judge, disputed_game
):
    body = judge_page(client, judge, disputed_game)
    assert not re.search(r"<textarea[^>]*corrections", body)
    assert 'type="hidden" name="corrections"' in body
    assert "data-deal-form" in body and "js/dealform.js" in body and "js/judge.js" in body
    data = json.loads(
        re.search(r'<script id="judge-data" type="application/json">(.*?)</script>', body, re.S)[1]
    )
    assert data["disputed"] == 2
    assert [s["name"] for s in data["seats"]] == ["Ann", "Cat", "Bob", "Dan"]
    assert data["rival"]["entered_by"] == "cat"
    assert data["rival"]["deal"]["pegging"] != data["deals"][1]["deal"]["pegging"]
    assert data["rules"]["show_totals"]  # the scorer's live checks


def test_the_judges_page_keeps_to_the_csp(client, judge, disputed_game):
    body = judge_page(client, judge, disputed_game)
    start = body.index("data-judge")
    for tag in re.findall(r"<script[^>]*>", body[body.rindex("<form", 0, start) :]):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\son[a-z]+=", body[start:])
