"""A season's life: draft -> published -> running (by date) -> finished, moved only by the
services of league/services/seasons.py, each move on record, each refusal in words."""

from __future__ import annotations

import datetime as dt

import pytest

from league.kernel.audit import AuditAction
from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.models import AuditEntry, Season, SeasonState
from league.services.rules import season_create
from league.services.season_life import (
    season_finish,
    season_finish_if_over,
    season_publish,
    season_reopen,
    season_unpublish,
)
from league.services.seasons import schedule_create, team_create
from tests import factories

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 6)


def _ready_draft(league, user, *, name="Spring 2027", start=dt.date(2027, 3, 4)) -> Season:
    """A draft with four teams and a schedule from ``start``."""
    season = season_create(league=league, user=user, name=name)
    for i in range(4):
        players = [factories.PlayerFactory(name=f"{name} P{i}{j}") for j in range(2)]
        team_create(season=season, user=user, name=f"{name} T{i}", players=players)
    schedule_create(season=season, user=user, start_date=start)
    season.refresh_from_db()
    return season


def _actions(season: Season) -> list[str]:
    return list(
        AuditEntry.objects.filter(season=season, action__startswith="season_")
        .order_by("pk")
        .values_list("action", flat=True)
    )


def test_a_new_season_is_a_draft_and_leaves_the_running_one_running(
    league, season, league_admin, match
):
    running_before = list(Season.objects.running(TODAY))
    assert running_before == [season]
    draft = season_create(league=league, user=league_admin, name="Spring 2027")
    assert draft.state == SeasonState.DRAFT
    assert draft.state_on(TODAY) is SeasonState.DRAFT
    assert list(Season.objects.running(TODAY)) == [season]
    assert draft not in Season.objects.public()


def test_publishing_makes_it_next_season_then_running_from_its_first_night(league, league_admin):
    draft = _ready_draft(league, league_admin, start=dt.date(2027, 3, 4))
    season = season_publish(season=draft, user=league_admin)
    assert season.state == SeasonState.PUBLISHED
    fresh = Season.objects.get(pk=season.pk)
    assert fresh.state_on(TODAY) is SeasonState.PUBLISHED  # next season: not yet begun
    assert list(Season.objects.upcoming(TODAY)) == [fresh]
    first = fresh.first_night()
    assert first is not None and first >= dt.date(2027, 3, 4)
    assert fresh.state_on(first) is SeasonState.RUNNING
    assert fresh.state_on(first - dt.timedelta(days=1)) is SeasonState.PUBLISHED
    assert list(Season.objects.running(first)) == [fresh]
    assert _actions(season)[-1] == AuditAction.SEASON_PUBLISH


def test_a_season_without_teams_or_schedule_cannot_be_published(league, league_admin):
    empty = season_create(league=league, user=league_admin, name="Empty")
    with pytest.raises(ValidationFailed, match="no teams yet"):
        season_publish(season=empty, user=league_admin)
    for i in range(2):
        players = [factories.PlayerFactory(name=f"E{i}{j}") for j in range(2)]
        team_create(season=empty, user=league_admin, name=f"E{i}", players=players)
    with pytest.raises(ValidationFailed, match="no schedule yet: make the schedule"):
        season_publish(season=empty, user=league_admin)
    empty.refresh_from_db()
    assert empty.state == SeasonState.DRAFT
    assert _actions(empty) == [AuditAction.SEASON_CREATE]


def test_only_a_league_admin_moves_a_season(league, league_admin, ann):
    draft = _ready_draft(league, league_admin)
    with pytest.raises(NotAllowed):
        season_publish(season=draft, user=ann)
    season_publish(season=draft, user=league_admin)
    for move in (
        lambda: season_unpublish(season=draft, user=ann),
        lambda: season_finish(season=draft, user=ann, reason="closing"),
    ):
        with pytest.raises(NotAllowed):
            move()
    draft.refresh_from_db()
    assert draft.state == SeasonState.PUBLISHED


def test_back_to_draft_only_before_any_game(season, league_admin, match, game):
    with pytest.raises(Conflict, match="has games on record"):
        season_unpublish(season=season, user=league_admin)
    season.refresh_from_db()
    assert season.state == SeasonState.PUBLISHED


