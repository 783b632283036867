"""Where an event plays ACC rules, two cards that disagree are settled by Rule 12.2 as the
second card comes in; the checker sees the clause, can undo it, and what the rule cannot
settle waits in the checkers' queue as before."""

from __future__ import annotations

import pytest

from league.models import AuditEntry
from tests.tournaments.conftest import play_round, user_of
from tournaments import selectors, services
from tournaments.models import Scorecard, TableState


@pytest.fixture
def night(night, director):
    """The club night with ACC Rule 12.2 on, as club nights have it by default."""
    return services.tournament_update(user=director, tournament=night, changes={"acc_rules": True})


def _second_round(night, director):
    """Round 1 played (every first-listed entrant wins by 21), round 2 seated: the three
    winners and the bye are level at the top, inside the cut of 2 of 7."""
    play_round(night, director, winner_first=True, score=100)
    return services.round_seat_next(user=director, tournament=night)


def _qualifiers(night):
    data = selectors.standings_for_tournament(night)
    line = {s.record.entrant: s.rank for s in data["ranked"]}
    last = line[data["qualifiers"][-1]]
    return {name for name, rank in line.items() if rank <= last}


def _table_with(rnd, qualifiers, count):
    for game in rnd.games.order_by("table"):
        if sum(e.name in qualifiers for e in (game.first, game.second)) == count:
            return game
    raise AssertionError(f"no table with {count} apparent qualifier(s)")


def test_the_rules_own_example_a_qualifiers_21_point_win_becomes_16(night, director, field):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    # The qualifier claims a 21-point win (loser on 100), the opponent a 16-point loss (105).
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED
    assert (game.winner_id, game.loser_score) == (q.pk, 105)  # a 16-point win
    ruling = Scorecard.objects.get(game=game, by_checker=True)
    assert ruling.acc_clause == "12.2(a)"
    entry = AuditEntry.objects.get(action="scorecard_acc_resolve")
    assert entry.after["clause"] == "12.2(a)" and entry.reason == "ACC Rule 12.2(a)"
    assert game not in selectors.checkers_queue()
    row = next(
        r for r in selectors.standings_for_tournament(night)["standings"] if r["entrant"] == q.name
    )
    assert row["spread"] == 21 + 16


def test_a_loser_who_qualifies_takes_the_larger_loss(night, director, field):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(other), game=game, winner=other, loser_score=90)
    services.scorecard_enter(user=user_of(q), game=game, winner=other, loser_score=110)
    game.refresh_from_db()
    assert (game.status, game.winner_id, game.loser_score) == (TableState.VERIFIED, other.pk, 90)


def _row(night, name):
    return next(
        r for r in selectors.standings_for_tournament(night)["standings"] if r["entrant"] == name
    )


def test_two_qualifiers_with_different_spreads_each_keep_the_worse_figure(night, director, field):
    """12.2(b): a 16-point win against a 17-point loss. The table stores both figures and the
    standings count each side's own: the winner +16, the loser -17."""
    rnd = _second_round(night, director)
    game = _table_with(rnd, _qualifiers(night), 2)
    before = {e.name: _row(night, e.name) for e in (game.first, game.second)}
    services.scorecard_enter(
        user=user_of(game.first), game=game, winner=game.first, loser_score=104
    )
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.first, loser_score=105
    )
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game not in selectors.checkers_queue()
    assert (game.winner_id, game.loser_score) == (game.first_id, 105)  # the winner's 16
    assert (game.first_spread, game.second_spread) == (16, -17)
    assert services.acc_clause_of(game) == "12.2(b)"
    first, second = _row(night, game.first.name), _row(night, game.second.name)
    assert first["spread"] - before[game.first.name]["spread"] == 16
    assert second["spread"] - before[game.second.name]["spread"] == -17
    assert (first["won"], second["lost"]) == (
        before[game.first.name]["won"] + 1,
        before[game.second.name]["lost"] + 1,
    )
    entry = AuditEntry.objects.get(action="scorecard_acc_resolve")
    assert entry.after["spreads"] == {game.first.name: 16, game.second.name: -17}


