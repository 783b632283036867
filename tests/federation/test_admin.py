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