def test_a_published_season_without_games_goes_back_to_draft(league, league_admin):
    season = season_publish(season=_ready_draft(league, league_admin), user=league_admin)
    season_unpublish(season=season, user=league_admin)
    season.refresh_from_db()
    assert season.state == SeasonState.DRAFT
    assert _actions(season)[-2:] == [AuditAction.SEASON_PUBLISH, AuditAction.SEASON_UNPUBLISH]


def test_finishing_early_needs_a_reason_and_keeps_it_on_record(season, league_admin):
    with pytest.raises(ValidationFailed, match="Say why"):
        season_finish(season=season, user=league_admin, reason="  ")
    season.refresh_from_db()
    assert season.state == SeasonState.PUBLISHED
    season_finish(season=season, user=league_admin, reason="The Crooked Peg closed")
    season.refresh_from_db()
    assert season.state_on(TODAY) is SeasonState.FINISHED
    assert season.finished_reason == "The Crooked Peg closed"
    entry = AuditEntry.objects.filter(action=AuditAction.SEASON_FINISH).get()
    assert entry.reason == "The Crooked Peg closed"
    assert entry.after == {"state": "finished"}
    with pytest.raises(Conflict, match="already finished"):
        season_finish(season=season, user=league_admin, reason="again")


def test_a_finished_season_reopens_with_a_reason(season, league_admin):
    season_finish(season=season, user=league_admin, reason="by mistake")
    with pytest.raises(ValidationFailed, match="Say why"):
        season_reopen(season=season, user=league_admin, reason="")
    season_reopen(season=season, user=league_admin, reason="week 7 still to play")
    season.refresh_from_db()
    assert season.state == SeasonState.PUBLISHED and season.finished_reason == ""
    with pytest.raises(Conflict, match="is not finished"):
        season_reopen(season=season, user=league_admin, reason="again")


def test_a_draft_cannot_be_finished_or_published_twice(league, league_admin):
    draft = _ready_draft(league, league_admin)
    with pytest.raises(Conflict, match="is a draft"):
        season_finish(season=draft, user=league_admin, reason="never mind")
    season_publish(season=draft, user=league_admin)
    with pytest.raises(Conflict, match="already published"):
        season_publish(season=draft, user=league_admin)


def test_the_season_finishes_by_itself_after_its_last_match(season, home_team, away_team):
    season.playoff_teams = 0
    season.save()
    week = factories.WeekFactory(season=season, number=1)
    match = factories.MatchFactory(week=week, home=home_team, away=away_team)
    factories.confirmed_game(match, 1, home_team, 10)
    factories.confirmed_game(match, 2, away_team, 10)
    assert not season_finish_if_over(season_id=season.pk)  # game 3 still to play
    factories.confirmed_game(match, 3, home_team, 10)
    assert season_finish_if_over(season_id=season.pk)
    season.refresh_from_db()
    assert season.state == SeasonState.FINISHED and season.finished_reason == ""
    assert not season_finish_if_over(season_id=season.pk)  # safe to run twice
    assert AuditEntry.objects.filter(action=AuditAction.SEASON_FINISH).count() == 1


def test_a_season_with_playoffs_waits_for_its_final(played_season):
    """Every regular match is confirmed, but the playoffs are not even drawn."""
    assert played_season.playoff_teams == 4
    assert not season_finish_if_over(season_id=played_season.pk)
    played_season.refresh_from_db()
    assert played_season.state == SeasonState.PUBLISHED


def test_the_recompute_finishes_a_season_whose_last_result_came_in(
    season, home_team, away_team, ann, cat, django_capture_on_commit_callbacks
):
    """Through the real path: the last game confirmed -> results_changed -> the task."""
    from league.services.games import game_confirm, game_start

    season.playoff_teams = 0
    season.games_per_match = 1
    season.save()
    week = factories.WeekFactory(season=season, number=1)
    match = factories.MatchFactory(week=week, home=home_team, away=away_team)
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    factories.play_until_over(game, ann)
    season.refresh_from_db()
    assert season.state == SeasonState.PUBLISHED  # finished, not yet confirmed
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=game, user=cat)
    season.refresh_from_db()
    assert season.state == SeasonState.FINISHED
