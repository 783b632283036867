"""Disputes and rulings: fair, visible and on record."""

from __future__ import annotations

import pytest
from django.core import mail

from league.kernel.errors import NotAllowed, ValidationFailed
from league.models import AuditEntry, Deal, DisputeStatus, GameStatus
from league.selectors.standings import standings_for_season
from league.services.disputes import dispute_assign, dispute_raise, dispute_rule, game_reject
from tests.factories import losers_pegging_struck_out, plain_deal, play_until_over


@pytest.fixture
def finished_game(game, ann, cat):
    for user, _team in ((ann, game.match.home), (cat, game.match.away)):
        user.email = f"{user.username}@example.com"
        user.save()
    play_until_over(game, ann)
    game.refresh_from_db()
    return game


def test_a_captain_raises_a_dispute_and_both_teams_players_are_emailed(
    finished_game, cat, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        dispute = dispute_raise(
            game=finished_game, user=cat, claim="Deal 1 crib was 2, not 4", deal_number=1
        )
    assert dispute.status == DisputeStatus.OPEN
    assert dispute.raised_by_team == finished_game.match.away
    # Each player of both teams with an address gets their own mail (Bob and Dan have none).
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.com", "cat@example.com"]
    assert all("Dispute raised" in m.subject for m in mail.outbox)


def test_rejecting_at_confirmation_raises_a_dispute(finished_game, cat):
    dispute = game_reject(game=finished_game, user=cat, claim="We never pegged 3 in deal 2")
    assert dispute.game == finished_game and dispute.status == DisputeStatus.OPEN


def test_a_player_of_another_team_cannot_raise_a_dispute(finished_game, eve):
    with pytest.raises(NotAllowed):
        dispute_raise(game=finished_game, user=eve, claim="x")


def test_a_judge_corrects_a_deal_citing_a_rule_and_everything_follows(
    finished_game, cat, ann, judge, django_capture_on_commit_callbacks
):
    season = finished_game.match.week.season
    before = standings_for_season(season)
    number, data = losers_pegging_struck_out(finished_game)
    dispute = game_reject(
        game=finished_game, user=cat, claim="We pegged nothing in the last deal", deal_number=number
    )
    finished_game.refresh_from_db()
    assert finished_game.status == GameStatus.DISPUTED
    dispute_assign(dispute=dispute, judge=judge)
    with django_capture_on_commit_callbacks(execute=True):
        dispute = dispute_rule(
            dispute=dispute,
            judge=judge,
            ruling="Each hand made 6.",
            rule_reference="S-2",
            corrections={number: data},
        )
    finished_game.refresh_from_db()
    season.refresh_from_db()
    assert dispute.status == DisputeStatus.RESOLVED and dispute.rule_reference == "S-2"
    assert Deal.objects.get(game=finished_game, number=number, is_current=True).version == 2
    correction = AuditEntry.objects.get(action="deals_correct")
    assert "S-2" in correction.reason and correction.actor == judge
    after = standings_for_season(season)
    assert after["results_version"] > before["results_version"]
    assert finished_game.status == GameStatus.CONFIRMED
    loser = min(finished_game.home_score, finished_game.away_score)
    assert finished_game.margin == 121 - loser


def test_a_ruling_must_cite_a_known_rule(finished_game, cat, judge):
    dispute = dispute_raise(game=finished_game, user=cat, claim="x")
    with pytest.raises(ValidationFailed):
        dispute_rule(dispute=dispute, judge=judge, ruling="No.", rule_reference="Z-9")
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN


def test_a_judge_cannot_rule_on_their_own_teams_dispute(finished_game, cat, ann):
    from django.contrib.auth.models import Group

    from league.kernel.permissions import JUDGES

    ann.groups.add(Group.objects.get_or_create(name=JUDGES)[0])
    dispute = dispute_raise(game=finished_game, user=cat, claim="x")
    with pytest.raises(NotAllowed):
        dispute_rule(dispute=dispute, judge=ann, ruling="Fine.", rule_reference="S-2", dismiss=True)


def test_a_refused_correction_changes_nothing(finished_game, cat, judge):
    dispute = dispute_raise(game=finished_game, user=cat, claim="x")
    bad = plain_deal(0)
    bad["shows"]["1"] = 19
    with pytest.raises(ValidationFailed):
        dispute_rule(
            dispute=dispute, judge=judge, ruling="r", rule_reference="S-8", corrections=[(1, bad)]
        )
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN
    assert Deal.objects.filter(game=finished_game, number=1).count() == 1


def test_the_judges_form_starts_from_the_disputed_deal_and_edits_only_its_numbers(
    finished_game, cat, judge
):
    import json

    from league.admin import DisputeRulingForm

    number, corrected = losers_pegging_struck_out(finished_game)
    dispute = dispute_raise(game=finished_game, user=cat, claim="We pegged 0", deal_number=number)
    form_class = type("Form", (DisputeRulingForm,), {"request_user": judge})
    # The correction form (the phone's deal form, judge mode) starts from the deal as it stands.
    judge_form = form_class(instance=dispute).fields["corrections"].widget.judge
    assert judge_form["disputed"] == number
    prefilled = {str(number): judge_form["deals"][number - 1]["deal"]}
    assert prefilled[str(number)]["shows"]
    prefilled[str(number)]["pegging"] = corrected["pegging"]
    form = form_class(
        data={
            "decision": "resolve",
            "ruling_text": "They pegged nothing.",
            "rule": "P-5",
            "corrections": json.dumps(prefilled),
        },
        instance=dispute,
    )
    assert form.is_valid(), form.errors
    assert Deal.objects.get(game=finished_game, number=number, is_current=True).version == 2


def test_resolving_with_the_deal_unchanged_adds_no_version(finished_game, cat, judge):
    from league.models import Deal
    from league.selectors.games import stored_deal

    dispute = dispute_raise(game=finished_game, user=cat, claim="Check deal 1", deal_number=1)
    same = stored_deal(Deal.objects.get(game=finished_game, number=1, is_current=True))
    dispute_rule(
        dispute=dispute,
        judge=judge,
        ruling="The count stands.",
        rule_reference="S-9",
        corrections={1: same},
    )
    assert Deal.objects.filter(game=finished_game, number=1).count() == 1
