"""The federation admin edits the points schedule in the Django admin: audited, and nobody
else may."""

from __future__ import annotations

from django.urls import reverse

from federation.models import PointsSchedule
from league.models import AuditEntry


def schedule_form(**changes):
    data = {
        "effective_from": "2027-01-15",
        "source": "ACC chart, checked",
        "main_factor": 5,
        "main_flat": 5,
        "main_playoff": 7,
        "consolation_factor": 3,
        "consolation_flat": 3,
        "consolation_playoff": 4,
        "minimums-TOTAL_FORMS": 1,
        "minimums-INITIAL_FORMS": 0,
        "minimums-MIN_NUM_FORMS": 0,
        "minimums-MAX_NUM_FORMS": 1000,
        "minimums-0-kind": "main",
        "minimums-0-games": 12,
        "minimums-0-minimum": 15,
    }
    return {**data, **changes}


def test_a_federation_admin_adds_a_dated_schedule_in_the_admin_and_it_is_audited(client, fed_admin):
    client.force_login(fed_admin)
    response = client.post(reverse("admin:federation_pointsschedule_add"), schedule_form())
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = PointsSchedule.objects.get(effective_from="2027-01-15")
    assert stored.as_schedule().minimum("main", 12) == 15
    entry = AuditEntry.objects.get(action="points_schedule_set")
    assert entry.actor == fed_admin and entry.after["minimums"] == ["main 12: 15"]


def test_a_director_cannot_open_the_points_schedules(client, director):
    client.force_login(director)
    response = client.get(reverse("admin:federation_pointsschedule_changelist"))
    assert response.status_code == 403
    assert (
        client.post(reverse("admin:federation_pointsschedule_add"), schedule_form()).status_code
        == 403
    )
    assert not PointsSchedule.objects.filter(effective_from="2027-01-15").exists()


def test_a_fee_rate_is_set_in_the_admin_only_with_its_reason_and_audited(client, fed_admin):
    from federation.models import FeeRate

    client.force_login(fed_admin)
    url = reverse("admin:federation_feerate_add")
    form = {"kind": "main", "effective_from": "2026-08-01", "per_entrant": 250, "reason": ""}
    assert client.post(url, form).status_code == 200  # the form says the reason is required
    assert not FeeRate.objects.exists()
    assert client.post(url, {**form, "reason": "Board, June meeting"}).status_code == 302
    entry = AuditEntry.objects.get(action="fee_rate_set")
    assert entry.reason == "Board, June meeting" and entry.after["per_entrant"] == 250


def test_a_title_edited_in_the_admin_goes_through_the_audited_service(client, fed_admin):
    from federation.models import Title

    client.force_login(fed_admin)
    master = Title.objects.get(name="Master")
    url = reverse("admin:federation_title_change", args=[master.pk])
    form = {"name": "Master", "name_fr": "Maître", "points": 2500, "source": "ACC chart 2027"}
    assert client.post(url, form).status_code == 302
    master.refresh_from_db()
    assert master.points == 2500
    entry = AuditEntry.objects.get(action="federation_data_set")
    assert (entry.before["points"], entry.after["points"]) == (2000, 2500)