def test_both_claiming_the_win_is_a_loss_for_both(night, director, field, judge):
    """12.2(e): both cards claim the win, the spreads in the plus column: a loss for both,
    each with its own spread in the minus column. Undone, the table goes back to the queue."""
    rnd = _second_round(night, director)
    game = _table_with(rnd, _qualifiers(night), 1)
    before = {e.name: _row(night, e.name) for e in (game.first, game.second)}
    services.scorecard_enter(
        user=user_of(game.first), game=game, winner=game.first, loser_score=100
    )
    services.scorecard_enter(
        user=user_of(game.second), game=game, winner=game.second, loser_score=110
    )
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game.winner_id is None
    assert (game.first_spread, game.second_spread) == (-21, -11)
    ruling = Scorecard.objects.get(game=game, by_checker=True)
    assert (ruling.acc_clause, ruling.winner_id) == ("12.2(e)", None)
    for entrant, spread in ((game.first, -21), (game.second, -11)):
        row, was = _row(night, entrant.name), before[entrant.name]
        assert (row["won"], row["lost"]) == (was["won"], was["lost"] + 1)
        assert (row["spread"] - was["spread"], row["game_points"]) == (spread, was["game_points"])
    game = services.scorecard_acc_reverse(user=judge, game=game)
    assert game.status == TableState.MISMATCH and game in selectors.checkers_queue()
    assert (game.first_spread, game.second_spread) == (None, None)
    assert {e.name: _row(night, e.name) for e in (game.first, game.second)} == before


def test_without_acc_rules_a_disagreement_goes_to_the_checkers(night, director, field):
    services.tournament_update(user=director, tournament=night, changes={"acc_rules": False})
    night.refresh_from_db()
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    game.refresh_from_db()
    assert game.status == TableState.MISMATCH


def test_a_checker_undoes_the_rule_and_settles_the_table(night, director, field, judge):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    game = services.scorecard_acc_reverse(user=judge, game=game)
    assert game.status == TableState.MISMATCH and game.winner_id is None
    assert game in selectors.checkers_queue()
    assert AuditEntry.objects.get(action="scorecard_acc_reverse").before["clause"] == "12.2(a)"
    game = services.scorecard_settle(user=judge, game=game, winner=q, loser_score=100)
    assert (game.status, game.loser_score) == (TableState.VERIFIED, 100)
    # The checker's own ruling is not the rule's: there is nothing more to undo.
    with pytest.raises(Exception, match="not settled by the ACC rule"):
        services.scorecard_acc_reverse(user=judge, game=game)


def test_a_player_cannot_undo_the_rule(night, director, field):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    with pytest.raises(Exception):  # noqa: B017 - the refusal's class is the kernel's
        services.scorecard_acc_reverse(user=user_of(q), game=game)
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED


def test_only_club_nights_play_acc_rules_by_default(director):
    main = services.tournament_create(user=director, name="Open", kind="main")
    night = services.tournament_create(user=director, name="Tuesday")
    assert (main.acc_rules, night.acc_rules) == (False, True)


