"""A season's life at its other doors: the API, the admin and the season archive. Each calls
the services of league/services/seasons.py, so each refuses and records the same things."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from league.kernel.audit import AuditAction
from league.models import AuditEntry, Season, SeasonState
from league.services.archive import ArchiveRefused, export_season
from league.services.archive_import import import_season
from league.services.rules import season_create
from tests.factories import make_archive, wipe_league_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(league, league_admin):
    return season_create(league=league, user=league_admin, name="Spring 2027")


def test_the_api_gives_each_season_its_state_and_hides_drafts(season, draft, ann, league_admin):
    api = APIClient()
    for who in (None, ann):
        api.force_authenticate(who)
        rows = api.get("/api/seasons/").json()["results"]
        assert [(r["name"], r["state"], r["is_current"]) for r in rows] == [
            ("Fall 2026", "running", True)
        ]
        assert api.get(f"/api/seasons/{draft.pk}/").status_code == 404
    api.force_authenticate(league_admin)
    rows = {r["name"]: r["state"] for r in api.get("/api/seasons/").json()["results"]}
    assert rows == {"Fall 2026": "running", "Spring 2027": "draft"}
    running = api.get("/api/seasons/?state=running").json()["results"]
    assert [r["name"] for r in running] == ["Fall 2026"]


def test_the_api_moves_a_season_through_the_services(season, draft, league_admin, ann):
    api = APIClient()
    api.force_authenticate(ann)
    refused = api.post(f"/api/seasons/{season.pk}/finish/", {"reason": "x"}, format="json")
    assert refused.status_code == 403
    api.force_authenticate(league_admin)
    empty = api.post(f"/api/seasons/{draft.pk}/publish/")
    assert empty.status_code == 400 and "no teams yet" in empty.json()["detail"]
    no_reason = api.post(f"/api/seasons/{season.pk}/finish/", {}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    done = api.post(f"/api/seasons/{season.pk}/finish/", {"reason": "Bar closed"}, format="json")
    assert done.status_code == 200
    assert done.json()["state"] == "finished" and done.json()["finished_reason"] == "Bar closed"
    again = api.post(f"/api/seasons/{season.pk}/reopen/", {"reason": "Reopened"}, format="json")
    assert again.json()["state"] == "running"
    actions = AuditEntry.objects.filter(season=season).values_list("action", flat=True)
    assert list(actions.order_by("pk"))[-2:] == [
        AuditAction.SEASON_FINISH,
        AuditAction.SEASON_REOPEN,
    ]


def test_the_admin_has_no_current_checkbox_and_its_actions_call_the_services(
    client, league_admin, season, draft
):
    league_admin.is_staff = True
    league_admin.save()
    client.force_login(league_admin)
    page = client.get(f"/admin/league/season/{season.pk}/change/").content.decode()
    assert 'name="is_current"' not in page and 'name="state"' not in page
    client.post(
        "/admin/league/season/",
        {"action": "publish", "_selected_action": [draft.pk]},
        follow=True,
    )
    draft.refresh_from_db()
    assert draft.state == SeasonState.DRAFT  # no schedule: refused, said on the page
    response = client.post(
        "/admin/league/season/",
        {"action": "finish", "_selected_action": [season.pk], "reason": "End of the lease"},
        follow=True,
    )
    assert response.status_code == 200
    season.refresh_from_db()
    assert season.state == SeasonState.FINISHED and season.finished_reason == "End of the lease"


def _round_trip(season: Season) -> tuple[dict, Season]:
    text = json.dumps(export_season(season).archive)
    wipe_league_data()
    restored = import_season(json.loads(text))
    return json.loads(text), restored


def test_a_finished_season_round_trips_with_its_state_and_reason(league_admin):
    from league.services.season_life import season_finish

    played = import_season(make_archive())
    season_finish(season=played, user=league_admin, reason="The bar closed")
    played.refresh_from_db()
    doc, restored = _round_trip(played)
    assert doc["season"]["state"] == "finished"
    assert doc["season"]["finished_reason"] == "The bar closed"
    assert restored.state == SeasonState.FINISHED
    assert restored.finished_reason == "The bar closed"
    assert export_season(restored).archive == doc


def test_next_season_round_trips_as_published_and_runs_by_its_dates():
    future = dt.date.today() + dt.timedelta(days=30)
    source = make_archive()
    for n, week in enumerate(source["weeks"]):
        week["date"] = (future + dt.timedelta(days=7 * n)).isoformat()
    doc, restored = _round_trip(import_season(source))
    assert doc["season"]["state"] == "published"
    assert restored.state_on(dt.date.today()) is SeasonState.PUBLISHED
    assert restored.state_on(future) is SeasonState.RUNNING
    assert export_season(restored).archive == doc


def test_an_archive_from_before_season_states_still_imports():
    doc = make_archive()
    assert "state" not in doc["season"]
    first = import_season(doc)
    assert first.state == SeasonState.PUBLISHED  # the league had no open season: it runs
    second = make_archive()
    second["season"]["name"] = "Spring 2027"
    assert import_season(second).state == SeasonState.FINISHED  # as it was: not current


def test_an_archive_with_a_state_that_does_not_exist_is_refused():
    doc = make_archive()
    doc["season"]["state"] = "current"
    with pytest.raises(ArchiveRefused, match="state must be one of draft, published, running"):
        import_season(doc)
    assert not Season.objects.exists()
