"""Results that close: a finished game nobody confirmed or disputed within the season's grace
period is confirmed by the league, said so in its history, and counted; a disputed game, a
game whose teams disagree on a deal, and a season that closes nothing are left alone; the
reminder's selector lists what will close soon; beat and cron run the same service."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from league.models import Game, GameStatus
from league.selectors.closing import closes_at, games_closing_soon, games_due_to_close
from league.selectors.history import game_history
from league.selectors.standings import compute_standings
from league.services.closing import results_close
from league.services.deals import deal_record
from league.services.disputes import dispute_raise
from league.services.games import game_confirm
from league.tasks import close_unconfirmed_results
from tests.factories import plain_deal, play_until_over

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def waiting(game, ann):
    """Game 1 finished by Fifteen Two's entries, waiting for Nobs to confirm, finished 10 h ago."""
    play_until_over(game, ann)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - 10 * HOUR)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def points(season):
    rows = compute_standings(season)["standings"]
    return {r["team"]: (r["won"], r["points"]) for r in rows}


def test_a_game_nobody_confirmed_closes_after_the_grace_period(waiting, season):
    now = timezone.now()
    assert closes_at(waiting) == waiting.finished_at + 72 * HOUR
    assert results_close(now=now) == []  # 10 h of 72
    assert points(season)["Fifteen Two"] == (0, 0)
    later = waiting.finished_at + 72 * HOUR
    assert results_close(now=later) == [waiting.pk]
    waiting.refresh_from_db()
    assert waiting.status == GameStatus.CONFIRMED
    assert waiting.confirmed_by is None  # the league, not a person
    assert game_history(waiting)[-1]["text"] == (
        "Closed by the league: nobody confirmed or disputed it within 72 hours."
    )
    assert points(season)["Fifteen Two"][0] + points(season)["Nobs"][0] == 1
    assert results_close(now=later + HOUR) == []  # run again: nothing more to do


def test_the_reminder_lists_the_games_that_close_soon(waiting, season):
    now = waiting.finished_at + 60 * HOUR
    soon = games_closing_soon(within=24 * HOUR, now=now)
    assert [(row.game.pk, row.closes_at) for row in soon] == [
        (waiting.pk, waiting.finished_at + 72 * HOUR)
    ]
    assert games_closing_soon(within=6 * HOUR, now=now) == []
    assert games_due_to_close(now=now) == []


def test_a_disputed_game_is_never_closed(waiting, cat):
    dispute_raise(game=waiting, user=cat, claim="Deal 2: our crib was 6", deal_number=2)
    assert results_close(now=timezone.now() + 1000 * HOUR) == []
    waiting.refresh_from_db()
    assert waiting.status == GameStatus.DISPUTED


def test_a_game_whose_teams_disagree_on_a_deal_is_never_closed(waiting, cat):
    deal_record(game=waiting, user=cat, number=1, data=plain_deal(0, crib=6))
    waiting.refresh_from_db()
    assert waiting.away_rival == 1
    assert closes_at(waiting) is None
    assert results_close(now=timezone.now() + 1000 * HOUR) == []


def test_a_season_that_closes_nothing_keeps_its_games_waiting(waiting, season):
    season.close_after_hours = None
    season.save()
    waiting.refresh_from_db()
    assert closes_at(waiting) is None
    assert results_close(now=timezone.now() + 10000 * HOUR) == []


def test_a_game_confirmed_meanwhile_is_not_closed_again(waiting, cat):
    due = games_due_to_close(now=timezone.now() + 100 * HOUR)
    assert [g.pk for g in due] == [waiting.pk]
    game_confirm(game=waiting, user=cat)
    from league.kernel.permissions import Trusted
    from league.services.games import game_close

    assert game_close(game=due[0], user=Trusted(None, "test"), now=timezone.now()) is None
    waiting.refresh_from_db()
    assert waiting.confirmed_by == cat


def test_beat_and_cron_close_the_same_way(waiting, capsys):
    Game.objects.filter(pk=waiting.pk).update(finished_at=timezone.now() - 73 * HOUR)
    call_command("close_unconfirmed_results")
    assert "1 game(s) closed by the league." in capsys.readouterr().out
    assert close_unconfirmed_results() == 0


def test_the_api_says_when_a_game_closes(waiting, ann):
    from rest_framework.test import APIClient

    body = APIClient().get(f"/api/games/{waiting.pk}/").json()
    assert body["closes_at"] is not None
    at = dt.datetime.fromisoformat(body["closes_at"].replace("Z", "+00:00"))
    assert abs(at - (waiting.finished_at + 72 * HOUR)) < dt.timedelta(seconds=1)


def test_beat_runs_the_closing(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["close-unconfirmed-results"]
    assert entry["task"] == "league.tasks.close_unconfirmed_results"
