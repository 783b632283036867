"""The admin is no side door: a season's and a league's rules, a week's season and a player's
account change there only through the services the organiser's page uses (rules check, reason
once played, audit, re-score), or not at all (security review, M2 and M3)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from league import models
from league.kernel.audit import AuditAction
from league.kernel.errors import NotAllowed, ValidationFailed
from league.models.rules import RULE_FIELDS
from league.services.rules import season_details_update
from league.services.season_ops import OPS_FIELDS
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
        for name in OPS_FIELDS:  # the season's night settings (forfeits, results that close)
            value = getattr(rules_of, name)
            if value is True:
                data[name] = "on"
            elif value is not None and value is not False:
                data[name] = value
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
    other = factories.SeasonFactory(league=league, name="Spring 2027", state="finished")
    week = played_season.weeks.get(number=1)
    client.force_login(staff_admin)
    client.post(
        f"/admin/league/week/{week.pk}/change/",
        {"season": other.pk, "number": 1, "date": "2026-09-03", "is_playoff": ""},
    )
    week.refresh_from_db()
    assert week.season_id == played_season.pk


def _link(client, player: models.Player, account: Any) -> Any:
    return client.post(
        f"/admin/league/player/{player.pk}/change/",
        {"name": player.name, "user": account.pk if account else ""},
    )


def test_an_admin_cannot_link_himself_to_both_teams_of_a_game(client, staff_admin, game):
    """The review's reproduction: linked to a player of one team he enters the game, then linked
    to a player of the other team he would confirm it: a result neither team saw."""
    from league.kernel.errors import DomainError
    from league.services.games import game_confirm
    from tests.factories import play_until_over

    dan, bob = models.Player.objects.get(name="Dan"), models.Player.objects.get(name="Bob")
    client.force_login(staff_admin)
    _link(client, dan, staff_admin)
    dan.refresh_from_db()
    assert dan.user_id == staff_admin.pk  # his account had never acted in this season
    play_until_over(game, get_user_model().objects.get(pk=staff_admin.pk))  # entered as Nobs
    _link(client, dan, None)
    answer = _link(client, bob, staff_admin)

    assert answer.status_code == 200  # the form again, saying why not
    bob.refresh_from_db()
    assert bob.user_id != staff_admin.pk
    with pytest.raises(DomainError):
        game_confirm(game=game, user=get_user_model().objects.get(pk=staff_admin.pk))
    links = models.AuditEntry.objects.filter(action=AuditAction.PLAYER_LINK, object_id=dan.pk)
    assert [e.after for e in links.order_by("pk")] == [{"account": "lena"}, {"account": None}]


def test_an_account_that_voided_a_game_is_not_linked_to_a_player_of_it(
    client, staff_admin, judge, game
):
    from league.services.games import game_void

    game_void(game=game, user=judge, reason="Played at the wrong table.")
    client.force_login(staff_admin)
    ann = models.Player.objects.get(name="Ann")
    _link(client, ann, judge)
    ann.refresh_from_db()
    assert ann.user_id != judge.pk


def test_an_account_already_linked_to_a_player_is_refused_in_words(staff_admin, home_team):
    from league.kernel.errors import ValidationFailed
    from league.services.people import player_link

    ann, bob = (models.Player.objects.get(name=n) for n in ("Ann", "Bob"))
    with pytest.raises(ValidationFailed, match="already linked to Bob"):
        player_link(player=ann, account=bob.user, user=staff_admin)


def test_a_season_is_renamed_in_the_admin_through_its_service_and_on_record(
    client, staff_admin, season
):
    client.force_login(staff_admin)
    url = f"/admin/league/season/{season.pk}/change/"
    answer = client.post(url, _rules_post(season, name="Fall 2026 (Thursdays)", playoff_teams=6))
    assert answer.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.playoff_teams) == ("Fall 2026 (Thursdays)", 6)
    entry = models.AuditEntry.objects.get(action=AuditAction.SEASON_UPDATE)
    assert entry.before["name"] == "Fall 2026" and entry.after["name"] == "Fall 2026 (Thursdays)"


def test_a_refused_rules_change_takes_the_rename_back_with_it(client, staff_admin, played_season):
    client.force_login(staff_admin)
    url = f"/admin/league/season/{played_season.pk}/change/"
    client.post(url, _rules_post(played_season, name="Renamed", points_per_win=2))  # no reason
    played_season.refresh_from_db()
    assert (played_season.name, played_season.points_per_win) == ("Fall 2026", 1)
    assert not models.AuditEntry.objects.filter(action=AuditAction.SEASON_UPDATE).exists()


def test_a_seasons_details_stop_changing_when_results_depend_on_them(
    league_admin, played_season, ann
):
    with pytest.raises(NotAllowed):
        season_details_update(season=played_season, user=ann, name="Mine")
    with pytest.raises(ValidationFailed, match="draw seed no longer changes"):
        season_details_update(season=played_season, user=league_admin, draw_seed=7)
    models.Season.objects.filter(pk=played_season.pk).update(playoff_seeding=["Fifteen Two"])
    with pytest.raises(ValidationFailed, match="number of places no longer changes"):
        season_details_update(season=played_season, user=league_admin, playoff_teams=2)
    renamed = season_details_update(season=played_season, user=league_admin, name=" Fall '26 ")
    assert renamed.name == "Fall '26"
    factories.SeasonFactory(league=played_season.league, name="Spring 2027")
    with pytest.raises(ValidationFailed, match="already has a season called Spring 2027"):
        season_details_update(season=played_season, user=league_admin, name="Spring 2027")


def test_after_a_mistaken_relink_the_players_own_account_links_back(client, staff_admin, game):
    """Ann's account entered Ann's games; an admin moved it to a newcomer by mistake. Linked
    back to Ann it vouches for no one but Ann, as before: the link is allowed, on record."""
    from tests.factories import play

    ann = models.Player.objects.get(name="Ann")
    account = ann.user
    play(game, account, deals=2)  # Ann's own acts on Ann's own game
    newcomer = models.Player.objects.create(name="Nell Newcomer")
    client.force_login(staff_admin)
    _link(client, ann, None)
    _link(client, newcomer, account)  # the mistake
    newcomer.refresh_from_db()
    assert newcomer.user_id == account.pk
    _link(client, newcomer, None)
    answer = _link(client, ann, account)
    assert answer.status_code == 302, answer.content.decode()[:400]
    ann.refresh_from_db()
    assert ann.user_id == account.pk
    # ... and still no account reaches the other team: Ann's goes to no player of Nobs.
    _link(client, ann, None)
    dan = models.Player.objects.get(name="Dan")
    _link(client, dan, account)
    dan.refresh_from_db()
    assert dan.user_id != account.pk
