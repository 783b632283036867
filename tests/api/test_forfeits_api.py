"""Forfeits over the API: a judge or league admin records one, a judge undoes it, the match and
its games say "forfeit", the standings follow, and every refusal is the service's."""

from __future__ import annotations

from league.models import Forfeit, Game


def url(match, undo=False):
    return f"/api/matches/{match.pk}/forfeit/" + ("undo/" if undo else "")


def test_a_league_admin_records_a_forfeit_and_the_match_says_so(
    client_for, api, match, away_team, league_admin
):
    answer = client_for(league_admin).post(
        url(match), {"team": away_team.pk, "reason": "Nobs did not come"}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["forfeit"]["team"]["name"] == "Nobs"
    assert body["forfeit"]["reason"] == "Nobs did not come"
    assert body["forfeit"]["games"] == [1, 2, 3]
    assert [(g["forfeit"], g["status"], g["winner"]["name"]) for g in body["games"]] == [
        (True, "confirmed", "Fifteen Two")
    ] * 3
    # Everyone reads it; a visitor may neither record nor undo one.
    seen = api.get(f"/api/matches/{match.pk}/").json()
    assert seen["forfeit"]["team"]["name"] == "Nobs"
    assert seen["can_forfeit"] is False and seen["can_undo_forfeit"] is False
    game = api.get(f"/api/games/{match.games.first().pk}/").json()
    assert game["forfeit"] is True and game["deal_count"] == 0
    standings = api.get(f"/api/seasons/{match.week.season_id}/standings/").json()
    rows = {r["team"]: r for r in standings["standings"]}
    assert (rows["Fifteen Two"]["won"], rows["Fifteen Two"]["points"]) == (3, 3)
    assert rows["Fifteen Two"]["weeks_won"] == 1


def test_a_captain_cannot_record_a_forfeit_and_nothing_changes(client_for, match, ann, away_team):
    answer = client_for(ann).post(
        url(match), {"team": away_team.pk, "reason": "They left"}, format="json"
    )
    assert answer.status_code == 403
    assert answer.json()["refusal"] == "not_official_forfeit"
    assert not Game.objects.exists() and not Forfeit.objects.exists()


def test_a_forfeit_with_no_reason_or_a_team_not_playing_is_refused(
    client_for, match, other_team, away_team, judge
):
    client = client_for(judge)
    empty = client.post(url(match), {"team": away_team.pk, "reason": "  "}, format="json")
    assert empty.status_code == 400 and empty.json()["field"] == "reason"
    stranger = client.post(url(match), {"team": other_team.pk, "reason": "x"}, format="json")
    assert stranger.status_code == 400 and stranger.json()["field"] == "team"
    assert not Forfeit.objects.exists()


def test_only_a_judge_undoes_a_forfeit(client_for, match, away_team, judge, league_admin):
    client_for(league_admin).post(
        url(match), {"team": away_team.pk, "reason": "No show"}, format="json"
    )
    refused = client_for(league_admin).post(
        url(match, undo=True), {"reason": "Wrong night"}, format="json"
    )
    assert refused.status_code == 403
    assert client_for(judge).get(f"/api/matches/{match.pk}/").json()["can_undo_forfeit"]
    undone = client_for(judge).post(url(match, undo=True), {"reason": "Wrong night"}, format="json")
    assert undone.status_code == 200, undone.json()
    assert undone.json()["forfeit"] is None
    assert {g["status"] for g in undone.json()["games"]} == {"void"}
    again = client_for(judge).post(url(match, undo=True), {"reason": "Twice"}, format="json")
    assert again.status_code == 409 and again.json()["refusal"] == "no_forfeit"
