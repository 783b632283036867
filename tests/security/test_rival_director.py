"""A director of one club cannot run another club's night: every tournaments write door (the
API's, the money page's, the workspace's), walked as a rival club's director, is refused and
changes nothing; the night's and the club season's ACC reports are not theirs to read."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.kernel.permissions import TOURNAMENT_DIRECTORS, Action, can
from league.models import AuditEntry, Player
from tests import factories
from tests.security.routes import UNSAFE, write_routes
from tests.tournaments.conftest import TRUSTED, finished_night
from tournaments import services
from tournaments.models import Club, PayoutMode, PlayoffMatch, TableGame, Tournament
from tournaments.views.direct import OPS

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee"]
LAST_WEEK = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _director(username: str, club: Club):
    user = factories.UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    club.directors.add(user)
    return user


@pytest.fixture
def clubs(db):
    ours = services.club_create(user=TRUSTED, name="Crooked Peg")
    theirs = services.club_create(user=TRUSTED, name="Lucky Peg")
    return ours, theirs


@pytest.fixture
def alice(clubs):
    return _director("alice", clubs[0])


@pytest.fixture
def rival(clubs):
    return _director("rival", clubs[1])


@pytest.fixture
def nights(clubs, alice):
    """The Crooked Peg's night under way (a round seated, a purse, a pot) and its finished night
    of its season (a bracket played), with ACC numbers on record."""
    club = clubs[0]
    season = services.club_season_create(user=alice, club=club, name="Winter")
    tonight = services.night_tonight(user=alice, club=club)
    services.entrants_add(user=alice, tournament=tonight, names=NAMES, check_in=True)
    services.purse_set(
        user=alice,
        tournament=tonight,
        entry_fee=500,
        house_percent=10,
        payout_mode=PayoutMode.PERCENT,
        payout_table=[100],
    )
    services.side_pot_set(user=alice, tournament=tonight, kind="skunk", fee=100)
    services.fees_collect(user=alice, tournament=tonight)
    services.round_seat_next(user=alice, tournament=tonight)
    done = finished_night("Last week", LAST_WEEK, season=season)
    Tournament.objects.filter(pk=done.pk).update(club=club)
    services.club_member_set(
        user=alice, club=club, player=Player.objects.get(name="Ann"), acc_number="424242"
    )
    return tonight, Tournament.objects.get(pk=done.pk), season


def _state() -> dict[str, Any]:
    """Every row of every tournaments table, and the audit trail's length."""
    state: dict[str, Any] = {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in apps.get_app_config("tournaments").get_models()
    }
    state["audit"] = AuditEntry.objects.count()
    state["players"] = Player.objects.count()
    return state


def _target(model: type | None, tonight: Tournament, done: Tournament, club: Club) -> Any:
    if model is Tournament:
        return tonight
    if model is TableGame:
        return TableGame.objects.filter(round__tournament=tonight).first()
    if model is PlayoffMatch:
        return PlayoffMatch.objects.filter(tournament=done).first()
    if model is Club:
        return club
    return None


def _body(target: Any) -> dict[str, Any]:
    """What the night's own director would send: a result, where the door takes one."""
    if isinstance(target, TableGame):
        return {"winner": target.first_id, "loser_score": 90}
    if isinstance(target, PlayoffMatch):
        return {"winner": target.top_id, "loser_score": 90, "key": "k1"}
    return {}


def test_a_rival_clubs_director_is_refused_at_every_tournaments_api_write(clubs, rival, nights):
    tonight, done, _season = nights
    api = APIClient()
    api.force_login(rival)
    before = _state()
    walked, wrong = [], []
    for route in write_routes():
        target = _target(route.model, tonight, done, clubs[0])
        if target is None or not route.has_pk:
            continue
        url = reverse(route.name, kwargs={"pk": target.pk})
        for method in sorted(route.methods & set(UNSAFE)):
            answer = getattr(api, method)(url, _body(target), format="json")
            walked.append(route.name)
            if answer.status_code != 403:
                wrong.append((route.name, method, answer.status_code, answer.content[:200]))
    assert wrong == [], "\n".join(map(str, wrong))
    assert {"api:tournament-check-in", "api:tournament-seat", "api:club-tonight"} <= set(walked)
    assert _state() == before


