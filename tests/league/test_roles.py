"""The whole matrix of roles against every action that writes, through the one check."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group

from league.permissions import JUDGES, LEAGUE_ADMINS, Action, can
from tests import factories

ROLES = ["visitor", "player", "captain", "other_player", "judge", "league_admin", "superuser"]

# What each role may do on a match between the player's/captain's team and another team.
ALLOWED = {
    "visitor": set(),
    "player": {Action.START_GAME, Action.RECORD_DEAL, Action.CONFIRM_GAME, Action.RAISE_DISPUTE},
    "captain": {Action.START_GAME, Action.RECORD_DEAL, Action.CONFIRM_GAME, Action.RAISE_DISPUTE},
    "other_player": set(),
    "judge": {Action.CORRECT_DEAL, Action.VOID_GAME, Action.RULE_DISPUTE},
    "league_admin": {
        Action.START_GAME,
        Action.RECORD_DEAL,
        Action.CONFIRM_GAME,
        Action.RAISE_DISPUTE,
        Action.CORRECT_DEAL,
        Action.VOID_GAME,
        Action.MANAGE_LEAGUE,
    },
    "superuser": set(Action),
}


@pytest.fixture
def people(match, home_team, other_team, judge, league_admin):
    return {
        "visitor": AnonymousUser(),
        "player": home_team.players.get(name="Bob").user,
        "captain": home_team.captain.user,
        "other_player": other_team.captain.user,
        "judge": judge,
        "league_admin": league_admin,
        "superuser": factories.UserFactory(username="root", is_superuser=True, is_staff=True),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(Action))
def test_every_role_against_every_write(people, match, role, action):
    assert can(people[role], action, match) == (action in ALLOWED[role])


def test_an_inactive_account_can_do_nothing(people, match):
    captain = people["captain"]
    captain.is_active = False
    for action in Action:
        assert not can(captain, action, match)


def test_roles_are_groups_made_by_a_migration(db):
    assert set(Group.objects.values_list("name", flat=True)) >= {JUDGES, LEAGUE_ADMINS}
    judges = Group.objects.get(name=JUDGES)
    assert judges.permissions.filter(codename="change_dispute").exists()
    assert not judges.permissions.filter(codename="change_league").exists()
