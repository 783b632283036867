"""Ratings on the league's results: only a confirmed game moves them, the provisional label
follows the setting, a full recompute gives what the updates stored whatever order equal-time
games were written in, and the rating block costs one query (information only: never in the
standings)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.models import GameSeat, GameStatus, RatedGame, Rating
from league.selectors.ratings import player_rating, team_ratings
from league.services.disputes import dispute_assign, dispute_rule, game_reject
from league.services.games import game_confirm
from league.services.ratings import ratings_recompute, ratings_update
from tests import factories
from tests.factories import play


def stored() -> dict[tuple[int, int | None], tuple[float, float, int]]:
    return {(r.player_id, r.partner_id): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


@pytest.fixture
def finished(game, ann, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return play(game, ann)


def test_a_finished_or_disputed_game_moves_no_rating_and_its_ruling_does(
    finished, cat, judge, django_capture_on_commit_callbacks
):
    assert finished.status == GameStatus.FINISHED
    assert not Rating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        dispute = game_reject(game=finished, user=cat, claim="Deal 1 was miscounted")
        dispute_assign(dispute=dispute, judge=judge)
    finished.refresh_from_db()
    assert finished.status == GameStatus.DISPUTED
    assert ratings_update().added == 0 and not Rating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        dispute_rule(dispute=dispute, judge=judge, ruling="As entered.", rule_reference="S-2")
    finished.refresh_from_db()
    assert finished.status == GameStatus.CONFIRMED
    winners = {s.player_id for s in finished.seats.all() if s.seat % 2 == _winning_side(finished)}
    ratings = stored()
    assert len(ratings) == 6  # four players and two pairs, rated once each
    assert {games for _mu, _sigma, games in ratings.values()} == {1}
    for (player, partner), (mu, _sigma, _games) in ratings.items():
        if partner is None:
            assert (mu > 25) == (player in winners)


def _winning_side(game):
    return game.home_side if game.winner_id == game.match.home_id else 1 - game.home_side


def test_confirming_a_game_moves_the_four_players_and_both_pairs(
    finished, cat, home_team, away_team, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=finished, user=cat)
    finished.refresh_from_db()
    home_won = finished.winner_id == home_team.pk
    pair = team_ratings(home_team).pair
    assert pair is not None and pair.games == 1 and (pair.mu > 25) == home_won
    ann = player_rating(home_team.captain)
    assert ann is not None and (ann.rating > 1000) == home_won and ann.uncertainty < 333
    assert RatedGame.objects.filter(source="game", ref=finished.pk).exists()


def test_provisional_follows_the_setting(finished, cat, home_team, settings):
    game_confirm(game=finished, user=cat)
    ratings_update()
    ann = home_team.captain
    settings.PEGBOARD_RATING_PROVISIONAL_GAMES = 2
    assert player_rating(ann).provisional
    settings.PEGBOARD_RATING_PROVISIONAL_GAMES = 1
    assert not player_rating(ann).provisional
    assert not team_ratings(home_team).pair.provisional


def test_voiding_a_confirmed_game_takes_it_out_of_the_ratings(
    finished, cat, judge, django_capture_on_commit_callbacks
):
    from league.services.games import game_void

    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=finished, user=cat)
    assert Rating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        game_void(game=finished, user=judge, reason="Played at the wrong table")
    assert not Rating.objects.exists() and not RatedGame.objects.exists()


def seated_game(match, number, winner, at, seats):
    game = factories.confirmed_game(match, number, winner, 10)
    game.confirmed_at = at
    game.save()
    for seat, player in enumerate(seats):
        GameSeat.objects.create(game=game, seat=seat, player=player)
    return game


def test_the_order_equal_time_games_were_written_in_changes_no_recompute(
    match, home_team, away_team, other_team, week
):
    ann, bob = home_team.players.order_by("name")
    cat, dan = away_team.players.order_by("name")
    eve, fay = other_team.players.order_by("name")
    second = factories.MatchFactory(week=week, home=other_team, away=home_team, table=2)
    at, later = "2026-09-03T20:00:00Z", "2026-09-03T21:00:00Z"
    plan = [
        (match, 1, home_team, at, [ann, cat, bob, dan]),
        (match, 2, away_team, at, [ann, dan, bob, cat]),
        (second, 1, other_team, at, [eve, ann, fay, bob]),
        (second, 2, home_team, later, [eve, bob, fay, ann]),
        (match, 3, home_team, at, [bob, cat, ann, dan]),
    ]
    for args in plan:
        seated_game(*args)
    first = ratings_recompute()
    assert first.results == 5 and first.players == 6 and first.pairs == 3
    expected = stored()
    for order in (plan[::-1], plan[2:] + plan[:2]):
        GameSeat.objects.all().delete()
        from league.models import Game

        Game.objects.all().delete()
        for args in order:
            seated_game(*args)  # new ids, written in another order
        ratings_recompute()
        assert stored() == expected


def test_updates_one_by_one_store_what_the_command_recomputes(
    match, home_team, away_team, other_team, week, capsys
):
    ann, bob = home_team.players.order_by("name")
    cat, dan = away_team.players.order_by("name")
    eve, fay = other_team.players.order_by("name")
    second = factories.MatchFactory(week=week, home=other_team, away=away_team, table=2)
    # written out of order: the equal-time game ids 2 and 3 come canonically before id 1's
    seated_game(match, 1, away_team, "2026-09-03T20:00:00Z", [cat, ann, dan, bob])
    assert ratings_update().replayed is False
    seated_game(second, 1, other_team, "2026-09-03T20:00:00Z", [eve, cat, fay, dan])
    seated_game(match, 2, home_team, "2026-09-03T19:00:00Z", [ann, cat, bob, dan])
    assert ratings_update().replayed is True  # an earlier game arrived: replayed
    seated_game(match, 3, home_team, "2026-09-03T22:00:00Z", [ann, dan, bob, cat])
    step = ratings_update()
    assert step.replayed is False and step.added == 1 and step.results == 4
    figures = stored()
    assert figures[(ann.pk, None)][2] == 3 and figures[(cat.pk, None)][2] == 4
    call_command("recompute_ratings")
    assert stored() == figures
    out = capsys.readouterr().out
    assert "4 result(s) rated: 6 player(s) (6 provisional, under 10 games), 3 pair(s)." in out


def test_the_rating_block_costs_one_query(
    finished, cat, home_team, django_assert_num_queries, client
):
    game_confirm(game=finished, user=cat)
    ratings_update()
    ann = home_team.captain
    with django_assert_num_queries(1):
        player_rating(ann)
    team = type(home_team).objects.prefetch_related("players").get(pk=home_team.pk)
    with django_assert_num_queries(1):
        block = team_ratings(team)
    assert block.pair is not None and [p.name for p, _r in block.players] == ["Ann", "Bob"]
    body = client.get(reverse("league:team", args=[home_team.pk])).content.decode()
    assert "never used in standings" in body and f"{block.pair.rating}</strong> ± " in body
    body = client.get(reverse("league:player", args=[ann.pk])).content.decode()
    mine = player_rating(ann)
    assert f"<strong>{mine.rating}</strong> ± {mine.uncertainty}" in body and "provisional" in body


def test_the_api_gives_a_teams_ratings(finished, cat, home_team, client):
    game_confirm(game=finished, user=cat)
    ratings_update()
    body = client.get(f"/api/teams/{home_team.pk}/ratings/").json()
    assert body["informational"] is True and body["provisional_games"] == 10
    assert body["pair"]["games"] == 1 and body["pair"]["provisional"] is True
    ann = player_rating(home_team.captain)
    [first, _bob] = body["players"]
    assert first["name"] == "Ann" and first["rating"]["rating"] == ann.rating


def test_one_transaction_queues_one_update_however_many_results_it_confirms(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    from django.db import transaction

    from league.kernel import ratings as kernel

    queued = []
    monkeypatch.setattr(kernel, "queue_task", lambda name: queued.append(name))
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        for _ in range(3):
            kernel.ratings_changed()
    assert len(callbacks) == 3 and queued == ["league.tasks.update_ratings"]
    with django_capture_on_commit_callbacks(execute=True):
        kernel.ratings_changed()
    assert len(queued) == 2  # the next transaction queues its own


def test_the_heavy_recompute_runs_as_a_task_in_process(match, home_team, away_team):
    from league.tasks import recompute_ratings

    ann, bob = home_team.players.order_by("name")
    cat, dan = away_team.players.order_by("name")
    seated_game(match, 1, home_team, "2026-09-03T20:00:00Z", [ann, cat, bob, dan])
    done = recompute_ratings.delay().get()
    assert done["replayed"] is True and done["results"] == 1
    assert (done["players"], done["pairs"], done["provisional_players"]) == (4, 2, 4)
    assert player_rating(ann).rating > 1000 > player_rating(cat).rating
