"""The admin is audited like every other door (security review): every change form, add form, delete
and action a league admin, a judge or a tournament director can reach in the league's and the
tournaments' admin either goes through a named service (which checks who may and writes the
audit trail) or is read-only for them. A new ModelAdmin fails here until it is listed below."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import RequestFactory

from league.kernel.permissions import TOURNAMENT_DIRECTORS
from tests import factories

APPS = ("league", "tournaments")

# ModelAdmin -> the services its add and change forms save through (named in its save_model
# or its form's apply/clean). Nothing else may write from a form.
FORMS_THROUGH: dict[str, tuple[str, ...]] = {
    "LeagueAdmin": ("league_create", "league_update"),
    "SeasonAdmin": (
        "season_create",
        "season_details_update",
        "season_rules_update",
        "season_ops_update",
    ),
    "VenueAdmin": ("venue_create", "venue_update"),
    "PlayerAdmin": ("players_add", "player_rename", "player_link"),
    "TeamAdmin": ("team_create", "team_update"),
    "WeekAdmin": ("week_create", "week_update"),
    "MatchAdmin": ("match_create", "match_update"),
    "DisputeAdmin": ("dispute_rule",),
    "ForfeitAdmin": ("match_forfeit",),
    "SeasonSubAdmin": ("subs_add",),
    "TournamentAdmin": ("tournament_create", "tournament_update", "night_assign_season"),
    "EntrantAdmin": ("entrant_register",),
    "CheckersQueueAdmin": ("scorecard_settle",),
    "PaperScorecardAdmin": ("scorecard_enter",),
    "PlayoffMatchAdmin": ("playoff_game_record",),
    "ClubAdmin": ("club_create", "club_update"),
    "ClubMemberAdmin": ("club_member_set",),
    "ClubSeasonAdmin": ("club_season_create", "club_season_update"),
    "PurseAdmin": ("purse_set",),
    "SidePotAdmin": ("side_pot_set",),
    "LedgerEntryAdmin": ("ledger_entry_add",),
    "RegistrationDeskAdmin": ("desk_set",),
}
# ModelAdmins nobody changes: results and the audit trail are read here, changed elsewhere.
READ_ONLY = {
    "GameAdmin", "AuditEntryAdmin", "RoundAdmin", "AccRulingAdmin", "PostponementAdmin",
    # Telling players: the log, each player's own choices, the organiser's announcements.
    "DeliveryAdmin", "NotifyChoiceAdmin", "AnnouncementAdmin",
    # A player's phones: listed and removed (through push_device_remove), never edited.
    "PushSubscriptionAdmin",
    # Registrations are made on the event's page; the director answers them with actions.
    "RegistrationAdmin",
}  # fmt: skip
# What deleting calls, where anyone may delete.
DELETES_THROUGH: dict[str, str] = {
    "SeasonAdmin": "delete_unplayed",
    "PushSubscriptionAdmin": "push_device_remove",
    "TeamAdmin": "delete_unplayed",
    "WeekAdmin": "delete_unplayed",
    "MatchAdmin": "delete_unplayed",
    "LedgerEntryAdmin": "ledger_entry_remove",
    "SeasonSubAdmin": "sub_remove",
}
# Admin action -> the service it calls for each selected row.
ACTIONS_THROUGH: dict[str, str] = {
    "SeasonAdmin.make_schedule": "schedule_create",
    "PlayoffMatchAdmin.void_last_game": "playoff_game_void",
    "SeasonAdmin.draw_playoffs": "playoffs_create",
    "SeasonAdmin.undo_playoffs": "playoffs_undo",
    "SeasonAdmin.publish": "season_publish",
    "SeasonAdmin.back_to_draft": "season_unpublish",
    "SeasonAdmin.finish": "season_finish",
    "SeasonAdmin.reopen": "season_reopen",
    "GameAdmin.void_games": "game_void",
    "ForfeitAdmin.undo_forfeits": "forfeit_undo",
    "WeekAdmin.cancel_nights": "week_cancel",
    "DisputeAdmin.assign_to_me": "dispute_assign",
    "TournamentAdmin.seat_next_round": "round_seat_next",
    "TournamentAdmin.draw_bracket": "bracket_draw",
    "EntrantAdmin.check_in": "entrant_check_in",
    "EntrantAdmin.withdraw": "entrant_withdraw",
    "PurseAdmin.collect_fees": "fees_collect",
    "PurseAdmin.record_payouts": "payouts_record",
    "PurseAdmin.close_night": "night_close",
    "AccRulingAdmin.undo_ruling": "scorecard_acc_reverse",
    "RegistrationAdmin.accept": "registrations_decide",
    "RegistrationAdmin.refuse": "registrations_decide",
    "RegistrationAdmin.paid": "registrations_paid",
    "RegistrationAdmin.check_in": "registrations_check_in",
    "RegistrationAdmin.withdraw": "registration_withdraw",
    # Django's bulk delete: delete_queryset, which the admin overrides to call its service.
    "SeasonAdmin.delete_selected": "delete_unplayed",
    "PushSubscriptionAdmin.delete_selected": "push_device_remove",
    "TeamAdmin.delete_selected": "delete_unplayed",
    "WeekAdmin.delete_selected": "delete_unplayed",
    "MatchAdmin.delete_selected": "delete_unplayed",
    "SeasonSubAdmin.delete_selected": "sub_remove",
}


def _admins() -> list[admin.ModelAdmin]:
    return [
        model_admin
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in APPS
    ]


def _source(*functions: Any) -> str:
    return "\n".join(inspect.getsource(f) for f in functions if f is not None)


def _with_helpers(function: Any) -> str:
    """``function``'s source and that of the helpers it calls that are its module's private
    ones or another service module's (a service may check or audit in the ``_store`` step it
    hands its write to, or in a step two services share, such as ``void_locked``)."""
    module = vars(inspect.getmodule(function))
    source = inspect.getsource(function)
    helpers = [
        module[name]
        for name in sorted(set(re.findall(r"\b(\w+)\(", source)))
        if inspect.isfunction(module.get(name))
        and (
            name.startswith("_")
            or module[name].__module__.startswith(("league.services.", "tournaments.services."))
        )
    ]
    return "\n".join([source, *(inspect.getsource(f) for f in helpers)])


def _names(service: str, source: str) -> bool:
    """Whether ``source`` calls or passes ``service`` (``f(``, ``services.f``)."""
    return re.search(rf"\b{service}\b", source) is not None


def _service(model_admin: admin.ModelAdmin, name: str) -> Any:
    """The service function ``name``, as the admin's module imports it."""
    scope = vars(inspect.getmodule(type(model_admin)))
    if name in scope:
        return scope[name]
    return getattr(scope["services"], name)


@pytest.fixture
def officials(judge, league_admin):
    director = factories.UserFactory(username="dora")
    director.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    for user in (judge, league_admin, director):
        user.is_staff = True
        user.save()
    return {"judge": judge, "league admin": league_admin, "director": director}


def _request(user: Any) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def test_every_admin_of_the_league_and_the_tournaments_is_listed_here():
    names = {type(model_admin).__name__ for model_admin in _admins()}
    unlisted = names - set(FORMS_THROUGH) - READ_ONLY
    assert not unlisted, f"say what these admins save through, or make them read-only: {unlisted}"


def test_every_form_an_official_can_save_goes_through_its_service(officials):
    plain_saves = []
    for model_admin in _admins():
        name = type(model_admin).__name__
        for role, user in officials.items():
            request = _request(user)
            writes = model_admin.has_add_permission(request) or model_admin.has_change_permission(
                request
            )
            if not writes:
                continue
            fields = set(model_admin.get_form(request).base_fields) - set(
                model_admin.get_readonly_fields(request)
            )
            if not fields:
                continue  # every field read-only
            if (
                name not in FORMS_THROUGH
                or type(model_admin).save_model is admin.ModelAdmin.save_model
            ):
                plain_saves.append(f"{name} ({role})")
                continue
            form = model_admin.form
            source = _source(
                type(model_admin).save_model,
                getattr(form, "apply", None),
                form.clean if "clean" in vars(form) else None,
            )
            for service in FORMS_THROUGH[name]:
                assert _names(service, source), f"{name} does not save through {service}"
    assert not plain_saves, f"a plain ModelAdmin save writes around the services: {plain_saves}"


def test_the_services_the_admin_saves_through_check_and_audit():
    for model_admin in _admins():
        name = type(model_admin).__name__
        services = [
            *FORMS_THROUGH.get(name, ()),
            *([DELETES_THROUGH[name]] if name in DELETES_THROUGH else []),
            *(s for a, s in ACTIONS_THROUGH.items() if a.startswith(f"{name}.")),
        ]
        for service in services:
            source = _with_helpers(_service(model_admin, service))
            assert "audit" in source or "_log(" in source, f"{service} writes no audit row"
            assert any(
                check in source for check in ("can(", "refuse_unless(", "_refuse", "require")
            ), f"{service} asks no permission"


def test_every_delete_an_official_can_reach_goes_through_its_service(officials):
    for model_admin in _admins():
        name = type(model_admin).__name__
        for role, user in officials.items():
            if not model_admin.has_delete_permission(_request(user)):
                continue
            assert name in DELETES_THROUGH, f"{name} deletes with no service ({role})"
            service = DELETES_THROUGH[name]
            assert _names(service, _source(type(model_admin).delete_model))
            if "delete_selected" in model_admin.get_actions(_request(user)):
                assert _names(service, _source(type(model_admin).delete_queryset))


def test_every_action_an_official_can_run_calls_its_service(officials):
    for model_admin in _admins():
        name = type(model_admin).__name__
        for role, user in officials.items():
            for action, (function, _, _) in model_admin.get_actions(_request(user)).items():
                key = f"{name}.{action}"
                assert key in ACTIONS_THROUGH, f"{key} ({role}) calls no listed service"
                if action == "delete_selected":
                    continue  # checked with the deletes: delete_queryset
                assert _names(ACTIONS_THROUGH[key], _source(function)), key


def test_no_inline_lets_an_official_write(officials):
    for model_admin in _admins():
        for role, user in officials.items():
            request = _request(user)
            for inline in model_admin.get_inline_instances(request):
                assert not inline.has_add_permission(request, None), (inline, role)
                assert not inline.has_change_permission(request), (inline, role)
                assert not inline.has_delete_permission(request), (inline, role)
