"""At the table: captains name their boards and enter legs; both entries agree or the
disagreement is shown until settled; every refusal says why and changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.models import AuditEntry, Player
from teamleagues import selectors, services
from teamleagues.models import BoardPlayer, Fixture, Leg


@pytest.fixture
def match(potters_bar, organiser):
    home, away = potters_bar.make("Red Lion"), potters_bar.make("Swan")
    season = services.season_create(
        user=organiser,
        league=potters_bar.league,
        name="2026",
        divisions=[("Premier", [home.team, away.team])],
        promoted=0,
        relegated=0,
    )
    services.fixtures_make(
        user=organiser, division=season.divisions.get(), first=dt.date(2026, 9, 1)
    )
    fixture = Fixture.objects.get(home=home.team)
    return fixture, home, away


def test_both_captains_agree_a_leg_and_a_disagreement_waits_for_them(match, helpers):
    fixture, home, away = match
    for t in (home, away):
        services.boards_name(user=t.captain, fixture=fixture, names=helpers.lineup(t))
    leg = services.leg_enter(
        user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=98
    )
    assert leg.state == "waiting" and not leg.stands
    leg = services.leg_enter(
        user=away.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=89
    )
    assert leg.state == "disagree" and (leg.home_loser_score, leg.away_loser_score) == (98, 89)
    # The away captain looks again at the board and changes their own entry: agreed.
    leg = services.leg_enter(
        user=away.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=98
    )
    assert (leg.state, leg.winner, leg.loser_score) == ("agreed", "home", 98)
    with pytest.raises(Locked, match="stands: ask an organiser"):
        services.leg_enter(
            user=away.captain, fixture=fixture, board=1, leg=1, winner="away", loser_score=98
        )
    result = selectors.match_result(selectors.fixture_detail(fixture.pk))
    assert (result.home_legs, result.away_legs, result.over) == (1, 0, False)


def test_an_organiser_settles_a_disagreement_and_a_board_ends_at_two_legs(
    match, helpers, organiser
):
    fixture, home, away = match
    for t in (home, away):
        services.boards_name(user=t.captain, fixture=fixture, names=helpers.lineup(t))
    services.leg_enter(
        user=home.captain, fixture=fixture, board=6, leg=1, winner="home", loser_score=110
    )
    services.leg_enter(
        user=away.captain, fixture=fixture, board=6, leg=1, winner="away", loser_score=110
    )
    leg = Leg.objects.get(board__fixture=fixture, board__number=6, number=1)
    assert leg.state == "disagree"
    with pytest.raises(NotAllowed):
        services.leg_settle(user=home.captain, leg=leg, winner="home", loser_score=110)
    leg = services.leg_settle(
        user=organiser, leg=leg, winner="home", loser_score=110, reason="checked the board"
    )
    assert (leg.state, leg.winner) == ("settled", "home")
    for captain in (home.captain, away.captain):
        services.leg_enter(
            user=captain, fixture=fixture, board=6, leg=2, winner="home", loser_score=77
        )
    with pytest.raises(Locked, match="already decided"):
        services.leg_enter(
            user=home.captain, fixture=fixture, board=6, leg=3, winner="home", loser_score=7
        )
    assert AuditEntry.objects.filter(action="team_leg_settle", reason="checked the board").exists()


def test_names_follow_the_team_list_the_kinds_and_the_team_size(match, helpers, potters_bar):
    fixture, home, away = match
    names = helpers.lineup(home)
    stranger = Player.objects.create(name="Stranger")
    with pytest.raises(ValidationFailed, match="Stranger is not on the list of Red Lion"):
        services.boards_name(user=home.captain, fixture=fixture, names={**names, 9: [stranger]})
    with pytest.raises(ValidationFailed, match="on boards 6 and 9: one singles board"):
        services.boards_name(
            user=home.captain, fixture=fixture, names={**names, 9: [home.players[0]]}
        )
    with pytest.raises(ValidationFailed, match="at most 10 players"):
        services.boards_name(
            user=home.captain, fixture=fixture, names={**names, 9: [home.reserves[1]]}
        )
    with pytest.raises(ValidationFailed, match="Board 6 is singles: name 1"):
        services.boards_name(user=home.captain, fixture=fixture, names={6: home.players[:2]})
    assert not BoardPlayer.objects.exists()
    # The other captain names only their own side; a stranger names nothing.
    with pytest.raises(NotAllowed):
        services.boards_name(user=away.captain, fixture=fixture, names=names, side="home")
    # No leg before both sides have named the board.
    services.boards_name(user=home.captain, fixture=fixture, names=names)
    with pytest.raises(Locked, match="Both captains name board 1"):
        services.leg_enter(
            user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=1
        )
    with pytest.raises(ValidationFailed, match="from 0 to 120"):
        services.leg_enter(
            user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=121
        )
    # A board is renamed until its first leg, then its names stay.
    services.boards_name(user=away.captain, fixture=fixture, names=helpers.lineup(away))
    services.leg_enter(
        user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=1
    )
    with pytest.raises(Locked, match="Board 1 has a leg entered"):
        services.boards_name(user=home.captain, fixture=fixture, names={1: home.players[:2]})
    with pytest.raises(Locked, match="Leg 2 of board 2 comes before leg 3"):
        services.leg_enter(
            user=home.captain, fixture=fixture, board=2, leg=3, winner="home", loser_score=1
        )


def test_names_in_before_the_match_means_every_board_before_any_leg(
    match, helpers, potters_bar, organiser
):
    fixture, home, away = match
    fmt = potters_bar.league.format
    fmt.naming = "before_match"
    fmt.save()
    services.boards_name(user=home.captain, fixture=fixture, names={1: home.players[:2]})
    services.boards_name(user=away.captain, fixture=fixture, names={1: away.players[:2]})
    with pytest.raises(Locked, match="board 2 is not"):
        services.leg_enter(
            user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=1
        )
    for t in (home, away):
        services.boards_name(user=t.captain, fixture=fixture, names=helpers.lineup(t))
    services.leg_enter(
        user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=1
    )
    with pytest.raises(Locked, match="names were in before the match"):
        services.boards_name(user=home.captain, fixture=fixture, names={9: [home.players[4]]})


def test_a_forfeited_board_goes_to_the_other_side_and_is_not_named(match, helpers, organiser):
    fixture, home, away = match
    services.board_forfeit(user=away.captain, fixture=fixture, board=9)
    with pytest.raises(Conflict):
        services.board_forfeit(user=organiser, fixture=fixture, board=9, side="home")
    with pytest.raises(NotAllowed):
        services.board_forfeit(user=away.captain, fixture=fixture, board=8, side="home")
    with pytest.raises(Locked, match="Board 9 was forfeited"):
        services.boards_name(user=home.captain, fixture=fixture, names={9: [home.players[3]]})
    result = selectors.match_result(selectors.fixture_detail(fixture.pk))
    assert (result.home_legs, result.home_boards, result.away_boards) == (2, 1, 0)


def test_the_format_is_checked_and_frozen_once_played(potters_bar, organiser, match, helpers):
    from tests.teamleagues.conftest import POTTERS_BAR, POTTERS_BAR_BOARDS

    league = potters_bar.league
    with pytest.raises(ValidationFailed, match="2 to 10 players"):
        services.league_set(
            user=organiser,
            league=league,
            name=league.name,
            boards=POTTERS_BAR_BOARDS,
            **{**POTTERS_BAR, "team_size": 11},
        )
    with pytest.raises(ValidationFailed, match="cannot fill these boards"):
        services.league_set(
            user=organiser,
            league=league,
            name=league.name,
            boards=POTTERS_BAR_BOARDS,
            **{**POTTERS_BAR, "team_size": 8},
        )
    with pytest.raises(ValidationFailed, match="deal-by-deal"):
        services.league_set(
            user=organiser,
            league=league,
            name=league.name,
            boards=POTTERS_BAR_BOARDS,
            **{**POTTERS_BAR, "entry_mode": "deal_by_deal"},
        )
    # Rye: 4 singles and 2 pairs, 3 legs, is a format like any other.
    services.league_set(
        user=organiser,
        league=league,
        name=league.name,
        boards=[("singles", "six-card")] * 4 + [("pairs", "five-card")] * 2,
        **{**POTTERS_BAR, "team_size": 8},
    )
    assert league.format.boards.count() == 6
    fixture, home, away = match
    assert [b.kind for b in fixture.boards.all()] == ["singles"] * 4 + ["pairs"] * 2
    for t in (home, away):
        p = t.players
        rye = {1: [p[0]], 2: [p[1]], 3: [p[2]], 4: [p[3]], 5: p[4:6], 6: p[6:8]}
        services.boards_name(user=t.captain, fixture=fixture, names=rye)
    services.leg_enter(
        user=home.captain, fixture=fixture, board=1, leg=1, winner="home", loser_score=1
    )
    with pytest.raises(Locked, match="Matches were played under this format"):
        services.league_set(
            user=organiser,
            league=league,
            name=league.name,
            boards=POTTERS_BAR_BOARDS,
            **POTTERS_BAR,
        )
