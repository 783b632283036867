"""Postponements: a captain asks, the other captain accepts or declines, or the organiser
decides; the match keeps its week and gets its own date, within the make-up deadline (never in
the season's last two weeks); the organiser moves or cancels a whole night in one action. A
refusal changes nothing, and dates move no standings."""

from __future__ import annotations

import datetime as dt

import pytest

from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.kernel.permissions import Action, can
from league.models import AuditEntry, Match, Postponement, PostponementStatus, Week
from league.services.games import game_start
from league.services.postponements import (
    match_postpone,
    postponement_answer,
    postponement_ask,
    week_cancel,
    week_move,
)

SEATS = ["Ann", "Cat", "Bob", "Dan"]
THURSDAY = dt.date(2026, 9, 3)


@pytest.fixture
def six_weeks(season):
    """Six Thursdays from 3 September 2026."""
    return [
        Week.objects.create(season=season, number=n, date=THURSDAY + dt.timedelta(weeks=n - 1))
        for n in range(1, 7)
    ]


@pytest.fixture
def tonight(six_weeks, home_team, away_team):
    """Fifteen Two v Nobs in week 2 (10 September)."""
    return Match.objects.create(week=six_weeks[1], home=home_team, away=away_team)


def test_a_captain_asks_the_other_accepts_and_the_match_keeps_its_week(tonight, ann, cat):
    asked = postponement_ask(
        match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="Bob is away"
    )
    assert asked.status == PostponementStatus.ASKED and asked.team == tonight.home
    tonight.refresh_from_db()
    assert tonight.date is None  # not until the other team accepts
    with pytest.raises(NotAllowed, match="other team"):
        postponement_answer(postponement=asked, user=ann, accept=True)  # not her own
    postponement_answer(postponement=asked, user=cat, accept=True)
    tonight.refresh_from_db()
    assert tonight.date == dt.date(2026, 9, 15) and tonight.week.number == 2
    assert tonight.is_postponed
    assert Week.objects.filter(season=tonight.week.season).count() == 6  # no week invented
    with pytest.raises(Conflict, match="already been answered"):
        postponement_answer(postponement=asked, user=cat, accept=False)


def test_a_declined_postponement_leaves_the_match_on_its_night(tonight, ann, cat):
    asked = postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="Away")
    postponement_answer(postponement=asked, user=cat, accept=False)
    tonight.refresh_from_db()
    assert tonight.date is None
    assert Postponement.objects.get().status == PostponementStatus.DECLINED


def test_the_make_up_deadline_is_enforced_and_said(tonight, ann):
    # Week 2 is 10 September: 14 days gives 24 September.
    with pytest.raises(ValidationFailed, match=r"by Sept\. 24, 2026 at the latest") as refused:
        postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 25), reason="Away")
    assert refused.value.field == "date"
    assert not Postponement.objects.exists()
    assert postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 24), reason="Away")


def test_never_in_the_last_two_weeks(six_weeks, home_team, away_team, ann, league_admin):
    # Week 4 (24 September) + 14 days reaches week 6; the last two weeks start 1 October.
    match = Match.objects.create(week=six_weeks[3], home=home_team, away=away_team)
    with pytest.raises(ValidationFailed, match=r"Sept\. 30, 2026"):
        postponement_ask(match=match, user=ann, date=dt.date(2026, 10, 1), reason="Away")
    late = Match.objects.create(week=six_weeks[4], home=home_team, away=away_team, table=2)
    with pytest.raises(Conflict, match="No make-up dates in the last two weeks: ask the organiser"):
        postponement_ask(match=late, user=ann, date=dt.date(2026, 10, 2), reason="Away")
    with pytest.raises(Conflict, match="last two weeks"):
        match_postpone(match=late, user=league_admin, date=dt.date(2026, 10, 2), reason="Rain")


def test_who_may_ask_and_when_it_is_too_late(tonight, ann, eve, league_admin):
    with pytest.raises(NotAllowed, match="Only the players of these two teams"):
        postponement_ask(match=tonight, user=eve, date=dt.date(2026, 9, 15), reason="Hm")
    with pytest.raises(ValidationFailed, match="Say why"):
        postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason=" ")
    postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="Away")
    with pytest.raises(Conflict, match="already asked"):
        postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 16), reason="Away")
    game_start(match=tonight, user=ann, seats=SEATS)
    assert not can(league_admin, Action.POSTPONE_MATCH, Match.objects.get(pk=tonight.pk))
    with pytest.raises(Conflict, match="has been played"):
        match_postpone(match=tonight, user=league_admin, date=dt.date(2026, 9, 15), reason="x")


