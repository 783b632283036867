"""Postponements over the API: a captain asks, the other accepts, the match says its own date
and "postponed"; the organiser decides, moves or cancels a night; refusals are the service's."""

from __future__ import annotations

import datetime as dt

from league.models import Postponement, Week

THURSDAY = dt.date(2026, 9, 3)


def _weeks(season, match):
    """The match's week on 3 September and five more Thursdays after it."""
    Week.objects.filter(pk=match.week_id).update(date=THURSDAY)
    for n in range(2, 7):
        Week.objects.create(season=season, number=n, date=THURSDAY + dt.timedelta(weeks=n - 1))


def test_a_captain_asks_and_the_other_accepts(client_for, api, season, match, ann, cat):
    _weeks(season, match)
    asked = client_for(ann).post(
        f"/api/matches/{match.pk}/postponements/",
        {"date": "2026-09-08", "reason": "Bob is away"},
        format="json",
    )
    assert asked.status_code == 201, asked.json()
    seen = client_for(cat).get(f"/api/matches/{match.pk}/").json()
    assert seen["postponement"]["date"] == "2026-09-08" and seen["date"] == "2026-09-03"
    mine = client_for(ann).post(f"/api/postponements/{asked.json()['id']}/accept/")
    assert mine.status_code == 403  # her own request
    done = client_for(cat).post(f"/api/postponements/{asked.json()['id']}/accept/")
    assert done.status_code == 200 and done.json()["status"] == "accepted"
    after = api.get(f"/api/matches/{match.pk}/").json()
    assert (after["date"], after["postponed"], after["postponement"]) == ("2026-09-08", True, None)
    assert after["week_number"] == 1


def test_a_date_past_the_deadline_is_refused_and_nothing_is_stored(client_for, season, match, ann):
    _weeks(season, match)
    late = client_for(ann).post(
        f"/api/matches/{match.pk}/postponements/",
        {"date": "2026-09-30", "reason": "Away"},
        format="json",
    )
    assert late.status_code == 400 and late.json()["field"] == "date"
    assert not Postponement.objects.exists()


def test_the_organiser_moves_and_cancels_a_night(client_for, season, match, week, league_admin):
    _weeks(season, match)
    moved = client_for(league_admin).post(
        f"/api/weeks/{week.pk}/move/", {"date": "2026-09-04", "reason": "Snow"}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["date"] == "2026-09-04"
    cancelled = client_for(league_admin).post(
        f"/api/weeks/{week.pk}/cancel/", {"reason": "The bar is closed"}, format="json"
    )
    assert cancelled.json()["cancelled"] == "The bar is closed"
    match_body = client_for(league_admin).get(f"/api/matches/{match.pk}/").json()
    assert match_body["cancelled"] == "The bar is closed"


def test_a_captain_cannot_move_a_night(client_for, week, ann):
    answer = client_for(ann).post(
        f"/api/weeks/{week.pk}/move/", {"date": "2026-09-04", "reason": "Mine"}, format="json"
    )
    assert answer.status_code == 403
