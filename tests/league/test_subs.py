"""Subs: a season's sub list, kept by the organiser, and a sub seated for an absent partner when
a game starts (the game names the sub; the result stays the team's)."""

from __future__ import annotations

import pytest

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import AuditEntry, Delivery, GameSeat, Player, SeasonSub
from league.selectors.history import game_history
from league.selectors.standings import compute_standings
from league.selectors.stats import player_stats
from league.selectors.subs import subs_of
from league.services.games import game_confirm, game_start
from league.services.people import PlayerLine
from league.services.subs import sub_ask, sub_remove, subs_add
from tests import factories
from tests.factories import play_until_over


@pytest.fixture
def gus(season, league_admin):
    """Gus, on the season's sub list (added by the organiser, with a login to invite)."""
    subs_add(
        user=league_admin,
        season=season,
        lines=[PlayerLine(name="Gus", email="gus@example.org")],
    )
    return subs_of(season)[0]


# --- The sub list -------------------------------------------------------------------------------


def test_the_organiser_adds_a_new_player_to_the_sub_list_with_a_login_to_invite(
    season, league_admin
):
    added = subs_add(
        user=league_admin,
        season=season,
        lines=[PlayerLine(name="Gus", email="gus@example.org"), PlayerLine(name="Hal")],
    )
    assert [p.name for p in subs_of(season)] == ["Gus", "Hal"]
    assert [p.name for p in added.to_invite] == ["Gus"]
    trail = AuditEntry.objects.filter(action="sub_add", season_id=season.pk)
    assert sorted(e.after["player"] for e in trail) == ["Gus", "Hal"]


def test_adding_a_sub_twice_keeps_one_entry(season, league_admin, gus):
    again = subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Gus")])
    assert [p.name for p in again.already] == ["Gus"]
    assert SeasonSub.objects.filter(season=season).count() == 1


def test_a_player_of_a_team_of_the_season_cannot_be_a_sub_and_nothing_is_added(
    season, league_admin, home_team
):
    with pytest.raises(ValidationFailed, match="Bob already play for a team this season"):
        subs_add(
            user=league_admin,
            season=season,
            lines=[PlayerLine(name="Hal"), PlayerLine(name="Bob")],
        )
    assert subs_of(season) == []


def test_a_captain_cannot_keep_the_sub_list(season, ann):
    with pytest.raises(NotAllowed):
        subs_add(user=ann, season=season, lines=[PlayerLine(name="Gus")])


def test_the_organiser_takes_a_sub_off_the_list_on_record(season, league_admin, gus):
    sub_remove(user=league_admin, season=season, player=gus)
    assert subs_of(season) == []
    assert AuditEntry.objects.get(action="sub_remove").before == {"player": "Gus"}
    with pytest.raises(ValidationFailed, match="Gus is not on this season's sub list"):
        sub_remove(user=league_admin, season=season, player=gus)


# --- Seating a sub ------------------------------------------------------------------------------


def test_a_captain_seats_a_sub_for_an_absent_partner_and_the_game_names_the_sub(match, ann, gus):
    # Bob is away tonight: Gus sits opposite Ann for Fifteen Two.
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
    seats = {s.player.name: s.is_sub for s in GameSeat.objects.filter(game=game)}
    assert seats == {"Ann": False, "Cat": False, "Gus": True, "Dan": False}
    assert game.home_side == 0  # Ann's side: Fifteen Two's, the sub's too
    start = AuditEntry.objects.get(action="game_start", game=game)
    assert start.after["subs"] == ["Gus"]
    assert "Gus" in game_history(game)[0]["text"]


def test_the_result_of_a_game_with_a_sub_is_the_teams(match, ann, cat, gus):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    game.refresh_from_db()
    standings = compute_standings(match.week.season)["standings"]
    won = {row["team"]: row["won"] for row in standings}
    loser = "Nobs" if game.winner.name == "Fifteen Two" else "Fifteen Two"
    assert (won[game.winner.name], won[loser]) == (1, 0)
    assert "Gus" not in won  # the sub has no row: standings stay the team's


def test_the_other_team_can_seat_the_sub_too(match, cat, gus):
    game = game_start(match=match, user=cat, seats=["Ann", "Cat", "Bob", "Gus"])
    assert GameSeat.objects.get(game=game, player=gus).is_sub


def test_a_player_not_on_the_sub_list_is_refused_by_name(match, ann):
    factories.PlayerFactory(name="Ivy")
    with pytest.raises(ValidationFailed, match=r"Ivy does not play for either team.*sub list"):
        game_start(match=match, user=ann, seats=["Ann", "Cat", "Ivy", "Dan"])
    assert not match.games.exists()


def test_a_sub_of_another_season_is_refused(match, ann, league, league_admin):
    other = factories.SeasonFactory(league=league, name="Spring 2027")
    subs_add(user=league_admin, season=other, lines=[PlayerLine(name="Gus")])
    with pytest.raises(ValidationFailed, match="Gus does not play for either team"):
        game_start(match=match, user=ann, seats=["Ann", "Cat", "Gus", "Dan"])


