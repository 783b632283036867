"""Score entry through the deal service: what a captain at the table relies on."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.models import AuditEntry, Deal, Game, GameStatus, Season
from league.selectors.games import stored_deal
from league.services.corrections import deal_correct
from league.services.deals import deal_record
from league.services.disputes import dispute_raise, dispute_rule
from league.services.games import game_confirm, game_start, game_void
from tests.factories import losers_pegging_struck_out, plain_deal, play_until_over


def test_a_deal_moves_both_sides_scores(game, ann):
    deal, created = deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="k1")
    game.refresh_from_db()
    assert created
    # Ann (seat 0, home side) deals: home pegs 3 + shows 8 + 8 + crib 4; away pegs 2 + 8 + 8
    assert (game.home_score, game.away_score) == (23, 18)
    assert (deal.home_after, deal.away_after) == (23, 18)
    assert AuditEntry.objects.filter(action="deal_record", game=game).count() == 1


def test_a_game_finishes_itself_with_winner_and_league_points(game, ann):
    deals = play_until_over(game, ann)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.deal_count == deals
    assert max(game.home_score, game.away_score) >= 121
    assert game.winner is not None
    loser_score = min(game.home_score, game.away_score)
    assert game.margin == 121 - loser_score
    winner_points = game.home_points if game.winner == game.match.home else game.away_points
    assert winner_points == 1 + (1 if game.margin >= 30 else 0)


def test_a_show_of_nineteen_is_refused_and_nothing_is_stored(game, ann):
    data = plain_deal(0)
    data["shows"]["1"] = 19
    with pytest.raises(ValidationFailed) as exc:
        deal_record(game=game, user=ann, number=1, data=data, key="bad")
    assert "19" in exc.value.message
    assert exc.value.field == "shows.1"
    game.refresh_from_db()
    assert Deal.objects.count() == 0 and (game.home_score, game.away_score) == (0, 0)


@pytest.mark.parametrize("value", ["12", 12.0, True, "٣", "５", "5 ", None])
def test_scores_must_be_plain_whole_numbers(game, ann, value):
    data = plain_deal(0)
    data["shows"]["2"] = value
    with pytest.raises(ValidationFailed):
        deal_record(game=game, user=ann, number=1, data=data, key="x")
    assert Deal.objects.count() == 0


def test_the_wrong_dealer_is_refused_with_names(game, ann):
    with pytest.raises(ValidationFailed) as exc:
        deal_record(game=game, user=ann, number=1, data=plain_deal(1), key="x")
    assert exc.value.field == "dealer"
    assert "Ann" in exc.value.message
    assert Deal.objects.count() == 0


def test_the_same_submission_twice_stores_one_deal(game, ann):
    first, created1 = deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="same")
    again, created2 = deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="same")
    assert created1 and not created2 and first.pk == again.pk
    assert Deal.objects.count() == 1


def test_the_same_key_with_other_numbers_is_refused(game, ann):
    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="same")
    with pytest.raises(Conflict):
        deal_record(game=game, user=ann, number=1, data=plain_deal(0, show=6), key="same")
    assert Deal.objects.count() == 1


def test_a_second_entry_with_other_numbers_is_kept_beside_the_first_never_dropped(game, ann, cat):
    first, _ = deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    rival, created = deal_record(game=game, user=cat, number=1, data=plain_deal(0, show=6), key="b")
    game.refresh_from_db()
    assert created and rival.is_rival and not rival.is_current
    assert rival.shows == {str(s): 6 for s in range(4)}
    assert Deal.objects.get(game=game, is_current=True) == first  # the first still counts
    assert game.away_rival == 1 and game.home_rival == 0  # Nobs's entry differs from deal 1
    assert AuditEntry.objects.filter(action="deal_rival").count() == 1


def test_a_second_entry_with_the_same_numbers_is_an_agreement(game, ann, cat):
    first, _ = deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    again, created = deal_record(game=game, user=cat, number=1, data=plain_deal(0), key="b")
    game.refresh_from_db()
    assert not created and again == first
    assert (game.home_vouched, game.away_vouched) == (1, 1)
    assert Deal.objects.filter(game=game).count() == 1


def test_a_deal_past_the_next_one_is_a_conflict_with_the_current_state(game, ann):
    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    with pytest.raises(Conflict) as exc:
        deal_record(game=game, user=ann, number=3, data=plain_deal(2), key="c")
    assert exc.value.extra["current"]["next_deal"] == 2
    assert Deal.objects.count() == 1


def test_a_player_of_another_team_cannot_enter_scores(game, eve):
    with pytest.raises(NotAllowed):
        deal_record(game=game, user=eve, number=1, data=plain_deal(0), key="x")
    assert Deal.objects.count() == 0


def test_the_enterer_cannot_confirm_but_the_other_team_can(game, ann, cat):
    play_until_over(game, ann)
    game.refresh_from_db()
    with pytest.raises(NotAllowed):
        game_confirm(game=game, user=ann)
    game = game_confirm(game=game, user=cat)
    assert game.status == GameStatus.CONFIRMED and game.confirmed_by == cat
    with pytest.raises(Locked):
        deal_record(game=game, user=ann, number=99, data=plain_deal(0), key="late")


def test_a_judges_correction_of_a_confirmed_game_is_a_new_version_and_moves_the_result(
    game, ann, cat, judge
):
    play_until_over(game, ann)
    game_confirm(game=game, user=cat)
    before = Game.objects.get(pk=game.pk)
    number, data = losers_pegging_struck_out(game)
    review = dispute_raise(game=game, user=judge, claim="The loser pegged 0, not 2")
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED  # under review, it does not count
    dispute_rule(
        dispute=review,
        judge=judge,
        ruling="Pegged 0, not 2",
        rule_reference="P-2",
        corrections={number: data},
    )
    game.refresh_from_db()
    new = Deal.objects.get(game=game, number=number, is_current=True)
    assert new.version == 2
    assert Deal.objects.filter(game=game, number=number).count() == 2
    assert game.status == GameStatus.CONFIRMED and game.winner == before.winner
    assert game.margin == before.margin + 2
    entry = AuditEntry.objects.get(action="deals_correct")
    assert "Pegged 0, not 2" in entry.reason and entry.actor == judge
    assert entry.before[str(number)]["pegging"] != entry.after[str(number)]["pegging"]


def test_a_correction_that_leaves_later_deals_impossible_is_refused(game, ann, cat, judge):
    deals = play_until_over(game, ann)
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(ValidationFailed) as exc:
        deal_correct(game=game, number=1, user=ann, data=plain_deal(0, show=4), reason="x")
    assert f"deal {deals} no longer fits" in exc.value.message
    game.refresh_from_db()
    assert (game.home_score, game.away_score) == (before.home_score, before.away_score)
    assert Deal.objects.filter(game=game).count() == deals


def test_the_team_that_entered_a_deal_corrects_it_and_the_other_team_cannot(game, ann, cat):
    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    deal_record(game=game, user=cat, number=1, data=plain_deal(0), key="b")  # Nobs agree
    with pytest.raises(NotAllowed):
        deal_correct(game=game, number=1, user=cat, data=plain_deal(0, show=4), reason="x")
    new = deal_correct(game=game, number=1, user=ann, data=plain_deal(0, show=4), reason="typo")
    game.refresh_from_db()
    assert new.version == 2 and new.shows["1"] == 4
    assert (game.home_vouched, game.away_vouched) == (1, 0)  # Nobs must look again


def test_a_correction_that_changes_nothing_gives_the_deal_back(game, ann):
    """A correction sent twice (its answer lost) finds the deal already says it: the deal as
    it stands comes back, no new version, no audit entry (it was a server error)."""
    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    first = deal_correct(game=game, number=1, user=ann, data=plain_deal(0, show=4), reason="x")
    again = deal_correct(game=game, number=1, user=ann, data=plain_deal(0, show=4), reason="x")
    assert again.pk == first.pk and again.version == 2
    assert Deal.objects.filter(game=game, number=1).count() == 2
    assert AuditEntry.objects.filter(action="deal_correct").count() == 1


def test_a_voided_game_takes_no_more_deals(game, ann, judge):
    game_void(game=game, user=judge, reason="Wrong teams sat down")
    with pytest.raises(Locked):
        deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")


def test_a_deal_that_ends_the_game_marks_the_standings_stale_and_moves_the_version_after_commit(
    game, ann, django_capture_on_commit_callbacks
):
    season = Season.objects.get(pk=game.match.week.season_id)
    version = season.results_version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play_until_over(game, ann)
        season.refresh_from_db()
        assert season.standings_stale and season.results_version == version  # not yet
    assert callbacks  # the bump and the recompute wait for the commit
    season.refresh_from_db()
    assert season.results_version == version + 1


def test_a_deal_that_leaves_the_game_in_progress_leaves_the_standings_alone(
    game, ann, django_capture_on_commit_callbacks
):
    """The standings count finished and confirmed games only: the deals before a game's last
    (nearly every deal at every table of a venue night) queue no recompute and touch no
    season row, and the game's own version still moves its board."""
    season = Season.objects.get(pk=game.match.week.season_id)
    before = (season.standings_stale, season.results_version)
    game_version = Game.objects.get(pk=game.pk).version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    assert callbacks == []
    season.refresh_from_db()
    assert (season.standings_stale, season.results_version) == before
    assert Game.objects.get(pk=game.pk).version > game_version