def test_a_league_admin_who_plays_asks_once_like_the_other_players(tonight, ann, cat):
    """Found by the lifecycle machine: a league admin of the home team asked a second time
    while the first request waited, and the database's one-open-request rule raised (a server
    error at the API)."""
    from django.contrib.auth.models import Group

    from league.kernel.permissions import LEAGUE_ADMINS

    ann.groups.add(Group.objects.get_or_create(name=LEAGUE_ADMINS)[0])
    asked = postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="Away")
    with pytest.raises(Conflict, match="already asked"):
        postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 16), reason="Again")
    assert list(Postponement.objects.values_list("pk", "status")) == [
        (asked.pk, PostponementStatus.ASKED)
    ]
    postponement_answer(postponement=asked, user=cat, accept=True)  # the request still stands
    tonight.refresh_from_db()
    assert tonight.date == dt.date(2026, 9, 15)


def test_the_organiser_decides_and_settles_a_request(tonight, ann, cat, league_admin):
    asked = postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="Away")
    with pytest.raises(NotAllowed):
        match_postpone(match=tonight, user=cat, date=dt.date(2026, 9, 16), reason="Mine")
    match_postpone(match=tonight, user=league_admin, date=dt.date(2026, 9, 16), reason="Both ok")
    tonight.refresh_from_db()
    asked.refresh_from_db()
    assert tonight.date == dt.date(2026, 9, 16)
    assert asked.status == PostponementStatus.WITHDRAWN
    # Back on its night: the week's date clears the match's own.
    match_postpone(match=tonight, user=league_admin, date=dt.date(2026, 9, 10), reason="Back")
    tonight.refresh_from_db()
    assert tonight.date is None and not tonight.is_postponed
    assert AuditEntry.objects.filter(action="match_postpone").count() == 2


def test_the_whole_night_moves_in_one_action(six_weeks, tonight, other_team, league_admin, ann):
    other = Match.objects.create(week=six_weeks[1], home=other_team, away=tonight.home, table=2)
    week = six_weeks[1]
    with pytest.raises(NotAllowed):
        week_move(week=week, user=ann, date=dt.date(2026, 9, 11), reason="Snow")
    with pytest.raises(ValidationFailed, match="Week 3 is already on"):
        week_move(week=week, user=league_admin, date=dt.date(2026, 9, 17), reason="Snow")
    week_move(week=week, user=league_admin, date=dt.date(2026, 9, 11), reason="Snow")
    tonight.refresh_from_db()
    assert tonight.when == dt.date(2026, 9, 11)
    other.refresh_from_db()
    assert other.when == dt.date(2026, 9, 11)
    entry = AuditEntry.objects.get(action="night_move")
    assert (entry.before, entry.after, entry.reason) == (
        {"date": "2026-09-10"},
        {"date": "2026-09-11"},
        "Snow",
    )


def test_a_cancelled_night_stays_in_the_schedule_and_starts_no_game(
    six_weeks, tonight, league_admin, ann
):
    week = six_weeks[1]
    with pytest.raises(ValidationFailed, match="Say why"):
        week_cancel(week=week, user=league_admin, reason="")
    week_cancel(week=week, user=league_admin, reason="The bar is closed")
    week.refresh_from_db()
    assert week.cancelled_reason == "The bar is closed"
    with pytest.raises(Conflict, match="This night is cancelled"):
        game_start(match=Match.objects.get(pk=tonight.pk), user=ann, seats=SEATS)
    with pytest.raises(Conflict, match="This night is cancelled"):
        postponement_ask(match=tonight, user=ann, date=dt.date(2026, 9, 15), reason="x")
    # Moved to a new date, the night is on again.
    week_move(week=week, user=league_admin, date=dt.date(2026, 9, 12), reason="Reopened")
    assert game_start(match=Match.objects.get(pk=tonight.pk), user=ann, seats=SEATS)


def test_a_night_with_a_game_played_neither_moves_nor_is_cancelled(
    six_weeks, tonight, league_admin, ann
):
    game_start(match=tonight, user=ann, seats=SEATS)
    with pytest.raises(Conflict, match="has been played"):
        week_move(week=six_weeks[1], user=league_admin, date=dt.date(2026, 9, 11), reason="x")
    with pytest.raises(Conflict, match="has been played"):
        week_cancel(week=six_weeks[1], user=league_admin, reason="x")
