"""Running a club night through the services: entrants, seating, scorecards, the bracket."""

from __future__ import annotations

import pytest

from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from tests import factories
from tests.tournaments.conftest import play_round, user_of
from tournaments import selectors, services
from tournaments.models import EntrantStatus, TableState, TournamentStage


def test_a_player_without_the_director_role_cannot_create_a_tournament(db):
    with pytest.raises(NotAllowed):
        services.tournament_create(user=factories.UserFactory(), name="X")


def test_a_seated_round_puts_everyone_at_a_numbered_table_or_the_bye(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    games = list(rnd.games.order_by("table"))
    assert [g.table for g in games] == [1, 2, 3]
    seated = {g.first_id for g in games} | {g.second_id for g in games}
    seated |= {b.entrant_id for b in rnd.byes.all()}
    assert seated == {e.pk for e in field}
    night.refresh_from_db()
    assert night.stage == TournamentStage.QUALIFYING


def test_the_next_round_waits_for_every_result(night, director, field):
    services.round_seat_next(user=director, tournament=night)
    with pytest.raises(Locked, match="without a verified result"):
        services.round_seat_next(user=director, tournament=night)


def test_two_matching_scorecards_verify_the_game(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    services.scorecard_enter(user=user_of(game.first), game=game, winner=game.first, loser_score=90)
    game.refresh_from_db()
    assert game.status == TableState.OPEN
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.first, loser_score=90
    )
    game.refresh_from_db()
    assert (
        game.status == TableState.VERIFIED and game.winner == game.first and game.loser_score == 90
    )


def test_a_mismatch_goes_to_the_checkers_and_a_checkers_entry_settles_it(
    night, director, field, judge
):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    services.scorecard_enter(user=user_of(game.first), game=game, winner=game.first, loser_score=90)
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.first, loser_score=95
    )
    game.refresh_from_db()
    assert game.status == TableState.MISMATCH
    queue = list(selectors.checkers_queue())
    assert queue == [game]
    assert sorted(c.loser_score for c in queue[0].scorecards.all()) == [90, 95]
    with pytest.raises(NotAllowed):
        services.scorecard_settle(
            user=user_of(game.first), game=game, winner=game.first, loser_score=90
        )
    services.scorecard_settle(user=judge, game=game, winner=game.first, loser_score=95)
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game.loser_score == 95
    assert list(selectors.checkers_queue()) == []


def test_a_checker_keys_in_a_paper_card_as_one_sides_entry(night, director, field, judge):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    services.scorecard_enter(
        user=user_of(game.first), game=game, winner=game.second, loser_score=77
    )
    services.scorecard_enter(
        user=judge, game=game, side=game.second, winner=game.second, loser_score=77
    )
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED


def test_bad_results_are_refused_with_a_sentence(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    game = rnd.games.first()
    other = rnd.games.last()
    u = user_of(game.first)
    with pytest.raises(ValidationFailed, match="from 0 to 120"):
        services.scorecard_enter(user=u, game=game, winner=game.first, loser_score=121)
    with pytest.raises(ValidationFailed, match="one of the two entrants"):
        services.scorecard_enter(user=u, game=game, winner=other.first, loser_score=80)
    with pytest.raises(NotAllowed):
        services.scorecard_enter(user=u, game=other, winner=other.first, loser_score=80)


def test_a_verified_game_takes_no_more_entries(night, director, field):
    rnd = play_round(night, director)
    game = rnd.games.first()
    with pytest.raises(Locked):  # the table is closed to players once verified (409)
        services.scorecard_enter(
            user=user_of(game.first), game=game, winner=game.first, loser_score=1
        )


def test_the_director_swaps_two_entrants_before_the_round_starts(night, director, field):
    rnd = services.round_seat_next(user=director, tournament=night)
    t1, t2 = rnd.games.order_by("table")[:2]
    a, b = t1.first, t2.second
    services.round_swap(user=director, round=rnd, a=a, b=b)
    t1.refresh_from_db()
    t2.refresh_from_db()
    assert t1.first == b and t2.second == a
    bye = rnd.byes.get().entrant
    services.round_swap(user=director, round=rnd, a=bye, b=t1.second)
    assert rnd.byes.get().entrant == t1.second
    services.scorecard_enter(user=user_of(t2.first), game=t2, winner=t2.first, loser_score=3)
    with pytest.raises(Locked, match="has started"):
        services.round_swap(user=director, round=rnd, a=t2.first, b=t1.first)


def test_late_adds_and_withdrawals_between_rounds(night, director, field):
    play_round(night, director)
    late = services.entrant_register(user=director, tournament=night, name="Hal")
    assert late.status == EntrantStatus.CHECKED_IN
    services.entrant_withdraw(user=director, entrant=field[0])
    rnd = services.round_seat_next(user=director, tournament=night)
    seated = {g.first_id for g in rnd.games.all()} | {g.second_id for g in rnd.games.all()}
    assert late.pk in seated and field[0].pk not in seated
    busy = rnd.games.first().first
    with pytest.raises(Locked, match="settle that game first"):
        services.entrant_withdraw(user=director, entrant=busy)


def test_the_bracket_and_a_best_of_three_to_a_champion(night, director, field):
    for _ in range(3):
        play_round(night, director)
    services.bracket_draw(user=director, tournament=night)
    night.refresh_from_db()
    assert night.stage == TournamentStage.PLAYOFFS
    data = selectors.standings_for_tournament(night)
    assert len(data["qualifiers"]) == 2  # ceil(7 / 4)
    rounds = selectors.bracket_rounds(night)
    final = rounds[0][0].match
    assert {final.top.seed, final.bottom.seed} == {1, 2}
    with pytest.raises(ValidationFailed, match="from 0 to 120"):
        services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=130)
    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=100)
    services.playoff_game_record(user=director, match=final, winner=final.bottom, loser_score=100)
    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=100)
    with pytest.raises(Locked, match="no game may follow"):
        services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=1)
    night.refresh_from_db()
    assert night.stage == TournamentStage.FINISHED
    assert selectors.champion(night) == final.top.name


def test_the_bracket_waits_for_every_result(night, director, field):
    services.round_seat_next(user=director, tournament=night)
    with pytest.raises(Locked):
        services.bracket_draw(user=director, tournament=night)


def test_every_change_is_in_the_audit_trail(night, director, field):
    from league.models import AuditEntry

    play_round(night, director)
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"tournament_create", "entrant_register", "round_seat", "scorecard_submit"} <= actions
