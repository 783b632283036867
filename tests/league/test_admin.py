"""The judges' panel: the queue, the dispute page with the game deal by deal, the actions."""

from __future__ import annotations

import json

import pytest

from league.models import DisputeStatus
from league.services.disputes import dispute_raise
from tests.factories import play_until_over


@pytest.fixture
def staff_judge(judge):
    judge.is_staff = True
    judge.save()
    return judge


@pytest.fixture
def dispute(game, ann, cat):
    play_until_over(game, ann)
    return dispute_raise(game=game, user=cat, claim="Deal 1: the crib was 2", deal_number=1)


def test_a_judge_finds_the_dispute_in_the_queue_and_reads_the_game(client, staff_judge, dispute):
    client.force_login(staff_judge)
    queue = client.get("/admin/league/dispute/?status__exact=open")
    assert queue.status_code == 200 and "Dispute #" in queue.content.decode()
    page = client.get(f"/admin/league/dispute/{dispute.pk}/change/").content.decode()
    assert "Deal 1: the crib was 2" in page
    assert "Fifteen Two" in page and "Nobs" in page  # the deals table with running totals
    assert "Deal 1 entered." in page  # the game's audit trail, in words
    assert "&quot;pegging&quot;" in page or '"pegging"' in page  # deal 1, ready to correct


def test_assign_to_me_moves_the_dispute_to_review(client, staff_judge, dispute):
    client.force_login(staff_judge)
    client.post(
        "/admin/league/dispute/",
        {"action": "assign_to_me", "_selected_action": [dispute.pk]},
    )
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.IN_REVIEW and dispute.judge == staff_judge


def test_the_queue_filters_by_the_judges_who_have_disputes_not_by_every_player(
    client, staff_judge, dispute
):
    client.force_login(staff_judge)
    client.post(
        "/admin/league/dispute/",
        {"action": "assign_to_me", "_selected_action": [dispute.pk]},
    )
    page = client.get("/admin/league/dispute/").content.decode()
    assert f"judge__id__exact={staff_judge.pk}" in page
    assert "judge__id__exact=" in page and page.count("judge__id__exact=") == 1


def test_an_open_dispute_shows_the_ruling_form_once_and_a_closed_one_what_was_ruled(
    client, staff_judge, dispute
):
    client.force_login(staff_judge)
    page = client.get(f"/admin/league/dispute/{dispute.pk}/change/").content.decode()
    assert 'name="decision"' in page and 'name="ruling_text"' in page
    assert "Ruled at" not in page and page.count("Rule cited") == 1  # the form's own label
    client.post(
        f"/admin/league/dispute/{dispute.pk}/change/",
        {"decision": "dismiss", "ruling_text": "The crib was 4.", "rule": "S-9", "corrections": ""},
    )
    page = client.get(f"/admin/league/dispute/{dispute.pk}/change/").content.decode()
    assert "Ruled at" in page and "The crib was 4." in page and 'name="decision"' not in page


def test_a_ruling_through_the_admin_form_is_applied_by_the_service(client, staff_judge, dispute):
    client.force_login(staff_judge)
    answer = client.post(
        f"/admin/league/dispute/{dispute.pk}/change/",
        {"decision": "dismiss", "ruling_text": "The crib was 4.", "rule": "S-9", "corrections": ""},
    )
    assert answer.status_code == 302
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.DISMISSED and dispute.rule_reference == "S-9"


def test_a_captain_cannot_open_the_judges_panel(client, ann, dispute):
    ann.is_staff = True
    ann.save()
    client.force_login(ann)
    assert client.get(f"/admin/league/dispute/{dispute.pk}/change/").status_code == 403


@pytest.mark.parametrize(
    "corrections",
    [
        '{"1": ' + "[" * 100_000 + "]" * 100_000 + "}",  # 100,000 deep: past the size limit
        '{"1": {"pegging": ' + "[" * 40_000 + "]" * 40_000 + "}}",  # deep, within the limit
        '{"1": {"pegging": ' + "[" * 900 + "]" * 900 + "}}",  # parses; the deal is nonsense
        '{"1": {"shows": {"0": ' + str(2**64) + "}}}",
    ],
    ids=["100000-deep", "40000-deep", "900-deep", "huge-number"],
)
def test_corrections_nested_absurdly_deep_are_a_form_error_not_a_500(
    client, staff_judge, dispute, corrections
):
    client.force_login(staff_judge)
    client.raise_request_exception = False
    answer = client.post(
        f"/admin/league/dispute/{dispute.pk}/change/",
        {
            "decision": "resolve",
            "ruling_text": "The crib was 4.",
            "rule": "S-9",
            "corrections": corrections,
        },
    )
    assert answer.status_code == 200, answer.status_code  # the form again, with its error
    assert "errorlist" in answer.content.decode()
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN


def test_the_dispute_page_in_french_spaces_its_colons(client, staff_judge, dispute):
    client.force_login(staff_judge)
    page = client.get(
        f"/admin/league/dispute/{dispute.pk}/change/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "places : Ann, Cat, Bob, Dan" in page
    assert "état : contestée, en attente d&#x27;un arbitre" in page or (
        "état : contestée, en attente d'un arbitre" in page
    )


def test_the_rule_cited_list_says_which_rules_the_season_plays(client, staff_judge, dispute):
    client.force_login(staff_judge)
    page = client.get(f"/admin/league/dispute/{dispute.pk}/change/").content.decode()
    played, _, not_played = page.partition('<optgroup label="Not played this season">')
    assert '<optgroup label="Played this season">' in played
    assert '<option value="S-9">S-9 No muggins</option>' in played
    assert "X-1 Misdeal (an irregularity rule this season leaves off)" in not_played
    assert "D-5 Three for last (only five-card cribbage gives three for last)" in not_played
    answer = client.post(
        f"/admin/league/dispute/{dispute.pk}/change/",
        {"decision": "dismiss", "ruling_text": "Redeal.", "rule": "X-1", "corrections": ""},
    )
    assert (
        "This season does not play rule X-1 (an irregularity rule this season leaves off): "
        "cite another rule." in answer.content.decode()
    )
    dispute.refresh_from_db()
    assert dispute.status == DisputeStatus.OPEN


def _league_form_data(**changes):
    from league.models import League
    from league.models.rules import RULE_FIELDS

    data = {"name": "Sevens"}
    for name in RULE_FIELDS:
        value = League._meta.get_field(name).get_default()
        if isinstance(value, list):
            value = json.dumps(value)
        if value is False:
            continue
        data[name] = "on" if value is True else value
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"variant": "seven-card-181"}, (181, 46, 91)),
        ({"variant": "five-card-61"}, (61, 31, 61)),
        ({"variant": "partnership-121", "target": 61}, (61, 31, 61)),
        ({"variant": "seven-card-181", "skunk_margin": 40}, (181, 40, 91)),
    ],
)
def test_a_league_added_in_the_admin_takes_its_games_defaults(league_admin, changes, expected):
    """The form shows the model's defaults (121, 31, 61) before a game is chosen: what the
    organiser leaves as shown comes from the game and the skunk table, not from the form."""
    from league.admin import LeagueForm

    form = LeagueForm(data=_league_form_data(**changes))
    form.request_user = league_admin
    assert form.is_valid(), form.errors
    league = type(form.instance).objects.get(name="Sevens")  # what the service stored
    assert (league.target, league.skunk_margin, league.double_skunk_margin) == expected