def test_the_other_teams_agreement_or_rival_entry_in_progress_leaves_the_standings_alone(
    game, ann, cat, django_capture_on_commit_callbacks
):
    """Both teams' phones enter every deal in a league that asks for it: the second entry of a
    deal of a game still in progress (an agreement, or a rival entry) is no result either, so
    it too queues no recompute; the game's version still moves its board."""
    season = Season.objects.get(pk=game.match.week.season_id)
    before = (season.standings_stale, season.results_version)
    deal_record(game=game, user=ann, number=1, data=plain_deal(0), key="a")
    deal_record(game=game, user=ann, number=2, data=plain_deal(1), key="b")
    game_version = Game.objects.get(pk=game.pk).version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        _, created = deal_record(game=game, user=cat, number=1, data=plain_deal(0), key="c")
        assert not created  # an agreement
        rival, created = deal_record(
            game=game, user=cat, number=2, data=plain_deal(1, show=6), key="d"
        )
        assert created and rival.is_rival
    assert callbacks == []
    season.refresh_from_db()
    assert (season.standings_stale, season.results_version) == before
    game = Game.objects.get(pk=game.pk)
    assert game.version == game_version + 2
    assert (game.away_vouched, game.away_rival) == (1, 2)


def test_the_agreement_that_confirms_a_finished_game_moves_the_standings(
    game, ann, cat, django_capture_on_commit_callbacks
):
    """The other team's phone agreeing with the last deal of a finished game confirms it: a
    result the standings count changed, so they follow after the commit."""
    last = play_until_over(game, ann)
    deals = {d.number: d for d in Deal.objects.filter(game=game, is_current=True)}
    for number in range(1, last):
        deal_record(game=game, user=cat, number=number, data=stored_deal(deals[number]))
    season = Season.objects.get(pk=game.match.week.season_id)
    version = season.results_version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        deal_record(game=game, user=cat, number=last, data=stored_deal(deals[last]))
    assert callbacks
    game.refresh_from_db()
    season.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED and game.confirmed_by == cat
    assert season.results_version == version + 1


