"""The Confirm button, the API and the service agree, for every role and every "who entered
what": the page offers Confirm exactly to the people the API says may confirm, and exactly
those are accepted by the service. (The first release showed Confirm to players the service then
refused, and named the wrong team as the one to confirm.)"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel.errors import DomainError
from league.kernel.permissions import LEAGUE_ADMINS
from league.models import Game, GameStatus
from league.services.deals import deal_record
from league.services.disputes import dispute_raise, dispute_rule
from league.services.games import game_confirm
from tests import factories
from tests.factories import game_deals

pytestmark = pytest.mark.django_db


class _Undo(Exception):
    pass


def service_accepts(game: Game, user) -> bool:
    """Whether game_confirm accepts ``user`` (tried, then rolled back)."""
    try:
        with transaction.atomic():
            game_confirm(game=game, user=user)
            raise _Undo
    except _Undo:
        return True
    except DomainError:
        return False


def play_entered_by(game, enterers) -> Game:
    """The whole game, deal ``n`` entered by ``enterers(n, last)``."""
    deals = game_deals(game)
    for number, data in enumerate(deals, start=1):
        data = {k: v for k, v in data.items() if k != "cards"}
        deal_record(game=game, user=enterers(number, len(deals)), number=number, data=data)
    game.refresh_from_db()
    return game


@pytest.fixture
def everyone(home_team, away_team, other_team, judge, league_admin):
    names = {
        "ann": home_team.captain.user,
        "bob": home_team.players.get(name="Bob").user,
        "cat": away_team.captain.user,
        "dan": away_team.players.get(name="Dan").user,
        "eve": other_team.captain.user,
        "judge": judge,
        "league admin": league_admin,
        "root": factories.UserFactory(username="root", is_superuser=True, is_staff=True),
    }
    # Bob captains nothing but is also a league admin: a role never vouches for Nobs.
    names["bob"].groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    return names


CASES = {
    # who entered -> the team(s) the page must ask
    "Fifteen Two entered every deal": (lambda p: lambda n, last: p["ann"], {"Nobs"}),
    "Nobs entered every deal": (lambda p: lambda n, last: p["cat"], {"Fifteen Two"}),
    "both entered, Nobs the last deal": (
        lambda p: lambda n, last: p["cat"] if n == last else p["bob"],
        {"Fifteen Two"},
    ),
    "both entered, Fifteen Two the last": (
        lambda p: lambda n, last: p["ann"] if n == last else p["dan"],
        {"Nobs"},
    ),
    "the league admin entered a paper sheet": (
        lambda p: lambda n, last: p["league admin"],
        {"Fifteen Two", "Nobs"},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_page_the_api_and_the_service_agree_on_who_confirms(client, game, everyone, case):
    enterers, asked = CASES[case]
    play_entered_by(game, enterers(everyone))
    assert game.status == GameStatus.FINISHED
    page_for_visitor = client.get(reverse("league:game", args=[game.pk])).content.decode()
    for team in ("Fifteen Two", "Nobs"):
        waiting = f"Waiting for {team} to confirm this game."
        assert (waiting in page_for_visitor) == (team in asked), (case, team)
    confirm_url = reverse("league:confirm", args=[game.pk])
    for name, user in everyone.items():
        client.force_login(user)
        button = confirm_url in client.get(reverse("league:game", args=[game.pk])).content.decode()
        api = APIClient()
        api.force_authenticate(user)
        api_says = api.get(f"/api/games/{game.pk}/").json()["can_confirm"]
        service = service_accepts(game, user)
        on_asked_team = any(user in t.players_users for t in _teams(game) if t.name in asked)
        assert button == api_says == service == on_asked_team, (case, name)


def _teams(game):
    for team in (game.match.home, game.match.away):
        team.players_users = [p.user for p in team.players.all()]
        yield team


def test_after_a_judges_ruling_nobody_is_asked_and_the_game_counts(client, game, everyone):
    play_entered_by(game, lambda n, last: everyone["ann"])
    dispute = dispute_raise(game=game, user=everyone["cat"], claim="Check the last crib.")
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    dispute_rule(
        dispute=dispute, judge=everyone["judge"], ruling="It stands.", rule_reference="S-9"
    )
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    for user in everyone.values():
        client.force_login(user)
        page = client.get(reverse("league:game", args=[game.pk])).content.decode()
        assert reverse("league:confirm", args=[game.pk]) not in page
        assert not service_accepts(game, user)


def test_both_teams_vouching_in_turn_confirms_a_paper_sheet(game, everyone):
    play_entered_by(game, lambda n, last: everyone["league admin"])
    game_confirm(game=game, user=everyone["dan"])
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED  # Nobs vouched; Fifteen Two still asked
    game_confirm(game=game, user=everyone["ann"])
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED and game.confirmed_by == everyone["ann"]


def test_without_confirmation_a_rival_does_not_ask_the_team_that_has_nothing_to_confirm(
    client, game, everyone
):
    """Agreement: in a season that asks no confirmation, home entered deals 1 to N-1, away a
    different deal 1 and the last deal. Only away still has something to settle (its rival
    entry); the page showed Confirm to home, whose press the service refused with "Your team
    has already confirmed this game." The button, the API and the service now read the same
    facts."""
    season = game.match.week.season
    season.requires_confirmation = False
    season.save()
    deals = [{k: v for k, v in d.items() if k != "cards"} for d in game_deals(game)]
    for number, data in enumerate(deals[:-1], start=1):
        deal_record(game=game, user=everyone["ann"], number=number, data=data)
    pegging = list(deals[0]["pegging"])
    pegging[0] = pegging[0] - 1 if pegging[0] else pegging[0] + 1
    deal_record(game=game, user=everyone["cat"], number=1, data={**deals[0], "pegging": pegging})
    deal_record(game=game, user=everyone["cat"], number=len(deals), data=deals[-1])
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.away_rival == 1
    confirm_url = reverse("league:confirm", args=[game.pk])
    for name in ("ann", "bob", "cat", "dan"):
        user = everyone[name]
        client.force_login(user)
        button = confirm_url in client.get(reverse("league:game", args=[game.pk])).content.decode()
        api = APIClient()
        api.force_authenticate(user)
        api_says = api.get(f"/api/games/{game.pk}/").json()["can_confirm"]
        assert button == api_says == service_accepts(game, user) is False, name


# --- Every door asks the same refusal and says its sentence ----------------------------------


def _state(game, everyone, name):
    """The game put in state ``name``."""
    deals = [{k: v for k, v in d.items() if k != "cards"} for d in game_deals(game)]
    if name == "in progress":
        deal_record(game=game, user=everyone["ann"], number=1, data=deals[0])
    else:
        play_entered_by(game, lambda n, last: everyone["ann"])
    if name == "confirmed":
        game_confirm(game=game, user=everyone["cat"])
    elif name == "disputed":
        dispute_raise(game=game, user=everyone["cat"], claim="Check the last crib.")
    game.refresh_from_db()
    return deals


def _tried(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``'s answer, with everything it wrote rolled back."""
    answer = None
    try:
        with transaction.atomic():
            answer = fn(*args, **kwargs)
            raise _Undo
    except _Undo:
        pass
    return answer