def test_the_checker_sees_the_clause_in_the_admin_and_undoes_it(
    night, director, field, judge, client
):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    judge.is_staff = True
    judge.save()
    client.force_login(judge)
    url = "/admin/tournaments/accruling/"
    page = client.get(url).content.decode()
    assert "ACC Rule 12.2(a)" in page and f"{q.name} won, loser 105" in page
    client.post(url, {"action": "undo_ruling", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.status == TableState.MISMATCH
    assert "12.2(a)" not in client.get(url).content.decode()


def test_the_api_names_the_clause_and_a_checker_undoes_it_there(night, director, field, judge):
    from rest_framework.test import APIClient

    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    api = APIClient()
    url = f"/api/tournament-tables/{game.pk}/"
    assert api.get(url).json()["acc_rule"] == "12.2(a)"
    assert api.post(url + "acc-undo/").status_code in (401, 403)  # a visitor changes nothing
    api.force_authenticate(judge)
    answer = api.post(url + "acc-undo/")
    assert answer.status_code == 200
    assert (answer.json()["state"], answer.json()["acc_rule"]) == ("mismatch", "")


def test_the_player_whose_card_met_the_other_is_told_what_the_rule_did(
    client, night, director, field
):
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = (
        (game.first, game.second) if game.first.name in qualifiers else (game.second, game.first)
    )
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
    client.force_login(user_of(other))
    side = "winner"
    page = client.post(
        f"/tournaments/tables/{game.pk}/scorecard/",
        {side: str(q.pk), "loser_score": 105},
        follow=True,
    )
    html = page.content.decode()
    assert "ACC Rule 12.2(a) settled the game" in html and f"{q.name} winning" in html


def test_the_player_is_told_each_sides_figure_when_the_rule_splits_them(
    client, night, director, field
):
    rnd = _second_round(night, director)
    game = _table_with(rnd, _qualifiers(night), 1)
    services.scorecard_enter(
        user=user_of(game.first), game=game, winner=game.first, loser_score=100
    )
    client.force_login(user_of(game.second))
    page = client.post(
        f"/tournaments/tables/{game.pk}/scorecard/",
        {"winner": str(game.second.pk), "loser_score": 110},
        follow=True,
    )
    html = page.content.decode()
    assert "ACC Rule 12.2(e) settled the game" in html
    assert f"a loss for both: {game.first.name} by 21, {game.second.name} by 11" in html


def _qualifier_and_other(game, qualifiers):
    if game.first.name in qualifiers:
        return game.first, game.second
    return game.second, game.first


def test_no_harm_no_foul_both_entries_stand_when_the_qualifier_wrote_the_worse_figure(
    night, director, field
):
    """12.2(h): the qualifier's own card says a 16-point win, the opponent's a 21-point loss:
    the qualifier's error is already to their disadvantage, so each keeps its own card."""
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = _qualifier_and_other(game, qualifiers)
    before = {e.name: _row(night, e.name) for e in (q, other)}
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=105)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=100)
    game.refresh_from_db()
    assert game.status == TableState.VERIFIED and game not in selectors.checkers_queue()
    assert services.acc_clause_of(game) == "12.2(h)"
    own = {game.first_id: game.first_spread, game.second_id: game.second_spread}
    assert (own[q.pk], own[other.pk]) == (16, -21)
    assert _row(night, q.name)["spread"] - before[q.name]["spread"] == 16
    assert _row(night, other.name)["spread"] - before[other.name]["spread"] == -21


def test_with_no_harm_no_foul_off_the_qualifiers_smaller_win_goes_on_both_cards(
    night, director, field
):
    services.tournament_update(user=director, tournament=night, changes={"acc_no_harm": False})
    night.refresh_from_db()
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = _qualifier_and_other(game, qualifiers)
    services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=105)
    services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=100)
    game.refresh_from_db()
    assert services.acc_clause_of(game) == "12.2(a)"
    assert (game.winner_id, game.loser_score, game.first_spread) == (q.pk, 105, None)


def _emailed(entrants):
    for entrant in entrants:
        user = user_of(entrant)
        user.email = f"{user.username}@example.com"
        user.save()


def test_the_qualifier_whose_card_the_rule_changed_is_told(
    night, director, field, django_capture_on_commit_callbacks
):
    """12.2(i): the qualifier's 21-point win became a 16-point win: their player hears it (once,
    with the clause and the figure); the opponent, no qualifier, hears nothing."""
    from django.core import mail

    _emailed(field)
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = _qualifier_and_other(game, qualifiers)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=100)
        services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=105)
    told = [m for m in mail.outbox if "your scorecard was changed" in m.subject]
    assert [m.to[0] for m in told] == [user_of(q).email]
    assert f"table {game.table}" in told[0].subject.lower()
    assert "ACC Rule 12.2(a)" in told[0].body and f"{q.name} won by 16" in told[0].body
    assert f"/tournaments/tables/{game.pk}/scorecard/" in told[0].body


def test_nobody_is_told_when_both_entries_stand(
    night, director, field, django_capture_on_commit_callbacks
):
    from django.core import mail

    _emailed(field)
    rnd = _second_round(night, director)
    qualifiers = _qualifiers(night)
    game = _table_with(rnd, qualifiers, 1)
    q, other = _qualifier_and_other(game, qualifiers)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.scorecard_enter(user=user_of(q), game=game, winner=q, loser_score=105)
        services.scorecard_enter(user=user_of(other), game=game, winner=q, loser_score=100)
    assert services.acc_clause_of(game) == "12.2(h)"
    assert not [m for m in mail.outbox if "your scorecard was changed" in m.subject]
