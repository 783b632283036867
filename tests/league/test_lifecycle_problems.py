"""Each hole the first release left in a game's life, closed: bypasses by people with two roles,
admin edits that moved results without a trace, game numbers out of range, two starts of one
game, "this week" ignoring dates, scores shown past the game hole, playoffs drawn too early,
and a ruling that must correct several deals at once."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.kernel.permissions import JUDGES, LEAGUE_ADMINS
from league.models import AuditEntry, Deal, Game, GameStatus, Match, Season
from league.selectors.scoreboard import current_week, current_week_at
from league.selectors.standings import standings_for_season
from league.services.disputes import dispute_raise, dispute_rule, game_reject
from league.services.games import game_confirm, game_start, game_void
from league.services.playoffs import playoffs_create, playoffs_undo
from league.services.rules import season_rules_update
from league.services.seasons import match_update, team_update
from tests import factories
from tests.factories import play_until_over

pytestmark = pytest.mark.django_db


def make_judge_and_admin(user):
    user.groups.add(
        Group.objects.get_or_create(name=JUDGES)[0],
        Group.objects.get_or_create(name=LEAGUE_ADMINS)[0],
    )
    user.is_staff = True
    user.save()
    return type(user).objects.get(pk=user.pk)


# --- 1. A rejected game is held -----------------------------------------------------------------


def test_a_rejected_game_does_not_count_until_a_judge_rules(
    game, ann, cat, judge, django_capture_on_commit_callbacks
):
    play_until_over(game, ann)
    season = Season.objects.get(pk=game.match.week.season_id)
    dispute = game_reject(game=game, user=cat, claim="Deal 2's crib was 4")
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    with pytest.raises(Conflict):
        game_confirm(game=game, user=cat)
    assert all(row["played"] == 0 for row in standings_for_season(season)["standings"])
    with django_capture_on_commit_callbacks(execute=True):
        dispute_rule(
            dispute=dispute, judge=judge, ruling="It was 4, as entered.", rule_reference="S-9"
        )
    season.refresh_from_db()
    assert sum(row["played"] for row in standings_for_season(season)["standings"]) == 2


# --- 4. A ruling corrects several deals at once --------------------------------------------------


def test_a_ruling_that_changes_who_reached_121_corrects_two_deals_together(game, ann, cat, judge):
    last = play_until_over(game, ann)
    game.refresh_from_db()
    winner_before = game.winner
    loser_side = 1 - game.side_for_team(winner_before)
    # The judge finds the loser pegged enough in the second last deal to go out there: that
    # deal ends the game, so the last deal must go too. One deal at a time, neither order works.
    previous = Deal.objects.get(game=game, number=last - 1, is_current=True)
    before = Deal.objects.get(game=game, number=last - 2, is_current=True)
    totals = [before.home_after, before.away_after]
    if game.home_side == 1:
        totals.reverse()
    needed = 121 - totals[loser_side]
    pegging = [0, 0]
    pegging[loser_side] = needed
    corrected = {
        "dealer": previous.dealer,
        "starter": None,
        "pegging": pegging,
        "shows": {},
        "crib": None,
    }
    assert needed <= 58, "the fixture game should leave the loser within one deal's pegging"
    claim = dispute_raise(
        game=game, user=cat, claim="We pegged out in the deal before", deal_number=last - 1
    )
    with pytest.raises(ValidationFailed) as refusal:  # alone, it strands the last deal
        dispute_rule(
            dispute=claim,
            judge=judge,
            ruling="x",
            rule_reference="P-1",
            corrections={last - 1: corrected},
        )
    assert f"deal {last} no longer fits" in refusal.value.message
    dispute_rule(
        dispute=claim,
        judge=judge,
        ruling="They pegged out in the deal before.",
        rule_reference="P-1",
        corrections={last - 1: corrected, last: None},
    )
    game.refresh_from_db()
    assert game.winner != winner_before and game.deal_count == last - 1
    assert game.status == GameStatus.CONFIRMED  # the ruling settles the game
    assert not Deal.objects.filter(game=game, number=last, is_current=True).exists()
    assert Deal.objects.filter(game=game, number=last).count() == 1  # kept on record
    history = AuditEntry.objects.get(action="deals_correct")
    assert history.after[str(last)] is None and history.before[str(last)] is not None


# --- 6. Bypasses ---------------------------------------------------------------------------------


def test_a_judge_who_plays_cannot_void_their_own_teams_game(game, ann, home_team):
    play_until_over(game, ann)
    bob = make_judge_and_admin(home_team.players.get(name="Bob").user)
    with pytest.raises(NotAllowed):
        game_void(game=game, user=bob, reason="We lost")
    client = APIClient()
    client.force_login(bob)
    client.post("/admin/league/game/", {"action": "void_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_a_captain_who_is_a_league_admin_cannot_confirm_their_own_teams_game(
    game, cat, away_team, ann
):
    play_until_over(game, cat)  # Nobs entered it: Fifteen Two must confirm
    dan = make_judge_and_admin(away_team.players.get(name="Dan").user)
    with pytest.raises(NotAllowed):
        game_confirm(game=game, user=dan)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    game_confirm(game=game, user=ann)


def test_a_match_with_games_keeps_its_teams_and_a_rename_is_on_record(
    game, ann, cat, league_admin, match, django_capture_on_commit_callbacks
):
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    with pytest.raises(ValidationFailed):
        match_update(match=match, user=league_admin, home=match.away, away=match.home)
    league_admin.is_staff = True
    league_admin.save()
    client = APIClient()
    client.force_login(league_admin)
    answer = client.post(
        f"/admin/league/match/{match.pk}/change/",
        {"week": match.week_id, "home": match.away_id, "away": match.home_id, "table": 1},
    )
    assert answer.status_code == 200  # the form again, with the refusal
    assert "cannot change" in answer.content.decode()
    match.refresh_from_db()
    assert (match.home.name, match.away.name) == ("Fifteen Two", "Nobs")
    season = Season.objects.get(pk=match.week.season_id)
    version = season.results_version
    with django_capture_on_commit_callbacks(execute=True):
        team_update(team=match.home, user=league_admin, name="Fifteen-Two")
    season.refresh_from_db()
    assert season.results_version > version  # the standings pages show the new name
    assert AuditEntry.objects.filter(action="team_update").count() == 1
    names = {row["team"] for row in standings_for_season(season)["standings"]}
    assert "Fifteen-Two" in names


# --- 7. Game numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, -1, 4, 2**70])
def test_a_game_number_outside_the_match_is_refused(match, ann, number):
    client = APIClient()
    client.force_authenticate(ann)
    answer = client.post(
        f"/api/matches/{match.pk}/games/",
        {"seats": ["Ann", "Cat", "Bob", "Dan"], "number": number},
        format="json",
    )
    assert answer.status_code == 400
    assert not Game.objects.exists()


def test_the_same_start_sent_twice_starts_one_game(match, ann, client):
    api = APIClient()
    api.force_authenticate(ann)
    body = {"seats": ["Ann", "Cat", "Bob", "Dan"], "key": "phone-1"}
    first = api.post(f"/api/matches/{match.pk}/games/", body, format="json")
    again = api.post(f"/api/matches/{match.pk}/games/", body, format="json")
    assert first.status_code == 201 and again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    play_until_over(Game.objects.get(pk=first.json()["id"]), ann)
    client.force_login(ann)
    ids = {p.name: p.pk for t in (match.home, match.away) for p in t.players.all()}
    form = {"seat_0": ids["Ann"], "seat_1": ids["Cat"], "seat_2": ids["Bob"], "seat_3": ids["Dan"]}
    form |= {"first_dealer": 0, "key": "form-1"}
    for _ in range(2):
        client.post(reverse("league:start_game", args=[match.pk]), form)
    assert Game.objects.filter(match=match).count() == 2  # the API's game 1 and the form's game 2


def test_a_voided_game_frees_its_number_for_the_replay(match, ann, judge):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play_until_over(game, ann)
    for n in (2, 3):
        later = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"], number=n)
        play_until_over(later, ann)
    with pytest.raises(Conflict):
        game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    game_void(game=game, user=judge, reason="Wrong cards in the deck")
    replay = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    assert replay.number == 1 and replay.pk != game.pk


# --- 8. This week by date ------------------------------------------------------------------------


def test_an_early_game_of_next_week_does_not_hide_this_weeks_match(
    client, season, home_team, away_team, other_team, ann, venue
):
    today = timezone.localdate()
    this_week = factories.WeekFactory(season=season, number=5, date=today, venue=venue)
    next_week = factories.WeekFactory(
        season=season, number=6, date=today + dt.timedelta(days=7), venue=venue
    )
    mine = Match.objects.create(week=this_week, home=home_team, away=away_team)
    # The organiser allowed this one match to start early (a game starts on its night).
    early = Match.objects.create(week=next_week, home=away_team, away=other_team, early_start=True)
    cat = away_team.captain.user
    game_start(match=early, user=cat, seats=["Cat", "Eve", "Dan", "Fay"])
    assert current_week(season, today=today) == this_week
    assert current_week_at(venue.pk, today=today) == this_week
    client.force_login(ann)
    home = client.get("/").content.decode()
    assert reverse("league:match", args=[mine.pk]) in home
    assert "week 5" in home.lower()


# --- 9. The game hole ----------------------------------------------------------------------------


def test_the_winner_is_shown_at_121_and_the_margin_measured_from_there(
    client, game, ann, cat, match
):
    play_until_over(game, ann, show=12)
    game.refresh_from_db()
    game.match.home.refresh_from_db()
    winner_home = game.winner_id == match.home_id
    raw = game.home_score if winner_home else game.away_score
    assert raw > 121, "the fixture game should peg past the hole"
    shown = (game.home_at_hole, game.away_at_hole)
    assert max(shown) == 121 and 121 - min(shown) == game.margin
    for url in (
        reverse("league:game", args=[game.pk]),
        reverse("league:match", args=[match.pk]),
        reverse("league:schedule", args=[match.week.season_id]),
    ):
        page = client.get(url).content.decode()
        assert f"{shown[0]}–{shown[1]}" in page or str(min(shown)) in page, url
        assert f"{raw}–" not in page and f"–{raw}" not in page, url
        # the board's caption too: the pegs' scores under the board of the game and the match
        captions = re.findall(r'data-score="\d">(\d+)<', page)
        assert str(raw) not in captions, url
        if url != reverse("league:schedule", args=[match.week.season_id]):
            assert "121" in captions, url


# --- 10. Playoffs --------------------------------------------------------------------------------


def test_drawing_the_playoffs_mid_season_needs_a_reason_and_can_be_undone(
    played_season, league_admin
):
    factories.MatchFactory(
        week=factories.WeekFactory(season=played_season, number=3),
        home=played_season.teams.get(name="Nobs"),
        away=played_season.teams.get(name="His Heels"),
    )  # not played yet
    with pytest.raises(ValidationFailed) as refusal:
        playoffs_create(season=played_season, user=league_admin)
    assert "not finished" in refusal.value.message
    playoffs_create(season=played_season, user=league_admin, reason="The bar closes for winter")
    entry = AuditEntry.objects.get(action="playoffs_create")
    assert entry.reason == "The bar closes for winter"
    playoffs_undo(season=played_season, user=league_admin)
    played_season.refresh_from_db()
    assert played_season.playoff_seeding is None
    assert not played_season.weeks.filter(is_playoff=True).exists()


def test_a_draw_stands_once_a_playoff_game_starts(played_season, league_admin):
    matches = playoffs_create(season=played_season, user=league_admin, reason="end of season")
    first = matches[0]
    home = list(first.home.players.order_by("pk"))
    away = list(first.away.players.order_by("pk"))
    game_start(match=first, user=league_admin, seats=[home[0], away[0], home[1], away[1]])
    with pytest.raises(ValidationFailed):
        playoffs_undo(season=played_season, user=league_admin)


def test_an_even_number_of_playoff_games_is_refused(season, league_admin):
    with pytest.raises(ValidationFailed) as refusal:
        season_rules_update(
            season=season, user=league_admin, changes={"playoff_games_per_match": 2}
        )
    assert "odd number" in refusal.value.message


# --- 5. Nobody is their own rival ---------------------------------------------------------------


def test_the_same_persons_second_entry_of_a_deal_corrects_it_never_rivals_it(game, ann, cat):
    from league.services.deals import deal_record
    from tests.factories import plain_deal

    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="first")
    deal_record(game=game, user=cat, number=1, data=plain_deal(0), key="nobs")  # Nobs vouch
    again, created = deal_record(game=game, user=ann, number=1, data=plain_deal(0, crib=6), key="2")

    game.refresh_from_db()
    assert created and not again.is_rival and again.is_current and again.version == 2
    assert again.crib == 6 and again.reason  # a correction says why, like any other
    assert not Deal.objects.filter(game=game, is_rival=True).exists()
    assert (game.home_rival, game.away_rival) == (0, 0)
    assert game.away_vouched == 0  # Nobs vouched for the old numbers: they look again
    assert AuditEntry.objects.filter(game=game, action="deal_correct").count() == 1
    # The same request sent again finds the correction instead of correcting twice.
    assert deal_record(game=game, user=ann, number=1, data=plain_deal(0, crib=6), key="2") == (
        again,
        False,
    )


def test_a_partners_second_entry_corrects_the_teams_entry_once_the_game_is_confirmed_never(
    game, ann, cat
):
    from league.kernel.errors import Locked
    from league.services.deals import deal_record
    from tests.factories import plain_deal

    play_until_over(game, ann)
    bob = game.match.home.players.get(name="Bob").user
    other = plain_deal(0)
    other["shows"].update({"0": 7, "2": 9})  # the same totals: the rest of the game stands
    corrected, created = deal_record(game=game, user=bob, number=1, data=other)
    assert created and corrected.is_current and not corrected.is_rival
    game_confirm(game=game, user=cat)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    with pytest.raises(Locked, match="only a judge"):
        deal_record(game=game, user=ann, number=1, data=plain_deal(0, crib=7))
