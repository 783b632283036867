"""Who is coming: a player answers in, out or maybe for a night, from the home page, the match
page, a signed link (no sign-in) or the API; the captain and the organiser see the answers."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.models import Availability, SeasonState
from league.services.availability import (
    availability_answer,
    availability_answer_by_link,
    availability_link,
    availability_token,
)
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def next_night(match):
    """The match's night is next week."""
    week = match.week
    week.date = timezone.localdate() + dt.timedelta(days=7)
    week.save()
    return week


def _answers(week) -> dict[str, str]:
    return dict(Availability.objects.filter(week=week).values_list("player__name", "answer"))


def test_a_player_answers_for_herself_and_the_last_answer_counts(next_night, ann):
    player = ann.player
    availability_answer(user=ann, player=player, week=next_night, answer="maybe")
    availability_answer(user=ann, player=player, week=next_night, answer="in")
    assert _answers(next_night) == {"Ann": "in"}


def test_a_captain_answers_for_a_teammate_but_not_for_the_other_team(next_night, ann, away_team):
    bob = next_night.matches.get().home.players.get(name="Bob")
    availability_answer(user=ann, player=bob, week=next_night, answer="out")
    dan = away_team.players.get(name="Dan")
    with pytest.raises(NotAllowed, match="Only Dan, their captain or an organiser"):
        availability_answer(user=ann, player=dan, week=next_night, answer="in")
    assert _answers(next_night) == {"Bob": "out"}


def test_a_teammate_cannot_answer_for_the_captain(next_night, home_team):
    bob = home_team.players.get(name="Bob")
    with pytest.raises(NotAllowed):
        availability_answer(user=bob.user, player=home_team.captain, week=next_night, answer="in")


def test_refusals_change_nothing(next_night, ann, league_admin, season, other_team):
    player = ann.player
    with pytest.raises(ValidationFailed, match="Answer in, out or maybe"):
        availability_answer(user=ann, player=player, week=next_night, answer="yes")
    past = factories.WeekFactory(
        season=season, number=9, date=timezone.localdate() - dt.timedelta(days=1)
    )
    with pytest.raises(Conflict, match="That night has passed"):
        availability_answer(user=ann, player=player, week=past, answer="in")
    stranger = factories.PlayerFactory(name="Stranger")
    with pytest.raises(ValidationFailed, match="plays on no team"):
        availability_answer(user=league_admin, player=stranger, week=next_night, answer="in")
    season.state = SeasonState.FINISHED
    season.save()
    with pytest.raises(Conflict, match="is not open"):
        availability_answer(user=ann, player=player, week=next_night, answer="in")
    assert Availability.objects.count() == 0


def test_a_signed_link_answers_for_its_player_without_signing_in(client, next_night, ann):
    player = ann.player
    url = availability_link(player=player, week=next_night)
    page = client.get(url)  # a mail scanner opening the link changes nothing
    assert page.status_code == 200 and Availability.objects.count() == 0
    body = page.content.decode()
    assert "Ann, are you coming?" in body and "Fifteen Two v Nobs" in body
    response = client.post(url, {"answer": "out"}, follow=True)
    assert "You are out that night" in response.content.decode()
    assert _answers(next_night) == {"Ann": "out"}
    assert "Your answer: out." in client.get(url).content.decode()


def test_an_altered_link_is_refused_in_words(client, next_night, ann):
    token = availability_token(player=ann.player, week=next_night)
    response = client.post(
        reverse("league:availability_link", args=[token[:-2] + "xx"]), {"answer": "in"}
    )
    assert response.status_code == 400
    assert "This link does not work any more" in response.content.decode()
    with pytest.raises(ValidationFailed):
        availability_answer_by_link(token="nonsense", answer="in")
    assert Availability.objects.count() == 0


def test_one_tap_from_the_home_page(client, next_night, ann):
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert "Are you coming?" in home
    action = reverse("league:availability_answer", args=[next_night.pk])
    assert f'action="{action}"' in home
    response = client.post(action, {"answer": "in", "next": "/"}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    body = response.content.decode()
    assert "You are in for that night." in body
    assert re.search(r'value="in" class="button button--primary" aria-pressed="true"', body)


def test_the_match_page_shows_who_is_coming_to_its_players_only(
    client, next_night, ann, cat, eve, league_admin
):
    match = next_night.matches.get()
    availability_answer(user=ann, player=ann.player, week=next_night, answer="in")
    availability_answer(user=cat, player=cat.player, week=next_night, answer="out")
    url = reverse("league:match", args=[match.pk])
    assert "Who is coming" not in client.get(url).content.decode()  # a visitor
    client.force_login(eve)  # a third team's captain
    assert "Who is coming" not in client.get(url).content.decode()
    for who in (ann, league_admin):
        client.force_login(who)
        text = re.sub(r"<[^>]+>", " ", client.get(url).content.decode())
        text = re.sub(r"\s+", " ", text)
        assert "Who is coming" in text
        assert "Ann in" in text and "Cat out" in text and "Bob no answer" in text


def test_the_organiser_sees_who_is_coming_to_the_next_night(
    client, next_night, ann, league_admin, season
):
    availability_answer(user=ann, player=ann.player, week=next_night, answer="maybe")
    client.force_login(league_admin)
    page = client.get(reverse("league:organise_season", args=[season.pk])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Who is coming: week 1" in text and "Ann maybe" in text


def test_the_api_door(client, next_night, ann, eve, league_admin):
    from rest_framework.test import APIClient

    api = APIClient()
    match = next_night.matches.get()
    url = f"/api/matches/{match.pk}/availability/"
    api.force_authenticate(ann)
    answer = api.post(url, {"answer": "in"}, format="json")
    assert answer.status_code == 200 and answer.json()["answer"] == "in"
    bob = match.home.players.get(name="Bob")
    assert api.post(url, {"answer": "out", "player": bob.pk}, format="json").status_code == 200
    refused = api.post(url, {"answer": "sometimes"}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "answer"
    rows = {r["player_name"]: r["answer"] for r in api.get(url).json()}
    assert rows == {"Ann": "in", "Bob": "out", "Cat": "", "Dan": ""}
    api.force_authenticate(eve)
    assert api.get(url).status_code == 403
    assert api.post(url, {"answer": "in"}, format="json").status_code == 403
    api.force_authenticate(league_admin)
    dan = match.away.players.get(name="Dan")
    assert api.post(url, {"answer": "maybe", "player": dan.pk}, format="json").status_code == 200
    assert _answers(next_night) == {"Ann": "in", "Bob": "out", "Dan": "maybe"}


def test_the_home_page_asks_in_the_same_queries_however_many_nights(
    client, next_night, ann, season, home_team, away_team, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(ann)
    with CaptureQueriesContext(connection) as few:
        client.get("/")
    for n in range(2, 14):
        week = factories.WeekFactory(
            season=season, number=n, date=next_night.date + dt.timedelta(days=7 * n)
        )
        factories.MatchFactory(week=week, home=home_team, away=away_team)
        availability_answer(user=ann, player=ann.player, week=week, answer="maybe")
    with django_assert_max_num_queries(len(few.captured_queries)):
        body = client.get("/").content.decode()
    assert body.count('class="night-row"') == 2  # the next two nights of the season


def test_the_home_page_shows_a_player_who_of_the_team_is_coming(client, next_night, ann, home_team):
    bob = home_team.players.get(name="Bob")
    availability_answer(user=bob.user, player=bob, week=next_night, answer="out")
    client.force_login(ann)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get("/").content.decode()))
    assert "Your team: Ann no answer · Bob out" in text
