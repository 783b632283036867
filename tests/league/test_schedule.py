"""The round-robin schedule: every pair meets once a cycle, byes for odd counts, fair home/away."""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import Match, Week
from league.services.seasons import round_robin, schedule_create
from tests import factories


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_meets_once_and_home_and_away_are_balanced(n):
    rounds = round_robin(n)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    assert len(rounds) == (n if n % 2 else n - 1)
    for r in rounds:  # nobody plays twice in a week; with an odd count one team sits out
        teams = [t for p in r for t in p]
        assert len(teams) == len(set(teams)) == n - n % 2
    home = Counter(h for r in rounds for h, _ in r)
    for team in range(n):
        assert abs(2 * home[team] - (n - 1)) <= 1


def test_a_league_admin_makes_two_cycles_and_the_second_swaps_home(season, league_admin):
    teams = [factories.TeamFactory(season=season) for _ in range(5)]
    weeks = schedule_create(season=season, user=league_admin, cycles=2)
    assert len(weeks) == 10
    first = {(m.home_id, m.away_id) for m in Match.objects.filter(week__number__lte=5)}
    second = {(m.home_id, m.away_id) for m in Match.objects.filter(week__number__gt=5)}
    assert {(a, h) for h, a in first} == second
    assert len(teams) == 5


def test_a_captain_cannot_make_the_schedule_and_nothing_is_stored(season, ann):
    factories.TeamFactory(season=season)
    with pytest.raises(NotAllowed):
        schedule_create(season=season, user=ann)
    assert Week.objects.count() == 0


def test_a_season_is_scheduled_only_once(season, league_admin):
    factories.TeamFactory(season=season)
    factories.TeamFactory(season=season)
    schedule_create(season=season, user=league_admin)
    with pytest.raises(ValidationFailed):
        schedule_create(season=season, user=league_admin)
    assert Week.objects.count() == 1


def test_the_command_schedules_a_season(season):
    for _ in range(4):
        factories.TeamFactory(season=season)
    out = StringIO()
    call_command("make_schedule", season.name, "--start", "2026-09-03", stdout=out)
    assert "3 weeks, 6 matches" in out.getvalue()
    assert str(Week.objects.get(number=2).date) == "2026-09-10"
    with pytest.raises(CommandError):
        call_command("make_schedule", season.name)
