"""The admin is no side door: a season's and a league's rules, a week's season and a player's
account change there only through the services the organiser's page uses (rules check, reason
once played, audit, re-score), or not at all (issue 38, M2 and M3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from league import models
from league.kernel.audit import AuditAction
from league.models.rules import RULE_FIELDS
from tests import factories


@pytest.fixture
def staff_admin(league_admin):
    league_admin.is_staff = True
    league_admin.save()
    return league_admin


def _rules_post(rules_of: models.League | models.Season, **changes: Any) -> dict[str, Any]:
    """What the admin's change form posts for ``rules_of`` (every field, as stored), changed."""
    data: dict[str, Any] = {"name": rules_of.name}
    if isinstance(rules_of, models.Season):
        data.update(
            league=rules_of.league_id,
            playoff_teams=rules_of.playoff_teams,
            draw_seed=rules_of.draw_seed,
        )
        if rules_of.is_current:
            data["is_current"] = "on"
    for name in RULE_FIELDS:
        value = changes.pop(name, getattr(rules_of, name))
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list):
            data[name] = json.dumps(value)
        else:
            data[name] = value
    data.update(changes)
    return data


def test_a_played_seasons_points_change_in_the_admin_only_with_a_reason_audited_and_rescored(
    client, staff_admin, played_season
):
    client.force_login(staff_admin)
    url = f"/admin/league/season/{played_season.pk}/change/"
    versions = dict(models.Game.objects.values_list("pk", "version"))

    client.post(url, _rules_post(played_season, points_per_win=2, games_per_match=5))
    played_season.refresh_from_db()
    assert (played_season.points_per_win, played_season.games_per_match) == (1, 3)

    answer = client.post(
        url, _rules_post(played_season, points_per_win=2, reason="The league voted 2 a win.")
    )
    assert answer.status_code == 302
    played_season.refresh_from_db()
    assert played_season.points_per_win == 2
    entry = models.AuditEntry.objects.get(action=AuditAction.SEASON_RULES_UPDATE)
    assert entry.reason == "The league voted 2 a win." and entry.after == {"points_per_win": 2}
    rescored = dict(models.Game.objects.values_list("pk", "version"))
    assert all(rescored[pk] == version + 1 for pk, version in versions.items())


def test_the_admin_refuses_a_season_whose_rules_cannot_be_played(client, staff_admin, season):
    client.force_login(staff_admin)
    url = f"/admin/league/season/{season.pk}/change/"
    before = (season.variant, season.target, season.skunk_margin)
    answer = client.post(
        url, _rules_post(season, variant="five-card-61", target=500, skunk_margin=0)
    )
    assert answer.status_code == 200  # the form again, with the refusal
    season.refresh_from_db()
    assert (season.variant, season.target, season.skunk_margin) == before
    assert not models.AuditEntry.objects.filter(action=AuditAction.SEASON_RULES_UPDATE).exists()


def test_the_admin_refuses_a_tie_break_that_does_not_exist(client, staff_admin, season):
    client.force_login(staff_admin)
    client.post(
        f"/admin/league/season/{season.pk}/change/", _rules_post(season, tiebreaks=["nope"])
    )
    season.refresh_from_db()
    assert "nope" not in season.tiebreaks


def test_a_leagues_default_rules_are_checked_and_audited_in_the_admin(client, staff_admin, league):
    client.force_login(staff_admin)
    url = f"/admin/league/league/{league.pk}/change/"
    client.post(url, _rules_post(league, tiebreaks=["nope"], skunk_margin=0))
    league.refresh_from_db()
    assert league.tiebreaks != ["nope"] and league.skunk_margin != 0

    answer = client.post(url, _rules_post(league, skunk_bonus=2))
    assert answer.status_code == 302
    league.refresh_from_db()
    assert league.skunk_bonus == 2
    assert models.AuditEntry.objects.filter(
        action=AuditAction.LEAGUE_UPDATE, after={"skunk_bonus": 2}
    ).exists()


def test_a_played_week_stays_in_its_season(client, staff_admin, played_season, league):
    other = factories.SeasonFactory(league=league, name="Spring 2027", is_current=False)
    week = played_season.weeks.get(number=1)
    client.force_login(staff_admin)
    client.post(
        f"/admin/league/week/{week.pk}/change/",
        {"season": other.pk, "number": 1, "date": "2026-09-03", "is_playoff": ""},
    )
    week.refresh_from_db()
    assert week.season_id == played_season.pk
