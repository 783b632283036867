"""A postponement is told at once: the other team hears it by mail, finds it on its home page
with Accept / Decline one tap away and a time to answer, after which the organiser decides; and
where a match cannot move, its players read why ("No make-up dates in the last two weeks: ask
the organiser") instead of a missing button. In French too."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from league.models import Match, Postponement, PostponementStatus, Week
from league.services.postponements import postponement_ask

SIX = 6


@pytest.fixture
def season_of_six(season, home_team, away_team):
    """Six Thursdays from next week; Fifteen Two v Nobs in week 1 and in week 5."""
    for team in (home_team, away_team):
        for player in team.players.all():
            player.user.email = f"{player.user.username}@example.com"
            player.user.save()
    first = timezone.localdate() + timedelta(days=7)
    weeks = [
        Week.objects.create(season=season, number=n, date=first + timedelta(weeks=n - 1))
        for n in range(1, SIX + 1)
    ]
    return {
        "early": Match.objects.create(week=weeks[0], home=home_team, away=away_team),
        "late": Match.objects.create(week=weeks[4], home=home_team, away=away_team),
    }


def _ask(match, user, days=3):
    return postponement_ask(
        match=match, user=user, date=match.week.date + timedelta(days=days), reason="Bob is away"
    )


def test_the_other_captain_is_mailed_the_request_at_once(
    season_of_six, ann, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _ask(season_of_six["early"], ann)
    assert sorted(m.to[0] for m in mail.outbox) == ["cat@example.com", "dan@example.com"]
    told = mail.outbox[0]
    assert "Fifteen Two ask to move your match to" in told.subject
    assert "Why: Bob is away" in told.body and "after that the organiser decides" in told.body


def test_the_other_captain_accepts_from_the_home_page_in_one_tap(client, season_of_six, ann, cat):
    asked = _ask(season_of_six["early"], ann)
    client.force_login(cat)
    home = client.get("/").content.decode()
    assert "Asked to move a match" in home and "Fifteen Two ask to play on" in home
    assert "after that the organiser decides" in home
    answered = client.post(
        reverse("league:postponement_answer", args=[asked.pk]), {"answer": "accept", "next": "/"}
    )
    assert answered.url == "/"  # back on the home page
    asked.refresh_from_db()
    assert asked.status == PostponementStatus.ACCEPTED
    assert "Asked to move a match" not in client.get("/").content.decode()


def test_the_team_that_asked_is_not_offered_to_answer_its_own_request(client, season_of_six, ann):
    _ask(season_of_six["early"], ann)
    client.force_login(ann)
    assert "Asked to move a match" not in client.get("/").content.decode()


def test_after_two_days_unanswered_the_organiser_decides(client, season_of_six, ann, cat):
    asked = _ask(season_of_six["early"], ann)
    Postponement.objects.filter(pk=asked.pk).update(
        created_at=timezone.now() - dt.timedelta(hours=49)
    )
    client.force_login(cat)
    assert "Asked to move a match" not in client.get("/").content.decode()
    page = client.get(reverse("league:match", args=[asked.match_id])).content.decode()
    assert "the organiser decides now" in page and 'value="accept"' not in page
    client.post(reverse("league:postponement_answer", args=[asked.pk]), {"answer": "accept"})
    asked.refresh_from_db()
    assert asked.status == PostponementStatus.ASKED  # still the organiser's to decide


def test_in_the_last_two_weeks_the_captain_reads_why_there_is_no_button(client, season_of_six, ann):
    client.force_login(ann)
    page = client.get(reverse("league:match", args=[season_of_six["late"].pk])).content.decode()
    assert "Ask to postpone" not in page
    assert "No make-up dates in the last two weeks: ask the organiser." in page


def test_the_request_and_the_refusal_read_in_french(client, season_of_six, ann, cat):
    _ask(season_of_six["early"], ann)
    client.force_login(cat)
    client.cookies["django_language"] = "fr"
    home = client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert "On vous demande de déplacer un match" in home and "Accepter" in home
    client.force_login(ann)
    page = client.get(
        reverse("league:match", args=[season_of_six["late"].pk]), headers={"accept-language": "fr"}
    ).content.decode()
    assert "Pas de date de rattrapage dans les deux dernières semaines" in page


def test_the_home_page_links_the_game_to_confirm_and_the_players_own_pages(client, match, ann, cat):
    from league.services.games import game_start
    from tests.factories import play_until_over

    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play_until_over(game, ann)
    client.force_login(cat)
    home = client.get("/").content.decode()
    assert reverse("league:game", args=[game.pk]) + "#confirm-title" in home  # one tap
    assert reverse("league:notify_choices") in home
    assert reverse("league:notify_choices") + "#calendars" in home


def test_the_team_that_entered_the_game_is_not_asked_to_confirm_it(client, match, ann):
    from league.services.games import game_start
    from tests.factories import play_until_over

    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play_until_over(game, ann)
    client.force_login(ann)
    assert "#confirm-title" not in client.get("/").content.decode()


def test_a_request_nobody_answered_in_time_waits_on_the_organisers_page(
    client, season, season_of_six, ann, league_admin
):
    asked = _ask(season_of_six["early"], ann)
    client.force_login(league_admin)
    url = reverse("league:organise_season", args=[season.pk])
    assert "Postponements for you to decide" not in client.get(url).content.decode()
    Postponement.objects.filter(pk=asked.pk).update(
        created_at=timezone.now() - dt.timedelta(hours=49)
    )
    page = client.get(url).content.decode()
    assert "Postponements for you to decide" in page
    assert reverse("league:match", args=[asked.match_id]) in page