DOORS = {
    # action -> (the page's button, the API's flag, the API's write, the web form's POST)
    "confirm": (
        lambda game: reverse("league:confirm", args=[game.pk]),
        "can_confirm",
        lambda game, deals: (f"/api/games/{game.pk}/confirm/", {}),
        lambda game: reverse("league:confirm", args=[game.pk]),
    ),
    "record": (
        lambda game: reverse("league:enter", args=[game.pk]) + '">Enter scores',
        "can_record",
        lambda game, deals: (
            f"/api/games/{game.pk}/deals/",
            {"number": game.deal_count + 1, **deals[min(game.deal_count, len(deals) - 1)]},
        ),
        None,  # deals are posted by the entry page's script, through the API
    ),
}
ACTIONS = {"confirm": "confirm_game", "record": "record_deal"}


@pytest.mark.parametrize("state", ["in progress", "finished", "disputed", "confirmed"])
@pytest.mark.parametrize("action", list(DOORS))
def test_every_door_asks_the_same_refusal_and_says_its_sentence(
    client, game, everyone, state, action
):
    """The button is shown iff the service accepts, the API's flag agrees, and a refused press
    answers the refusal's own sentence at the API (its status too) and in the web form."""
    from django.utils.html import escape

    from league.kernel.permissions import refusal

    deals = _state(game, everyone, state)
    button, flag, api_write, form = DOORS[action]
    for name in ("ann", "cat", "eve", "judge", "league admin"):
        user = everyone[name]
        game.refresh_from_db()
        refused = refusal(user, ACTIONS[action], game)
        where = (action, state, name)
        client.force_login(user)
        page = client.get(reverse("league:game", args=[game.pk])).content.decode()
        assert (button(game) in page) == (refused is None), where
        api = APIClient()
        api.force_authenticate(user)
        assert api.get(f"/api/games/{game.pk}/").json()[flag] == (refused is None), where
        url, body = api_write(game, deals)
        answer = _tried(api.post, url, body, format="json")
        if refused is None:
            assert answer.status_code in (200, 201), (where, answer.json())
            continue
        assert answer.status_code == refused.status, (where, answer.json())
        assert answer.json()["detail"] == refused.sentence, where
        assert answer.json()["refusal"] == refused.code, where
        if form is not None:
            shown = _tried(client.post, form(game), follow=True).content.decode()
            assert escape(refused.sentence) in shown, where
