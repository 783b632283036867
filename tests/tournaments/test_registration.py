"""Registration from an event's page: places, the waiting list that fills itself and tells the
player, duplicates refused, the director's answers in bulk, partners paired, fees owed and
paid, check-in from the list. Through the services (every door calls them)."""

from __future__ import annotations

import pytest
from django.core import mail

from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.models import Delivery
from tests import factories
from tournaments import services
from tournaments.models import (
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    Registration,
    RegistrationStatus,
    TournamentVariant,
)
from tournaments.selectors import registration as registrations
from tournaments.services import registration as reg

from .conftest import TRUSTED


@pytest.fixture
def weekend(director):
    event = services.tournament_create(
        user=director, name="Autumn Classic Main", kind="main", games_per_entrant=4
    )
    reg.desk_set(
        user=director,
        tournament=event,
        changes={"capacity": 2, "venue": "Legion Hall", "entry_fee": 2500},
    )
    return event


def sign_up(event, name, /, **extra):
    fields = {
        "name": name,
        "email": f"{name.lower().replace(' ', '.')}@example.com",
        "acc_number": str(abs(hash(name)) % 10**6 + 1),
        "member_status": "member",
    }
    fields.update(extra)
    return reg.registration_add(user=None, tournament=event, **fields)


def fresh(row):
    return Registration.objects.get(pk=row.pk)


def test_places_then_the_waiting_list_in_order(weekend):
    ann, bob, cy, dee = (sign_up(weekend, n) for n in ("Ann", "Bob", "Cy", "Dee"))
    assert [fresh(r).status for r in (ann, bob, cy, dee)] == [
        RegistrationStatus.ACCEPTED,
        RegistrationStatus.ACCEPTED,
        RegistrationStatus.WAITLISTED,
        RegistrationStatus.WAITLISTED,
    ]
    assert sorted(weekend.entrants.values_list("name", flat=True)) == ["Ann", "Bob"]
    assert [r.name for r in registrations.waiting_list(weekend)] == ["Cy", "Dee"]
    assert fresh(ann).fee_owed == 2500


