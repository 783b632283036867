"""Registration's pages: the event page and its form, the player's page and its withdraw
button, the QR code and flyer, and the director's list with its bulk actions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import (
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    Registration,
    RegistrationStatus,
)
from tournaments.services import registration as reg


@pytest.fixture
def weekend(director):
    event = services.tournament_create(
        user=director, name="Autumn Classic Main", kind="main", games_per_entrant=4
    )
    reg.desk_set(
        user=director,
        tournament=event,
        changes={
            "capacity": 2,
            "venue": "Legion Hall, 12 Elm St",
            "details": "4 games, doors at 9",
            "entry_fee": 2500,
        },
    )
    return event


def form(name, **extra):
    data = {
        "name": name,
        "email": f"{name.lower()}@example.com",
        "member_status": "member",
        "acc_number": "4021",
    }
    data.update(extra)
    return data


def test_the_event_page_says_what_when_where_and_how_full(client, weekend):
    reg.registration_add(user=None, tournament=weekend, **form("Ann"))
    page = client.get(reverse("registration:event", args=[weekend.pk])).content.decode()
    for words in ("Autumn Classic Main", "Legion Hall, 12 Elm St", "4 games, doors at 9"):
        assert words in page
    assert "$25.00" in page
    assert "1 of 2 taken" in page
    assert 'data-waiting="0"' in page


def test_registering_from_the_form_leads_to_the_players_page(client, weekend):
    answer = client.post(reverse("registration:event", args=[weekend.pk]), form("Ann"))
    row = Registration.objects.get(name="Ann")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("registration:page", args=[row.token])
    page = client.get(answer["Location"]).content.decode()
    assert "Your place is confirmed." in page
    assert "$25.00 · to pay the director" in page


def test_a_refusal_is_shown_beside_its_field_and_nothing_is_stored(client, weekend):
    client.post(reverse("registration:event", args=[weekend.pk]), form("Ann"))
    again = client.post(
        reverse("registration:event", args=[weekend.pk]), form("Annie", email="ANN@example.com")
    )
    page = again.content.decode()
    assert again.status_code == 200
    assert 'data-error="email"' in page
    assert "ANN@example.com is already registered for Autumn Classic Main" in page
    assert Registration.objects.count() == 1


def test_the_waiting_player_sees_their_number_and_takes_a_freed_place(client, weekend):
    ann, _bob, cy = (
        reg.registration_add(user=None, tournament=weekend, **form(n, acc_number=str(i)))
        for i, n in enumerate(("Ann", "Bob", "Cy"), start=1)
    )
    page = client.get(reverse("registration:page", args=[cy.token])).content.decode()
    assert "You are number 1 on the waiting list." in page
    event = client.get(reverse("registration:event", args=[weekend.pk])).content.decode()
    assert 'data-waiting="1"' in event and "data-full" in event
    client.post(reverse("registration:page", args=[ann.token]))
    assert Registration.objects.get(pk=ann.pk).status == RegistrationStatus.WITHDRAWN
    page = client.get(reverse("registration:page", args=[cy.token])).content.decode()
    assert "Your place is confirmed." in page


def test_a_players_page_is_only_for_its_link(client, weekend):
    assert client.get(reverse("registration:page", args=["not-a-token"])).status_code == 404


def test_the_qr_code_and_the_flyer(client, weekend):
    svg = client.get(reverse("registration:qr", args=[weekend.pk, "svg"]))
    assert svg["Content-Type"] == "image/svg+xml"
    assert b"<svg" in svg.content
    png = client.get(reverse("registration:qr", args=[weekend.pk, "png"]))
    assert png["Content-Type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(reverse("registration:qr", args=[weekend.pk, "gif"])).status_code == 404
    flyer = client.get(reverse("registration:flyer", args=[weekend.pk])).content.decode()
    assert "<svg" in flyer
    assert f"http://testserver/tournaments/{weekend.pk}/event/" in flyer


def test_the_qr_code_holds_the_event_pages_address(client, weekend):
    import segno

    url = f"http://testserver/tournaments/{weekend.pk}/event/"
    ours = client.get(reverse("registration:qr", args=[weekend.pk, "svg"])).content
    expected = segno.make(url, error="m", micro=False)
    assert expected.matrix is not None
    # Same modules as segno's code of that address: the dark squares drawn are the same path.
    import io

    out = io.BytesIO()
    expected.save(out, kind="svg", scale=8, border=4, title=weekend.name)
    assert ours == out.getvalue()


def test_an_event_without_registration_has_no_page(client, director):
    other = services.tournament_create(user=director, name="Closed Night", games_per_entrant=3)
    assert client.get(reverse("registration:event", args=[other.pk])).status_code == 404


def test_the_director_answers_in_bulk_pays_and_checks_in(client, weekend, director):
    reg.desk_set(user=director, tournament=weekend, changes={"needs_approval": True})
    rows = [
        reg.registration_add(user=None, tournament=weekend, **form(n, acc_number=str(i)))
        for i, n in enumerate(("Ann", "Bob", "Cy", "Dee"), start=1)
    ]
    client.force_login(director)
    url = reverse("registration:direct", args=[weekend.pk])
    page = client.get(url).content.decode()
    assert 'data-pending="Ann"' in page and 'data-pending="Dee"' in page
    client.post(url, {"op": "accept", "registrations": [r.pk for r in rows[:3]]})
    client.post(url, {"op": "refuse", "registrations": [rows[3].pk]})
    statuses = [Registration.objects.get(pk=r.pk).status for r in rows]
    assert statuses == ["accepted", "accepted", "waitlisted", "refused"]
    page = client.get(url).content.decode()
    assert 'data-owed-by="Ann"' in page and 'data-owed-by="Bob"' in page
    client.post(url, {"op": "paid", "registrations": [rows[0].pk]})
    client.post(url, {"op": "check_in", "registrations": [rows[0].pk, rows[1].pk]})
    assert LedgerEntry.objects.get(kind=LedgerKind.FEE).entrant.name == "Ann"
    assert set(weekend.entrants.values_list("status", flat=True)) == {EntrantStatus.CHECKED_IN}
    page = client.get(url).content.decode()
    assert 'data-owed-by="Ann"' not in page and 'data-owed-by="Bob"' in page
    answer = client.post(url, {"withdraw": str(rows[1].pk)}, follow=True)
    assert "Bob withdrawn." in answer.content.decode()
    assert Registration.objects.get(pk=rows[2].pk).status == "accepted"  # Cy promoted


def test_a_bad_bulk_action_says_why_and_changes_nothing(client, weekend, director):
    ann = reg.registration_add(user=None, tournament=weekend, **form("Ann"))
    client.force_login(director)
    url = reverse("registration:direct", args=[weekend.pk])
    answer = client.post(url, {"op": "accept", "registrations": [ann.pk]}, follow=True)
    assert "Ann is not waiting for an answer (place confirmed)" in answer.content.decode()
    answer = client.post(url, {"op": "refuse"}, follow=True)
    assert "Tick at least one player first." in answer.content.decode()
    answer = client.post(url, {"op": "desk", "capacity": "lots", "entry_fee": "25"}, follow=True)
    assert "The capacity is a whole number" in answer.content.decode()
    assert Registration.objects.get(pk=ann.pk).status == "accepted"


def test_the_director_sets_up_registration(client, director):
    event = services.tournament_create(user=director, name="Spring Open", games_per_entrant=3)
    client.force_login(director)
    url = reverse("registration:direct", args=[event.pk])
    client.post(
        url,
        {
            "op": "desk",
            "is_open": "on",
            "capacity": "40",
            "entry_fee": "12.50",
            "venue": "Moose Lodge",
            "details": "",
        },
    )
    page = client.get(reverse("registration:event", args=[event.pk])).content.decode()
    assert "Moose Lodge" in page and "$12.50" in page and "0 of 40 taken" in page


def test_only_directors_see_the_list(client, weekend):
    client.force_login(factories.UserFactory(username="nosy"))
    answer = client.get(reverse("registration:direct", args=[weekend.pk]))
    assert answer.status_code == 403


def test_the_event_page_in_french(client, weekend):
    client.cookies["django_language"] = "fr"
    page = client.get(
        reverse("registration:event", args=[weekend.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "S’inscrire" in page and "Droit d’inscription" in page
    assert "Liste d’attente" in page


def test_a_doubles_event_asks_for_a_partner_and_the_director_pairs(client, director):
    from tournaments.models import TournamentVariant

    event = services.tournament_create(
        user=director,
        name="Autumn Doubles",
        kind="main",
        variant=TournamentVariant.PARTNERSHIP,
        games_per_entrant=4,
    )
    reg.desk_set(user=director, tournament=event, changes={"capacity": 4})
    url = reverse("registration:event", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'name="partner"' in page and 'name="partner_wanted"' in page
    alone = client.post(url, form("Ann", acc_number="1"))
    assert "This is a doubles event: name your partner" in alone.content.decode()
    client.post(url, form("Ann", acc_number="1", partner_wanted="on"))
    client.post(url, form("Bob", acc_number="2", partner_wanted="on"))
    client.force_login(director)
    direct = reverse("registration:direct", args=[event.pk])
    page = client.get(direct).content.decode()
    assert 'data-wants-partner="Ann"' in page and 'data-wants-partner="Bob"' in page
    ann, bob = Registration.objects.get(name="Ann"), Registration.objects.get(name="Bob")
    answer = client.post(direct, {"op": "pair", "first": ann.pk, "second": bob.pk}, follow=True)
    assert "Ann and Bob play together." in answer.content.decode()
    assert list(event.entrants.values_list("name", flat=True)) == ["Ann & Bob"]


def test_the_admin_answers_through_the_same_services(client, weekend, director):
    reg.desk_set(user=director, tournament=weekend, changes={"needs_approval": True})
    rows = [
        reg.registration_add(user=None, tournament=weekend, **form(n, acc_number=str(i)))
        for i, n in enumerate(("Ann", "Bob", "Cy"), start=1)
    ]
    client.force_login(director)
    changelist = reverse("admin:tournaments_registration_changelist")
    assert "Ann" in client.get(changelist).content.decode()
    client.post(changelist, {"action": "accept", "_selected_action": [r.pk for r in rows]})
    statuses = [Registration.objects.get(pk=r.pk).status for r in rows]
    assert statuses == ["accepted", "accepted", "waitlisted"]
    answer = client.post(
        changelist, {"action": "paid", "_selected_action": [rows[2].pk]}, follow=True
    )
    assert "Cy has no confirmed entry" in answer.content.decode()
    client.post(changelist, {"action": "withdraw", "_selected_action": [rows[0].pk]})
    assert Registration.objects.get(pk=rows[2].pk).status == "accepted"  # Cy promoted
    desk = reverse("admin:tournaments_registrationdesk_change", args=[weekend.desk.pk])
    client.post(
        desk,
        {"is_open": "on", "capacity": "1", "venue": "Hall", "details": "", "needs_approval": ""},
    )
    weekend.desk.refresh_from_db()
    assert (weekend.desk.capacity, weekend.desk.venue, weekend.desk.needs_approval) == (
        1,
        "Hall",
        False,
    )


def test_every_registration_page_reads_in_french(client, director, weekend):
    """The event page, its flyer, a player's page and the director's list, walked in French:
    nothing on them the English page says word for word (names and data aside)."""
    from tests.web.french import english_runs, untranslated_runs

    row = reg.registration_add(user=None, tournament=weekend, **form("Ann"))
    client.force_login(director)
    address = "http://testserver" + reverse("registration:event", args=[weekend.pk])
    names = ["Autumn Classic Main", "Legion Hall, 12 Elm St", "4 games, doors at 9", "Ann", address]
    for url in (
        reverse("registration:event", args=[weekend.pk]),
        reverse("registration:flyer", args=[weekend.pk]),
        reverse("registration:page", args=[row.token]),
        reverse("registration:direct", args=[weekend.pk]),
    ):
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        client.cookies["django_language"] = "fr"
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        del client.cookies["django_language"]
        assert untranslated_runs(french, english, names) == [], url
        assert english_runs(french, names) == [], url
