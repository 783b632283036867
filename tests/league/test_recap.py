"""The week's story on a seeded season whose answers were worked by hand.

Week 1: Fifteen Two beat Nobs 2-1; His Heels had the bye. The table after it: Fifteen Two 1st
(2 points), Nobs 2nd (1), His Heels 3rd (0).
Week 2: His Heels beat Nobs 3-0 (Fifteen Two the bye). Game 1 a skunk by 35 (skunk margin 30);
game 2 His Heels came back from 20-90 after two deals (an upset: the board gave them far under
30% there); game 3 Eve (seat 0, His Heels) held 5H 5D 5C JS with the 5S cut: 29, and four of a
kind, His Heels ahead all game. The table after it: His Heels 1st (3 wins and a skunk bonus: 4
points), Fifteen Two 2nd (2), Nobs 3rd (1): His Heels up two places, the other two down one.
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from league.kernel.recap import UPSET_BELOW, recap_notes, recap_text
from league.models import (
    Deal,
    Delivery,
    GameSeat,
    GameStatus,
    Match,
    NotifyProfile,
    Player,
    Season,
    SeasonState,
    Week,
)
from league.notify_events import WEEK_STORY
from league.selectors.recap import recap_week, week_recap
from league.selectors.winprob import chance_at, win_table
from league.services.notify import notify_week_stories
from league.services.season_ops import season_ops_update
from league.tasks import recompute_standings
from scoring.variants import VARIANTS
from tests.factories import confirmed_game, play_game


def _deal(game, number, dealer, home_after, away_after, **extra):
    return Deal.objects.create(
        game=game,
        number=number,
        dealer=dealer,
        pegging=[2, 2],
        shows={},
        home_after=home_after,
        away_after=away_after,
        **extra,
    )


def _seat(game, players):
    for seat, player in enumerate(players):
        GameSeat.objects.create(game=game, seat=seat, player=player)


@pytest.fixture
def story_season(season, home_team, away_team, other_team):
    w1 = Week.objects.create(season=season, number=1)
    w2 = Week.objects.create(season=season, number=2)
    m1 = Match.objects.create(week=w1, home=home_team, away=away_team)
    confirmed_game(m1, 1, home_team, 10)
    confirmed_game(m1, 2, away_team, 10)
    confirmed_game(m1, 3, home_team, 5)
    m2 = Match.objects.create(week=w2, home=other_team, away=away_team)
    confirmed_game(m2, 1, other_team, 35, skunk=1)
    eve, fay = other_team.players.order_by("name")
    cat, dan = away_team.players.order_by("name")
    comeback = confirmed_game(m2, 2, other_team, 26)
    _seat(comeback, [eve, cat, fay, dan])
    _deal(comeback, 1, 0, 10, 30)
    _deal(comeback, 2, 1, 20, 90)
    _deal(comeback, 3, 2, 121, 95)
    big = confirmed_game(m2, 3, other_team, 40)
    _seat(big, [eve, cat, fay, dan])
    _deal(
        big,
        1,
        0,
        60,
        20,
        starter="5S",
        cards={"0": ["5H", "5D", "5C", "JS"], "1": ["2C", "4D", "6H", "8S"]},
    )
    _deal(big, 2, 1, 121, 81)
    return w2


def test_the_week_s_story_has_the_answers_worked_by_hand(story_season):
    recap = week_recap(recap_week(story_season.pk))
    [line] = recap.matches
    assert (line.home, line.away, line.home_won, line.away_won) == ("His Heels", "Nobs", 3, 0)
    assert recap.over
    [skunk] = recap.skunks
    assert (skunk.winner, skunk.loser, skunk.margin, skunk.double) == ("His Heels", "Nobs", 35, 0)
    [hand] = recap.hands
    assert (hand.player, hand.team, hand.points) == ("Eve", "His Heels", 29)
    assert hand.kinds == ("29", "four_of_a_kind")
    moves = {m.team: (m.was, m.place) for m in recap.moves}
    assert moves == {"His Heels": (3, 1), "Fifteen Two": (1, 2), "Nobs": (2, 3)}


def test_an_upset_is_the_winner_s_lowest_chance_under_thirty_percent(story_season):
    [upset] = week_recap(recap_week(story_season.pk)).upsets
    assert (upset.winner, upset.loser, upset.game, upset.deal) == ("His Heels", "Nobs", 2, 2)
    game = story_season.matches.get().games.get(number=2)
    # His Heels at 20, Nobs at 90, two deals played, seat 2 deals next: the board's figure.
    expected = chance_at(
        win_table("partnership-121", 121), VARIANTS["partnership-121"], game, 2, 20, 90
    )
    assert upset.chance == pytest.approx(expected)
    assert upset.chance < UPSET_BELOW


def test_the_first_week_moves_nobody(story_season):
    first = Week.objects.get(season=story_season.season, number=1)
    assert week_recap(recap_week(first.pk)).moves == []


def test_the_story_in_english(story_season):
    text = recap_text(week_recap(recap_week(story_season.pk)))
    assert "His Heels beat Nobs by 3 games to 0." in text
    assert "His Heels skunked Nobs, by 35 points." in text
    assert "Eve (His Heels): a 29 hand, four of a kind, 5H 5D 5C JS with 5S cut." in text
    assert "His Heels went up 2 places, to number 1." in text
    assert "Fifteen Two went down 1 place, to number 2." in text
    assert "His Heels beat Nobs in game 2 from " in text


def test_the_story_in_french(story_season):
    recap = week_recap(recap_week(story_season.pk))
    with translation.override("fr"):
        text = recap_text(recap)
    assert "His Heels bat Nobs 3 manches à 0." in text
    assert "His Heels met Nobs capot, de 35 points." in text
    assert "Eve (His Heels) : une main de 29, un carré, 5H 5D 5C JS avec 5S à la coupe." in text
    assert "His Heels gagne 2 places et passe au rang 1." in text
    assert "Fifteen Two perd 1 place et passe au rang 2." in text
    assert "beat" not in text and "skunked" not in text


def test_a_game_waiting_for_confirmation_is_not_told(story_season):
    game = story_season.matches.get().games.get(number=3)
    Deal.objects.filter(game=game).delete()
    type(game).objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    recap = week_recap(recap_week(story_season.pk))
    assert not recap.over
    assert recap.waiting == 1
    assert recap.hands == []
    assert recap.matches[0].home_won == 2


def test_the_week_s_story_reads_seven_queries(story_season, django_assert_num_queries):
    week = recap_week(story_season.pk)
    with django_assert_num_queries(6):
        week_recap(week)


# --- Sent with the notifications, where the season wants it ------------------------------------


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


@pytest.fixture
def mailed(home_team, away_team):
    for team in (home_team, away_team):
        for player in team.players.all():
            player.user.email = f"{player.user.username}@example.com"
            player.user.save()
    NotifyProfile.objects.create(player=Player.objects.get(name="Cat"), language="fr")


def _stories():
    return Delivery.objects.filter(event=WEEK_STORY.code)


def _play_the_week(match, ann, cat, committed, *, games=3):
    rng = random.Random(5)
    for number in range(1, games + 1):
        committed(play_game, match, number, rng, entering=ann, confirming=cat)


def test_the_story_goes_once_when_the_week_is_over(
    season, match, ann, cat, league_admin, mailed, committed
):
    season_ops_update(season=season, user=league_admin, changes={"send_week_story": True})
    _play_the_week(match, ann, cat, committed, games=2)
    assert not _stories().exists()  # a match of three games, two played: not over
    mail.outbox.clear()
    _play_the_week_third(match, ann, cat, committed)
    told = {m.to[0]: m for m in mail.outbox if "week 1" in m.subject or "semaine 1" in m.subject}
    assert sorted(told) == [
        "ann@example.com",
        "bob@example.com",
        "cat@example.com",
        "dan@example.com",
    ]
    recap = week_recap(recap_week(match.week.pk))
    assert recap_text(recap) in told["ann@example.com"].body
    with translation.override("fr"):
        assert recap_text(recap) in told["cat@example.com"].body
    sent = _stories().count()
    assert sent == 4
    committed(notify_week_stories, season_id=season.pk)
    committed(recompute_standings, season.pk)
    assert _stories().count() == sent


def _play_the_week_third(match, ann, cat, committed):
    committed(play_game, match, 3, random.Random(6), entering=ann, confirming=cat)


def test_no_story_is_sent_unless_the_season_wants_it(season, match, ann, cat, mailed, committed):
    assert season.send_week_story is False
    _play_the_week(match, ann, cat, committed)
    assert week_recap(recap_week(match.week.pk)).over
    assert committed(notify_week_stories, season_id=season.pk) == 0
    assert not _stories().exists()


def test_turning_it_on_sends_no_week_already_over(
    season, match, ann, cat, league_admin, mailed, committed
):
    _play_the_week(match, ann, cat, committed)
    season_ops_update(season=season, user=league_admin, changes={"send_week_story": True})
    assert committed(notify_week_stories, season_id=season.pk) == 0
    assert not _stories().exists()


# --- Its doors: the page, the API, the command -----------------------------------------------


def test_the_week_s_page_has_the_story_and_its_text_to_copy(client, story_season):
    url = reverse("league:week_recap", args=[story_season.pk])
    page = client.get(url).content.decode()
    assert "His Heels beat Nobs by 3 games to 0." in page
    assert 'id="recap-text"' in page and "data-copy" in page
    schedule = reverse("league:schedule", args=[story_season.season_id])
    assert url in client.get(f"{schedule}?week=2").content.decode()


def test_a_draft_season_s_story_is_hidden_from_visitors(client, story_season):
    Season.objects.filter(pk=story_season.season_id).update(state=SeasonState.DRAFT)
    assert client.get(reverse("league:week_recap", args=[story_season.pk])).status_code == 404


def test_the_api_says_the_story_in_the_language_asked(client, story_season):
    url = f"/api/weeks/{story_season.pk}/recap/"
    english = client.get(url).json()
    assert english["language"] == "en" and english["over"] is True
    assert english["sections"][0]["lines"] == ["His Heels beat Nobs by 3 games to 0."]
    french = client.get(url, {"lang": "fr"}).json()
    recap = week_recap(recap_week(story_season.pk))
    with translation.override("fr"):
        assert french["text"] == recap_text(recap)
    assert client.get(url, {"lang": "xx"}).status_code == 400


def test_the_command_prints_the_story(story_season):
    recap = week_recap(recap_week(story_season.pk))
    for lang in ("en", "fr"):
        out = StringIO()
        call_command("recap", "--week", str(story_season.pk), "--lang", lang, stdout=out)
        with translation.override(lang):
            assert out.getvalue() == recap_text(recap)


def test_the_organiser_turns_the_story_on_from_the_season_page(client, season, league_admin):
    client.force_login(league_admin)
    page = client.get(reverse("league:organise_season", args=[season.pk])).content.decode()
    assert 'name="send_week_story"' in page
    settings_url = reverse("league:organise_season_settings", args=[season.pk])
    client.post(settings_url, {"makeup_days": "14", "send_week_story": "on"})
    season.refresh_from_db()
    assert season.send_week_story is True and season.week_story_since is not None
    client.post(settings_url, {"makeup_days": "14"})
    season.refresh_from_db()
    assert season.send_week_story is False and season.week_story_since is None


def test_a_draft_season_s_story_is_hidden_from_the_api(client, story_season):
    Season.objects.filter(pk=story_season.season_id).update(state=SeasonState.DRAFT)
    assert client.get(f"/api/weeks/{story_season.pk}/recap/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("command", "option", "sentence"),
    [("recap", "--week", "No week has the id"), ("night_recap", "--night", "No tournament has")],
)
def test_a_story_command_with_an_id_that_is_none_says_so(command, option, sentence):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=sentence):
        call_command(command, option, "999999")
    with pytest.raises(CommandError, match="invalid choice"):
        call_command(command, option, "1", "--lang", "xx")


def test_a_forfeited_match_is_told_as_a_forfeit(season, home_team, away_team, judge):
    from league.services.forfeits import match_forfeit

    week = Week.objects.create(season=season, number=1)
    match = Match.objects.create(week=week, home=home_team, away=away_team)
    match_forfeit(match=match, team=away_team, reason="Nobody came", user=judge)
    text = recap_text(week_recap(recap_week(week.pk)))
    assert "Fifteen Two beat Nobs by 3 games to 0, by forfeit: Nobs forfeited." in text
    with translation.override("fr"):
        text = recap_text(week_recap(recap_week(week.pk)))
    assert "par forfait : forfait de Nobs" in text


def test_a_disputed_game_is_said_to_be_with_the_judge(story_season):
    game = story_season.matches.get().games.get(number=3)
    type(game).objects.filter(pk=game.pk).update(status=GameStatus.DISPUTED)
    with translation.override("en"):
        notes = recap_notes(week_recap(recap_week(story_season.pk)))
    assert notes[-1] == "1 game is disputed, with the judge: it is not counted here."
    assert not any("over but not yet confirmed" in n for n in notes)
