"""The services that set a league up (rules, seasons, schedule, people, playoffs) refuse with
the kernel's one refusal: the sentence ``refusal()`` gives is the one every door shows, in
English and in French."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from league.kernel.errors import NotAllowed
from league.kernel.permissions import Action, refusal
from league.services.people import players_add
from league.services.playoffs import playoffs_create
from league.services.rules import league_create, season_rules_update
from league.services.seasons import venue_create, week_create

pytestmark = pytest.mark.django_db


def refused(call) -> NotAllowed:
    with pytest.raises(NotAllowed) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    "write",
    [
        lambda user, season: league_create(user=user, name="Tuesday Pairs"),
        lambda user, season: venue_create(user=user, name="The Crown"),
        lambda user, season: week_create(season=season, user=user, date=dt.date(2026, 12, 10)),
        lambda user, season: players_add(user=user, lines=[]),
        lambda user, season: playoffs_create(season=season, user=user),
        lambda user, season: season_rules_update(season=season, user=user, changes={"target": 61}),
    ],
    ids=["league", "venue", "week", "players", "playoffs", "rules"],
)
def test_a_player_setting_up_the_league_gets_the_refusals_sentence(write, ann, season):
    expected = refusal(ann, Action.MANAGE_LEAGUE)
    assert expected is not None
    error = refused(lambda: write(ann, season))
    assert str(error) == expected.message()
    assert str(error) == "You are not allowed to manage leagues, seasons and teams."
    with translation.override("fr"):
        error = refused(lambda: write(ann, season))
        assert str(error) == "Vous n'avez pas le droit de gérer ligues, saisons et équipes."


def test_changing_a_played_seasons_rules_says_who_may(ann, game):
    season = game.match.week.season
    error = refused(
        lambda: season_rules_update(season=season, user=ann, changes={"target": 61}, reason="x")
    )
    assert str(error) == "You are not allowed to change the rules of a season under way."