def test_a_player_of_the_other_team_cannot_sit_as_a_partner(match, ann, gus):
    # Cat plays for Nobs: she cannot fill Bob's seat opposite Ann.
    with pytest.raises(ValidationFailed, match="Partners sit opposite"):
        game_start(match=match, user=ann, seats=["Ann", "Gus", "Cat", "Dan"])


def test_a_player_of_a_third_team_is_not_a_sub(match, ann, other_team):
    with pytest.raises(ValidationFailed, match="Eve does not play for either team"):
        game_start(match=match, user=ann, seats=["Ann", "Cat", "Eve", "Dan"])


def test_a_team_whose_two_players_are_absent_seats_two_subs(
    match, ann, cat, season, league_admin, gus
):
    # Ann and Bob are both away: Gus and Hal sit for Fifteen Two, opposite each other.
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Hal")])
    game = game_start(match=match, user=cat, seats=["Gus", "Cat", "Hal", "Dan"])
    seats = {s.player.name: s.is_sub for s in GameSeat.objects.filter(game=game)}
    assert seats == {"Gus": True, "Cat": False, "Hal": True, "Dan": False}
    assert game.home_side == 0  # Nobs sit on side 1, so the subs' side is Fifteen Two's
    assert AuditEntry.objects.get(action="game_start", game=game).after["subs"] == ["Gus", "Hal"]
    started = game_history(game)[0]["text"]
    assert "Gus (sub), Cat, Hal (sub), Dan" in started
    play_until_over(game, cat)
    game_confirm(game=game, user=ann)  # the team's result: its captain confirms it
    game.refresh_from_db()
    # Each sub's statistics count the game they sat in, won or lost with the team they sat for.
    for name in ("Gus", "Hal"):
        stats = player_stats(Player.objects.get(name=name))
        assert [g.pk for g in stats["games"]] == [game.pk]
        assert (stats["stats"].wins, stats["stats"].losses) == (
            (1, 0) if game.winner.name == "Fifteen Two" else (0, 1)
        )
    won = {row["team"]: row["won"] for row in compute_standings(season)["standings"]}
    loser = "Nobs" if game.winner.name == "Fifteen Two" else "Fifteen Two"
    assert won == {game.winner.name: 1, loser: 0}  # no row for a sub: the teams' standings


def test_a_sub_seated_twice_is_refused(match, ann, gus):
    with pytest.raises(ValidationFailed, match="only one seat"):
        game_start(match=match, user=ann, seats=["Gus", "Cat", "Gus", "Dan"])
    assert not match.games.exists()


def test_a_player_of_the_other_team_cannot_sit_with_a_sub(match, ann, season, league_admin, gus):
    # Cat plays for Nobs: she cannot make up Fifteen Two's side with a sub.
    subs_add(user=league_admin, season=season, lines=[PlayerLine(name="Hal")])
    with pytest.raises(ValidationFailed, match="Partners sit opposite"):
        game_start(match=match, user=ann, seats=["Ann", "Gus", "Cat", "Hal"])
    assert not match.games.exists()


def test_a_table_of_subs_alone_is_no_teams(match, ann, season, league_admin, gus):
    subs_add(
        user=league_admin,
        season=season,
        lines=[PlayerLine(name="Hal"), PlayerLine(name="Ivy"), PlayerLine(name="Joe")],
    )
    with pytest.raises(ValidationFailed, match="Seat at least one player of each team"):
        game_start(match=match, user=ann, seats=["Gus", "Hal", "Ivy", "Joe"])
    assert not match.games.exists()


# --- Asking for a sub ---------------------------------------------------------------------------


def test_a_captain_asks_the_sub_list_and_each_sub_is_told_once(
    match, ann, gus, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert sub_ask(user=ann, match=match) == 1
    entry = AuditEntry.objects.get(action="sub_ask")
    assert entry.after == {"team": "Fifteen Two", "subs": ["Gus"]}
    told = Delivery.objects.filter(player=gus, event="sub_asked").count()
    assert told >= 1
    assert [m.to for m in mailoutbox] == [["gus@example.org"]]
    assert "Fifteen Two needs a sub against Nobs" in mailoutbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        sub_ask(user=ann, match=match)
    assert len(mailoutbox) == 1
    assert Delivery.objects.filter(player=gus, event="sub_asked").count() == told


def test_asking_with_no_sub_list_says_to_ask_the_organiser(match, ann):
    with pytest.raises(ValidationFailed, match="no sub list yet"):
        sub_ask(user=ann, match=match)


def test_a_player_of_neither_team_cannot_ask_for_a_sub(match, eve, gus):
    with pytest.raises((NotAllowed, ValidationFailed)):
        sub_ask(user=eve, match=match)