def test_a_withdrawal_promotes_the_first_waiting_and_tells_them(
    weekend, django_capture_on_commit_callbacks
):
    ann, _bob, cy, _dee = (sign_up(weekend, n) for n in ("Ann", "Bob", "Cy", "Dee"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reg.registration_withdraw(user=None, registration=ann, by_player=True)
    assert fresh(ann).status == RegistrationStatus.WITHDRAWN
    assert weekend.entrants.get(name="Ann").status == EntrantStatus.WITHDRAWN
    assert fresh(cy).status == RegistrationStatus.ACCEPTED
    assert weekend.entrants.get(name="Cy").status == EntrantStatus.REGISTERED
    assert [r.name for r in registrations.waiting_list(weekend)] == ["Dee"]
    told = [m for m in mail.outbox if "a place came free" in m.subject]
    assert [m.to for m in told] == [["cy@example.com"]]
    assert f"/tournaments/registration/{cy.token}/" in told[0].body
    assert "$25.00" in told[0].body


def test_the_confirmation_goes_to_the_address_given_with_the_players_link(
    weekend, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        ann = sign_up(weekend, "Ann Smith", email="Ann@Example.COM")
    (confirmation,) = mail.outbox
    assert confirmation.to == ["Ann@example.com"]
    assert "You registered for Autumn Classic Main" in confirmation.subject
    assert "your place is confirmed" in confirmation.body
    assert ann.token in confirmation.body


def test_duplicates_are_refused_saying_why(weekend):
    sign_up(weekend, "Ann")
    with pytest.raises(ValidationFailed, match="already registered") as by_mail:
        sign_up(weekend, "Annie", email="ANN@example.com")
    assert by_mail.value.field == "email"
    with pytest.raises(ValidationFailed, match="Ann is already registered") as by_name:
        sign_up(weekend, "ann", email="other@example.com")
    assert by_name.value.field == "name"
    assert Registration.objects.filter(tournament=weekend).count() == 1


def test_a_player_who_withdrew_may_register_again(weekend):
    ann = sign_up(weekend, "Ann")
    reg.registration_withdraw(user=None, registration=ann, by_player=True)
    again = sign_up(weekend, "Ann")
    assert fresh(again).status == RegistrationStatus.ACCEPTED
    assert weekend.entrants.get(name="Ann").status == EntrantStatus.REGISTERED
    assert fresh(again).entrant == weekend.entrants.get(name="Ann")


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ({"name": "  "}, "name", "Your name is empty"),
        ({"email": "not-an-address"}, "email", "not an e-mail address"),
        ({"acc_number": "12a"}, "acc_number", "digits only"),
        ({"acc_number": ""}, "acc_number", "ACC member gives their ACC number"),
        ({"member_status": "king"}, "member_status", "member, a guest or a visitor"),
        ({"partner": "Bob"}, "partner", "singles event"),
    ],
)
def test_bad_input_says_what_and_changes_nothing(weekend, extra, field, words):
    with pytest.raises(ValidationFailed, match=words) as refused:
        sign_up(weekend, "Ann", **extra)
    assert refused.value.field == field
    assert not Registration.objects.exists()


def test_a_guest_needs_no_acc_number(weekend):
    row = sign_up(weekend, "Gail", acc_number="", member_status="guest")
    assert fresh(row).status == RegistrationStatus.ACCEPTED


def test_closed_or_started_events_take_nobody(weekend, director):
    reg.desk_set(user=director, tournament=weekend, changes={"is_open": False})
    with pytest.raises(Locked, match="closed"):
        sign_up(weekend, "Ann")
    assert not Registration.objects.exists()


def test_the_director_answers_many_at_once_and_refused_players_are_told(
    weekend, director, django_capture_on_commit_callbacks
):
    reg.desk_set(user=director, tournament=weekend, changes={"needs_approval": True})
    rows = [sign_up(weekend, n) for n in ("Ann", "Bob", "Cy", "Dee")]
    assert {fresh(r).status for r in rows} == {RegistrationStatus.PENDING}
    assert not weekend.entrants.exists()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reg.registrations_decide(
            user=director, tournament=weekend, registrations=rows[:3], accept=True
        )
        reg.registrations_decide(
            user=director, tournament=weekend, registrations=[rows[3]], accept=False
        )
    assert [fresh(r).status for r in rows] == [
        RegistrationStatus.ACCEPTED,
        RegistrationStatus.ACCEPTED,
        RegistrationStatus.WAITLISTED,
        RegistrationStatus.REFUSED,
    ]
    refused = [m for m in mail.outbox if "refused" in m.subject]
    assert [m.to for m in refused] == [["dee@example.com"]]
    approved = sorted(m.to[0] for m in mail.outbox if "approved" in m.subject)
    assert approved == ["ann@example.com", "bob@example.com", "cy@example.com"]


def test_bulk_answers_are_all_or_nothing(weekend, director):
    reg.desk_set(user=director, tournament=weekend, changes={"needs_approval": True})
    ann, bob = sign_up(weekend, "Ann"), sign_up(weekend, "Bob")
    reg.registrations_decide(user=director, tournament=weekend, registrations=[ann], accept=True)
    with pytest.raises(Locked, match=r"Ann is not waiting for an answer \(place confirmed\)"):
        reg.registrations_decide(
            user=director, tournament=weekend, registrations=[bob, ann], accept=True
        )
    assert fresh(bob).status == RegistrationStatus.PENDING


def test_only_a_director_answers(weekend):
    ann = sign_up(weekend, "Ann")
    stranger = factories.UserFactory(username="stranger")
    with pytest.raises(NotAllowed):
        reg.registrations_decide(
            user=stranger, tournament=weekend, registrations=[ann], accept=False
        )
    with pytest.raises(NotAllowed):
        reg.registration_withdraw(user=stranger, registration=ann)
    assert fresh(ann).status == RegistrationStatus.ACCEPTED


def test_fees_owed_until_the_director_marks_them_paid(weekend, director):
    ann, bob, cy = (sign_up(weekend, n) for n in ("Ann", "Bob", "Cy"))
    assert [r.name for r in registrations.fees_owed(weekend)] == [
        "Ann",
        "Bob",
    ]  # Cy waits: owes nothing
    reg.registrations_paid(user=director, tournament=weekend, registrations=[ann])
    assert [r.name for r in registrations.fees_owed(weekend)] == ["Bob"]
    fee = LedgerEntry.objects.get(tournament=weekend, kind=LedgerKind.FEE)
    assert (fee.entrant.name, fee.amount) == ("Ann", 2500)
    with pytest.raises(Locked, match="Cy has no confirmed entry"):
        reg.registrations_paid(user=director, tournament=weekend, registrations=[bob, cy])
    assert LedgerEntry.objects.filter(kind=LedgerKind.FEE).count() == 1


def test_check_in_from_the_list(weekend, director):
    ann, bob = sign_up(weekend, "Ann"), sign_up(weekend, "Bob")
    reg.registrations_check_in(user=director, tournament=weekend, registrations=[ann, bob])
    assert set(weekend.entrants.values_list("status", flat=True)) == {EntrantStatus.CHECKED_IN}


def test_a_raised_capacity_fills_from_the_waiting_list(weekend, director):
    for n in ("Ann", "Bob", "Cy", "Dee"):
        sign_up(weekend, n)
    reg.desk_set(user=director, tournament=weekend, changes={"capacity": 3})
    assert [r.name for r in registrations.waiting_list(weekend)] == ["Dee"]
    assert weekend.entrants.filter(name="Cy").exists()


@pytest.fixture
def doubles(director):
    event = services.tournament_create(
        user=director,
        name="Autumn Doubles",
        kind="main",
        variant=TournamentVariant.PARTNERSHIP,
        games_per_entrant=4,
    )
    reg.desk_set(user=director, tournament=event, changes={"capacity": 2})
    return event


def test_doubles_need_a_partner_or_partner_wanted(doubles):
    with pytest.raises(ValidationFailed, match="name your partner") as refused:
        sign_up(doubles, "Ann")
    assert refused.value.field == "partner"
    team = sign_up(doubles, "Ann", partner="Bob")
    assert fresh(team).entrant.name == "Ann & Bob"
    assert list(fresh(team).entrant.players.values_list("name", flat=True)) == ["Ann", "Bob"]
    with pytest.raises(ValidationFailed, match="Bob is already registered"):
        sign_up(doubles, "Bob", partner="Cy")


def test_players_wanting_partners_are_paired_and_free_a_place(doubles, director):
    cy = sign_up(doubles, "Cy", partner_wanted=True)
    dee = sign_up(doubles, "Dee", partner_wanted=True)
    eve = sign_up(doubles, "Eve", partner="Flo")
    assert fresh(eve).status == RegistrationStatus.WAITLISTED
    assert fresh(cy).entrant is None  # no entry until paired
    entry = reg.registrations_pair(user=director, tournament=doubles, first=cy, second=dee)
    assert entry.entrant.name == "Cy & Dee"
    assert fresh(dee).status == RegistrationStatus.PAIRED
    assert fresh(eve).status == RegistrationStatus.ACCEPTED  # Dee's place went to Eve & Flo
    with pytest.raises(Locked, match="not a player waiting for a partner"):
        reg.registrations_pair(user=director, tournament=doubles, first=cy, second=eve)


def test_the_waiting_list_stays_once_the_event_starts(weekend, director):
    ann, *_rest = (sign_up(weekend, n) for n in ("Ann", "Bob", "Cy"))
    reg.registrations_check_in(
        user=director, tournament=weekend, registrations=list(Registration.objects.all()[:2])
    )
    services.round_seat_next(user=TRUSTED, tournament=weekend)
    with pytest.raises(Locked, match="has started"):
        reg.registration_withdraw(user=None, registration=ann, by_player=True)
    assert not Delivery.objects.filter(event="registration_promoted").exists()


def test_a_clubs_event_keeps_a_new_players_acc_number_and_standing(director):
    from tournaments.models import ClubMember, MemberStatus

    club = services.club_create(user=director, name="Crooked Peg ACC Club")
    club.directors.add(director)
    night = services.night_tonight(user=director, club=club)
    reg.desk_set(user=director, tournament=night, changes={"capacity": 10})
    services.club_members_add(user=director, club=club, names=["Bob"])
    sign_up(night, "Gail", acc_number="", member_status="guest")
    sign_up(night, "Vic", acc_number="77001", member_status="visitor")
    sign_up(night, "Bob", acc_number="55555")
    members = {
        m.player.name: (m.acc_number, m.status)
        for m in ClubMember.objects.filter(club=club).select_related("player")
    }
    assert members["Gail"] == ("", MemberStatus.GUEST)
    assert members["Vic"] == ("77001", MemberStatus.VISITOR)
    assert members["Bob"] == ("", MemberStatus.MEMBER)  # the club's own record stands


def test_a_place_freed_on_the_nights_page_goes_to_the_waiting_list_first(weekend, director):
    ann, _bob, cy = (sign_up(weekend, n) for n in ("Ann", "Bob", "Cy"))
    services.entrant_withdraw(user=director, entrant=fresh(ann).entrant)
    assert registrations.places_taken(weekend) == 1
    dee = sign_up(weekend, "Dee")
    assert fresh(cy).status == RegistrationStatus.ACCEPTED
    assert fresh(dee).status == RegistrationStatus.WAITLISTED
    assert [r.name for r in registrations.fees_owed(weekend)] == ["Bob", "Cy"]