def test_partners_must_sit_opposite(match, ann):
    with pytest.raises(ValidationFailed):
        game_start(match=match, user=ann, seats=["Ann", "Bob", "Cat", "Dan"])
    assert Game.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_people_entering_the_same_deal_at_once_one_counts_and_none_is_dropped(match, ann, cat):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    results: list[object] = []
    barrier = threading.Barrier(2)

    def enter(user, show):
        barrier.wait()
        try:
            deal_record(
                game=game, user=user, number=1, data=plain_deal(0, show=show), key=str(uuid.uuid4())
            )
            results.append("stored")
        except Conflict as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(u, s)) for u, s in ((ann, 8), (cat, 6))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # One entry counts; the other is kept beside it as a rival: nothing typed is dropped.
    assert Deal.objects.filter(game=game, is_current=True).count() == 1
    assert (
        Deal.objects.filter(game=game, is_rival=True).count()
        + sum(isinstance(r, Conflict) for r in results)
        == 1
    )


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_give_one(match, ann, cat, away_team):
    game = game_start(match=match, user=ann, seats=["Ann", "Cat", "Bob", "Dan"])
    play_until_over(game, ann)
    dan = away_team.players.get(name="Dan").user
    results: list[object] = []
    barrier = threading.Barrier(2)

    def confirm(user):
        barrier.wait()
        try:
            game_confirm(game=game, user=user)
            results.append("confirmed")
        except Conflict as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(u,)) for u in (cat, dan)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("confirmed") == 1
    assert AuditEntry.objects.filter(action="game_confirm").count() == 1
