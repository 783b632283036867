"""Forfeits and no-shows: the season's forfeit rule, applied through the games, tallies and
standings played games go through; who may record one (and undo it), and what is refused;
standings and weeks won checked against tables worked by hand."""

from __future__ import annotations

import pytest

from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, can
from league.models import AuditEntry, Forfeit, Game, GameStatus, Match, Week
from league.selectors.history import game_history
from league.selectors.standings import compute_standings
from league.services.deals import deal_record
from league.services.forfeits import forfeit_undo, match_forfeit
from tests.factories import plain_deal, play_until_over


def table(season):
    """{team: (won, lost, points, weeks won, spread)} from the standings as computed."""
    season.refresh_from_db()
    rows = compute_standings(season)["standings"]
    return {
        r["team"]: (r["won"], r["lost"], r["points"], r["weeks_won"], r["spread"]) for r in rows
    }


# played_season (tests/conftest.py), worked by hand: week 1 Fifteen Two beat Nobs 2-1 (a skunk
# by 35, then lost by 10, won by 5); week 2 His Heels beat Fifteen Two 2-1 (by 20, by 3; lost
# by 12). Points: a win 1, a skunk 1 more.
BEFORE = {
    "Fifteen Two": (3, 3, 4, 1, 35 - 10 + 5 - 20 - 3 + 12),
    "Nobs": (1, 2, 1, 0, -35 + 10 - 5),
    "His Heels": (2, 1, 2, 1, 20 + 3 - 12),
}


@pytest.fixture
def week3(played_season, away_team, other_team):
    """Week 3: Nobs (home) v His Heels, nothing played yet."""
    week = Week.objects.create(season=played_season, number=3)
    return Match.objects.create(week=week, home=away_team, away=other_team)


def test_a_no_show_loses_every_game_at_the_points_of_a_win_and_the_week(
    played_season, week3, other_team, league_admin
):
    assert table(played_season) == BEFORE
    forfeit = match_forfeit(
        match=week3, team=other_team, reason="His Heels did not turn up", user=league_admin
    )
    games = list(week3.games.order_by("number"))
    assert [(g.number, g.status, g.winner.name) for g in games] == [
        (n, GameStatus.CONFIRMED, "Nobs") for n in (1, 2, 3)
    ]
    assert all(g.forfeit == forfeit and g.skunk_level == 0 and g.margin == 0 for g in games)
    # Nobs: 3 more games won, 3 more points, the week won, no spread; His Heels 3 lost.
    assert table(played_season) == {
        **BEFORE,
        "Nobs": (4, 2, 4, 1, -30),
        "His Heels": (2, 4, 2, 1, 11),
    }


def test_a_team_that_leaves_forfeits_the_games_left_and_the_game_under_way_is_voided(
    played_season, week3, away_team, other_team, judge
):
    nobs = away_team.captain.user
    from league.services.games import game_start

    first = game_start(match=week3, user=nobs, seats=["Cat", "Eve", "Dan", "Fay"])
    play_until_over(first, nobs)
    game_confirm_by_heels(first, other_team)
    second = game_start(match=week3, user=nobs, seats=["Cat", "Eve", "Dan", "Fay"])
    deal_record(game=second, user=nobs, number=1, data=plain_deal(0))
    match_forfeit(match=week3, team=away_team, reason="Nobs left after a deal", user=judge)
    second.refresh_from_db()
    assert second.status == GameStatus.VOID  # its deal is kept, it counts nowhere
    assert second.deals.count() == 1
    counted = week3.games.exclude(status=GameStatus.VOID).order_by("number")
    assert [(g.number, g.forfeit_id is not None, g.winner.name) for g in counted] == [
        (1, False, "Nobs"),
        (2, True, "His Heels"),
        (3, True, "His Heels"),
    ]
    # Game 1 as played (Nobs won it), games 2 and 3 to His Heels: His Heels win the week 2-1.
    heels = table(played_season)["His Heels"]
    assert heels[:4] == (4, 2, 4, 2)


def game_confirm_by_heels(game, heels):
    from league.services.games import game_confirm

    game_confirm(game=game, user=heels.captain.user)


def test_the_season_decides_games_awarded_points_and_whether_the_week_is_won(
    played_season, week3, other_team, league_admin
):
    played_season.forfeit_games = 2
    played_season.forfeit_points = 3
    played_season.forfeit_wins_week = False
    played_season.save()
    match_forfeit(match=week3, team=other_team, reason="No show", user=league_admin)
    assert week3.games.count() == 2
    # Nobs: 2 games, 3 points each, no week won; His Heels lose 2.
    assert table(played_season) == {
        **BEFORE,
        "Nobs": (3, 2, 7, 0, -30),
        "His Heels": (2, 3, 2, 1, 11),
    }


def test_a_judge_undoes_a_forfeit_and_the_standings_are_as_before(
    played_season, week3, other_team, league_admin, judge
):
    match_forfeit(match=week3, team=other_team, reason="No show", user=league_admin)
    with pytest.raises(NotAllowed):
        forfeit_undo(match=week3, reason="They were there", user=league_admin)
    with pytest.raises(ValidationFailed, match="Say why"):
        forfeit_undo(match=week3, reason=" ", user=judge)
    forfeit = forfeit_undo(match=week3, reason="They were there, at the other bar", user=judge)
    assert forfeit.undone_by == judge and not forfeit.is_standing
    assert table(played_season) == BEFORE
    assert set(week3.games.values_list("status", flat=True)) == {GameStatus.VOID}
    # The games can be played now, and the forfeit can be recorded again.
    assert can(other_team.captain.user, Action.START_GAME, week3)
    assert can(league_admin, Action.RECORD_FORFEIT, week3)
    texts = [row["text"] for row in game_history(week3.games.first())]
    assert texts == [
        "Won by forfeit: His Heels forfeited it.",
        "The forfeit was undone: the game no longer counts.",
    ]


