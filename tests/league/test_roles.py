"""The whole matrix of roles against every action, through the one check, in the game states
where the answer differs: a game under way, and a finished game Fifteen Two entered (so Nobs
are the team asked to confirm it)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group

from league.kernel.permissions import JUDGES, LEAGUE_ADMINS, Action, can
from league.models import Deal
from tests import factories
from tests.factories import plain_deal, play_until_over

ROLES = [
    "visitor",
    "home_player",
    "home_captain",
    "away_captain",
    "other_player",
    "judge",
    "league_admin",
    "superuser",
]
A = Action
# What each role may do on a game under way between Fifteen Two (home) and Nobs (away): its
# teams keep the match's score, but start no other game while this one is played, and cancel
# it no longer (a deal is in).
# The tournament actions are asked as role questions here (about no object): every player may
# enter a scorecard of a table they sit at, judges and league admins check scorecards, league
# admins run tournaments.
UNDER_WAY = {
    "visitor": set(),
    "home_player": {
        A.KEEP_SCORE,
        A.RECORD_DEAL,
        A.CORRECT_DEAL,
        A.RAISE_DISPUTE,
        A.VIEW_DISPUTES,
        A.ENTER_SCORECARD,
    },
    "home_captain": {
        A.KEEP_SCORE,
        A.RECORD_DEAL,
        A.CORRECT_DEAL,
        A.RAISE_DISPUTE,
        A.VIEW_DISPUTES,
        A.ENTER_SCORECARD,
    },
    # Nobs did not enter deal 1, so they cannot correct it (they may dispute it)
    "away_captain": {
        A.KEEP_SCORE,
        A.RECORD_DEAL,
        A.RAISE_DISPUTE,
        A.VIEW_DISPUTES,
        A.ENTER_SCORECARD,
    },
    "other_player": {A.ENTER_SCORECARD},
    "judge": {
        A.RAISE_DISPUTE,
        A.VIEW_DISPUTES,
        A.RULE_DISPUTE,
        A.VOID_GAME,
        A.RECORD_FORFEIT,
        A.CHANGE_PLAYED_RULES,
        A.VIEW_PRECEDENTS,
        A.CHECK_SCORECARDS,
    },
    "league_admin": {
        A.RUN_TOURNAMENT,
        A.KEEP_MONEY,
        A.MANAGE_CLUBS,
        A.CHECK_SCORECARDS,
        A.KEEP_SCORE,
        A.RECORD_DEAL,
        A.RAISE_DISPUTE,
        A.VIEW_DISPUTES,
        A.VOID_GAME,
        A.RECORD_FORFEIT,
        A.CHANGE_PLAYED_RULES,
        A.MANAGE_LEAGUE,
        A.VIEW_PRECEDENTS,
    },
    # (withdrawing a dispute is its own team's, asked about the dispute: see the test below)
    # (the superuser plays at no table: no player is linked to the account)
    # (no forfeit stands to undo: see tests/league/test_forfeits.py)
    "superuser": set(Action)
    - {
        A.UNDO_FORFEIT,
        A.POSTPONE_MATCH,  # a game is played: too late (see tests/league/test_postponements.py)
        A.ANSWER_POSTPONEMENT,
        A.CORRECT_DEAL,
        A.WITHDRAW_RIVAL,
        A.CONFIRM_GAME,
        A.REJECT_GAME,
        A.WITHDRAW_DISPUTE,
        A.ENTER_SCORECARD,
        A.START_GAME,
        A.CANCEL_GAME,
    },
}
# The same game finished: Fifteen Two entered every deal, so Nobs are asked to confirm it, and
# game 2 may start.
FINISHED = {
    **UNDER_WAY,
    "home_player": UNDER_WAY["home_player"] - {A.RECORD_DEAL} | {A.START_GAME},
    "home_captain": UNDER_WAY["home_captain"] - {A.RECORD_DEAL} | {A.START_GAME},
    "away_captain": (UNDER_WAY["away_captain"] - {A.RECORD_DEAL})
    | {A.CONFIRM_GAME, A.REJECT_GAME, A.START_GAME},
    "league_admin": UNDER_WAY["league_admin"] - {A.RECORD_DEAL} | {A.START_GAME},
    "superuser": UNDER_WAY["superuser"] - {A.RECORD_DEAL} | {A.START_GAME},
}


@pytest.fixture
def people(match, home_team, away_team, other_team, judge, league_admin):
    return {
        "visitor": AnonymousUser(),
        "home_player": home_team.players.get(name="Bob").user,
        "home_captain": home_team.captain.user,
        "away_captain": away_team.captain.user,
        "other_player": other_team.captain.user,
        "judge": judge,
        "league_admin": league_admin,
        "superuser": factories.UserFactory(username="root", is_superuser=True, is_staff=True),
    }


def object_for(action, game):
    """What the action is about: the match, the season, the first deal, or the game."""
    if action in (
        A.START_GAME,
        A.KEEP_SCORE,
        A.RECORD_FORFEIT,
        A.UNDO_FORFEIT,
        A.POSTPONE_MATCH,
    ):
        return game.match
    if action in (A.CHANGE_PLAYED_RULES, A.VIEW_PRECEDENTS):
        return game.match.week.season
    if action == A.CORRECT_DEAL:
        return Deal.objects.get(game=game, number=1, is_current=True)
    if action == A.WITHDRAW_RIVAL:
        return Deal.objects.get(game=game, number=1, is_current=True)  # not a rival: never
    if action in (
        A.MANAGE_LEAGUE,
        A.RUN_TOURNAMENT,
        A.KEEP_MONEY,
        A.MANAGE_CLUBS,
        A.CHECK_SCORECARDS,
        A.ENTER_SCORECARD,
    ):
        return None
    return game


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(Action))
def test_every_role_against_every_action_on_a_game_under_way(people, game, ann, role, action):
    from league.services.deals import deal_record

    deal_record(game=game, user=ann, number=1, data=plain_deal(0))
    game.refresh_from_db()
    assert can(people[role], action, object_for(action, game)) == (action in UNDER_WAY[role])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(Action))
def test_every_role_against_every_action_on_a_finished_game(people, game, ann, role, action):
    play_until_over(game, ann)
    game.refresh_from_db()
    assert can(people[role], action, object_for(action, game)) == (action in FINISHED[role])


def test_a_judge_never_acts_on_their_own_teams_game(game, ann, home_team):
    play_until_over(game, ann)
    game.refresh_from_db()
    bob = home_team.players.get(name="Bob").user
    bob.groups.add(Group.objects.get_or_create(name=JUDGES)[0])
    bob.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    for action in (A.VOID_GAME, A.RULE_DISPUTE, A.CONFIRM_GAME):
        assert not can(bob, action, game), action


def test_an_inactive_account_can_do_nothing(people, game, ann):
    play_until_over(game, ann)
    game.refresh_from_db()
    cat = people["away_captain"]
    cat.is_active = False
    for action in Action:
        assert not can(cat, action, object_for(action, game))


def test_roles_are_groups_made_by_a_migration(db):
    assert set(Group.objects.values_list("name", flat=True)) >= {JUDGES, LEAGUE_ADMINS}
    judges = Group.objects.get(name=JUDGES)
    assert judges.permissions.filter(codename="change_dispute").exists()
    assert not judges.permissions.filter(codename="change_league").exists()


def test_only_the_team_that_raised_a_dispute_withdraws_it_while_it_is_open(people, game, ann):
    from league.services.disputes import dispute_raise, dispute_withdraw

    play_until_over(game, ann)
    cat = people["away_captain"]
    dispute = dispute_raise(game=game, user=cat, claim="Deal 1: the crib was 2", deal_number=1)
    allowed = {role for role in ROLES if can(people[role], A.WITHDRAW_DISPUTE, dispute)}
    assert allowed == {"away_captain"}
    dispute_withdraw(dispute=dispute, user=cat)
    dispute.refresh_from_db()
    assert not can(cat, A.WITHDRAW_DISPUTE, dispute)  # settled: nothing left to withdraw
