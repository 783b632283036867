"""The tournaments' admin actions each declare the permission they need: one a user lacks is
neither offered on the list page nor run when posted."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import RequestFactory
from django.urls import reverse

from league.kernel.permissions import JUDGES
from tests import factories
from tournaments.models import Purse, Round

pytestmark = pytest.mark.django_db


def tournaments_admins() -> list[admin.ModelAdmin]:
    return [
        model_admin
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label == "tournaments"
    ]


def test_every_tournaments_admin_action_declares_its_permissions():
    admins = tournaments_admins()
    assert len(admins) >= 10, "the tournaments register their ModelAdmins"
    seen = set()
    for model_admin in admins:
        for func, name, _description in model_admin._get_base_actions():
            permissions = getattr(func, "allowed_permissions", ())
            where = f"{type(model_admin).__name__}.{name}"
            assert permissions, f"{where} declares no permissions="
            for permission in permissions:
                assert callable(getattr(model_admin, f"has_{permission}_permission", None)), (
                    f"{where} needs has_{permission}_permission"
                )
            seen.add(name)
    assert {"seat_next_round", "void_last_game", "close_night", "undo_ruling"} <= seen


@pytest.fixture
def judge(db):
    user = factories.UserFactory(username="jude", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=JUDGES)[0])
    return user


def test_a_judge_is_not_offered_and_cannot_run_a_directors_action(client, night, field, judge):
    changelist = reverse("admin:tournaments_tournament_changelist")
    client.force_login(judge)
    page = client.get(changelist)
    assert page.status_code == 200  # a checker sees the tournaments
    assert "seat_next_round" not in page.content.decode()
    client.post(changelist, {"action": "seat_next_round", "_selected_action": [night.pk]})
    assert not Round.objects.filter(tournament=night).exists()


def test_a_director_is_offered_and_runs_the_action(client, night, field, director):
    changelist = reverse("admin:tournaments_tournament_changelist")
    client.force_login(director)
    assert "seat_next_round" in client.get(changelist).content.decode()
    client.post(changelist, {"action": "seat_next_round", "_selected_action": [night.pk]})
    assert Round.objects.filter(tournament=night).count() == 1


def test_the_money_actions_ask_for_the_money_permission(judge, director):
    purse_admin = admin.site._registry[Purse]
    request = RequestFactory().get("/")
    request.user = judge
    assert not {"collect_fees", "close_night"} & set(purse_admin.get_actions(request))
    request.user = director
    assert {"collect_fees", "record_payouts", "close_night"} <= set(
        purse_admin.get_actions(request)
    )