def test_who_may_record_a_forfeit_and_a_refusal_changes_nothing(
    played_season, week3, away_team, other_team, judge, league_admin
):
    for user in (away_team.captain.user, other_team.captain.user):
        with pytest.raises(NotAllowed, match="Only a judge or a league admin"):
            match_forfeit(match=week3, team=other_team, reason="No show", user=user)
    with pytest.raises(ValidationFailed, match="Say why"):
        match_forfeit(match=week3, team=other_team, reason="  ", user=judge)
    home_team = played_season.teams.get(name="Fifteen Two")
    with pytest.raises(ValidationFailed, match="Choose which of the two teams"):
        match_forfeit(match=week3, team=home_team, reason="No show", user=judge)
    assert not Game.objects.filter(match=week3).exists()
    assert not Forfeit.objects.exists()
    match_forfeit(match=week3, team=other_team, reason="No show", user=judge)
    with pytest.raises(Locked, match="already forfeited"):
        match_forfeit(match=week3, team=away_team, reason="No show", user=league_admin)
    assert table(played_season)["Nobs"][0] == 4


def test_a_played_match_has_nothing_left_to_forfeit(played_season, league_admin):
    week1 = played_season.weeks.get(number=1)
    match = week1.matches.get()
    with pytest.raises(Conflict, match="nothing left to forfeit"):
        match_forfeit(match=match, team=match.away, reason="late", user=league_admin)


def test_a_judge_never_forfeits_their_own_teams_match(week3, away_team, judge):
    cat = away_team.captain.user
    cat.groups.add(*judge.groups.all())
    assert not can(cat, Action.RECORD_FORFEIT, week3)


def test_the_forfeit_is_on_the_record(played_season, week3, other_team, league_admin):
    match_forfeit(match=week3, team=other_team, reason="No show", user=league_admin)
    actions = list(
        AuditEntry.objects.filter(action="forfeit_record").values_list("object_type", "reason")
    )
    assert ("Forfeit", "No show") in actions
    assert actions.count(("Game", "No show")) == 3


def test_a_change_of_the_rules_rescores_forfeited_games_at_the_new_points(
    played_season, week3, other_team, league_admin
):
    from league.services.games import game_rescore

    match_forfeit(match=week3, team=other_team, reason="No show", user=league_admin)
    played_season.points_per_win = 2
    played_season.save()
    for game in week3.games.all():
        game_rescore(game=game)
    assert list(week3.games.values_list("home_points", "away_points")) == [(2, 0)] * 3
    assert all(g.winner_id == week3.home_id for g in week3.games.all())


def test_the_organiser_changes_what_a_forfeit_is_worth_and_standings_follow(
    played_season, week3, other_team, league_admin, ann
):
    from league.services.season_ops import season_ops_update

    match_forfeit(match=week3, team=other_team, reason="No show", user=league_admin)
    with pytest.raises(NotAllowed):
        season_ops_update(season=played_season, user=ann, changes={"forfeit_points": 2})
    with pytest.raises(ValidationFailed, match="whole number"):
        season_ops_update(season=played_season, user=league_admin, changes={"forfeit_points": -1})
    season_ops_update(
        season=played_season,
        user=league_admin,
        changes={"forfeit_points": 2, "forfeit_wins_week": False},
    )
    # Nobs: 1 + 3 x 2 points; the forfeit no longer wins the week.
    assert table(played_season)["Nobs"] == (4, 2, 7, 0, -30)
    entry = AuditEntry.objects.filter(action="season_update").latest("pk")
    assert entry.after == {"forfeit_points": 2, "forfeit_wins_week": False}


def test_the_admin_records_a_forfeit_through_the_service_and_a_judge_undoes_it_there(
    client, played_season, week3, other_team, league_admin, judge, ann
):
    league_admin.is_staff = judge.is_staff = True
    league_admin.save()
    judge.save()
    client.force_login(league_admin)
    blank = client.post(
        "/admin/league/forfeit/add/", {"match": week3.pk, "team": other_team.pk, "reason": ""}
    )
    assert blank.status_code == 200 and not Forfeit.objects.exists()
    added = client.post(
        "/admin/league/forfeit/add/",
        {"match": week3.pk, "team": other_team.pk, "reason": "No show"},
    )
    assert added.status_code == 302
    forfeit = Forfeit.objects.get()
    assert forfeit.recorded_by == league_admin and week3.games.count() == 3
    # A league admin may not undo it (the action is a judge's); a judge may, with a reason.
    body = {"action": "undo_forfeits", "_selected_action": [forfeit.pk], "reason": "Mistake"}
    client.post("/admin/league/forfeit/", body)
    forfeit.refresh_from_db()
    assert forfeit.is_standing
    client.force_login(judge)
    client.post("/admin/league/forfeit/", body)
    forfeit.refresh_from_db()
    assert not forfeit.is_standing and forfeit.undo_reason == "Mistake"
    assert table(played_season) == BEFORE