def test_a_rival_clubs_director_cannot_keep_another_clubs_money(clubs, rival, nights):
    tonight, _done, _season = nights
    assert not can(rival, Action.KEEP_MONEY, tonight)
    client = Client()
    client.force_login(rival)
    url = reverse("tournaments:money", args=[tonight.pk])
    assert client.get(url).status_code == 403
    pot = tonight.side_pots.first()
    entrant = tonight.entrants.first()
    entry = tonight.ledger.first()
    posts = [
        {
            "op": "purse",
            "entry_fee": "500",
            "house_percent": "90",
            "payout_mode": PayoutMode.PERCENT,
            "payout_table": "100",
        },
        {"op": "pot", "kind": "skunk", "fee": "5"},
        {"op": "pot_enter", "pot": pot.pk, "entrants": [entrant.pk]},
        {"op": "pot_award", "pot": pot.pk, "entrants": [entrant.pk]},
        {"op": "pot_from_cards", "pot": pot.pk},
        {"op": "entry", "kind": "house", "amount": "9", "note": "mine"},
        {"op": "remove", "entry": entry.pk},
        {"op": "fees"},
        {"op": "payouts"},
        {"op": "close"},
    ]
    before = _state()
    for body in posts:
        assert client.post(url, body).status_code == 403, body["op"]
    assert _state() == before


def test_a_rival_clubs_director_is_refused_by_the_services_themselves(clubs, rival, nights):
    tonight, done, season = nights
    pot = tonight.side_pots.first()
    calls = [
        lambda: services.purse_set(
            user=rival,
            tournament=tonight,
            entry_fee=50000,
            house_percent=90,
            payout_mode=PayoutMode.PERCENT,
            payout_table=[100],
        ),
        lambda: services.entrants_check_in_all(user=rival, tournament=tonight),
        lambda: services.round_seat_next(user=rival, tournament=tonight),
        lambda: services.side_pot_award(user=rival, pot=pot, winners=[]),
        lambda: services.night_close(user=rival, tournament=tonight),
        lambda: services.club_update(user=rival, club=clubs[0], changes={"venue": "Ours now"}),
        lambda: services.club_season_update(user=rival, season=season, changes={"name": "X"}),
        lambda: services.club_season_create(user=rival, club=clubs[0], name="Spring"),
        lambda: services.night_assign_season(user=rival, tournament=done, season=None),
        lambda: services.club_member_set(
            user=rival, club=clubs[0], player=Player.objects.get(name="Bob"), acc_number="1"
        ),
    ]
    before = _state()
    for call in calls:
        with pytest.raises(Exception, match="Only the directors of Crooked Peg"):
            call()
    assert _state() == before


def test_a_rival_clubs_director_is_refused_at_every_workspace_step(clubs, rival, nights):
    tonight, _done, _season = nights
    client = Client()
    client.force_login(rival)
    before = _state()
    night_url = reverse("direct:night", args=[tonight.pk])
    for op in OPS:
        assert client.post(night_url, {"op": op}).status_code == 403, op
    club_url = reverse("direct:club", args=[clubs[0].pk])
    for op in ("tonight", "members", "director", "defaults"):
        answer = client.post(club_url, {"op": op, "names": "Zed", "username": "rival"})
        assert answer.status_code == 403, op
    assert _state() == before


def test_a_rival_clubs_director_cannot_read_another_clubs_acc_reports(clubs, rival, nights):
    _tonight, done, season = nights
    client = Client()
    client.force_login(rival)
    for url in (
        reverse("tournaments:night_report", args=[done.pk]),
        reverse("tournaments:night_report_csv", args=[done.pk]),
        reverse("tournaments:season_report", args=[season.pk]),
        reverse("tournaments:season_report_csv", args=[season.pk]),
    ):
        answer = client.get(url)
        assert answer.status_code == 403, url
        assert b"424242" not in answer.content


def test_the_clubs_own_director_still_runs_its_night(clubs, alice, nights):
    tonight, done, season = nights
    assert can(alice, Action.KEEP_MONEY, tonight) and can(alice, Action.RUN_TOURNAMENT, done)
    client = Client()
    client.force_login(alice)
    answer = client.get(reverse("tournaments:season_report_csv", args=[season.pk]))
    assert answer.status_code == 200 and b"424242" in answer.content


def test_a_rival_clubs_director_lists_none_of_another_clubs_money_in_the_admin(
    clubs, rival, alice, nights
):
    client = Client()
    client.force_login(rival)
    for model in ("purse", "ledgerentry", "sidepot", "clubmember"):
        page = client.get(reverse(f"admin:tournaments_{model}_changelist"))
        assert page.status_code == 200, model
        assert page.context["cl"].result_count == 0, model
    client.force_login(alice)
    assert (
        client.get(reverse("admin:tournaments_ledgerentry_changelist")).context["cl"].result_count
    )
