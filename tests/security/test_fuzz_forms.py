"""Security review, L12: director and organiser forms answered a few 500s to odd input. Every form
of the organiser's pages, the tournament pages and the tournaments' admin is posted with huge
numbers, unicode digits, empty values, NUL characters and very long text, one field at a time
and all at once: none answers 500."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests import factories
from tests.tournaments.conftest import director, field, night  # noqa: F401 - fixtures
from tournaments import services

ADMIN_SAVE_TWINS = {"_continue", "_addanother", "_saveasnew"}
ODD = ["9" * 40, "-99999999999999999999", "²", "①", "٣", "", "\x00", "1e309", "x" * 5000, "0"]


class Forms(HTMLParser):
    """The POST forms of a page: their action and fields (name -> choices or a value)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.current: dict | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self.current = {"action": a.get("action") or "", "fields": {}, "buttons": []}
            self.forms.append(self.current)
        if self.current is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image"):
                self.current["buttons"].append((name, a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                self.current["fields"].setdefault(name, [a.get("value", "on")])
            elif kind != "file":
                self.current["fields"][name] = [a.get("value", "")]
        elif tag == "button" and name:
            self.current["buttons"].append((name, a.get("value", "")))
        elif tag in ("textarea",) and name:
            self.current["fields"][name] = [""]
        elif tag == "select" and name:
            self.select = name
            self.current["fields"][name] = []
        elif tag == "option" and self.select:
            self.current["fields"][self.select].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        if tag == "select":
            self.select = None


def post_forms(client: Client, page: str) -> list[str]:
    """Post every form of ``page`` with odd values; the requests that answered 500."""
    shown = client.get(page)
    assert shown.status_code == 200, page
    parser = Forms()
    parser.feed(shown.content.decode())
    failures = []
    for form in parser.forms:
        action = form["action"] or page
        if "logout" in action or "sign-out" in action or "language" in action:
            continue
        base = {
            name: next((v for v in values if v), values[0] if values else "")
            for name, values in form["fields"].items()
        }
        editable = [n for n in base if n not in ("csrfmiddlewaretoken",)]
        # The admin's "save and continue" and "save and add another" validate exactly as "save"
        # does (they differ only in where a good save goes next): one of them is posted.
        buttons = [b for b in form["buttons"] if b[0] not in ADMIN_SAVE_TWINS] or [(None, None)]
        for button, value in buttons:
            extra = {button: value} if button else {}
            tries = [{**base, **extra, **dict.fromkeys(editable, odd)} for odd in ODD]
            for name in editable:
                tries += [{**base, **extra, name: odd} for odd in ODD[:3] + ODD[6:7]]
            for data in tries:
                response = client.post(action, data)
                if response.status_code >= 500:
                    failures.append(f"{action} {sorted(data.items())[:6]}")
    return failures


@pytest.fixture
def boss(db):
    return factories.UserFactory(username="boss", is_staff=True, is_superuser=True)


@pytest.mark.django_db
@pytest.mark.slow  # every organiser form fuzzed: with the directors' forms in make test-slow
def test_no_organiser_form_answers_500(boss, game, season):
    client = Client(raise_request_exception=False)
    client.force_login(boss)
    pages = [
        "/organise/",
        f"/organise/seasons/{season.pk}/",
        f"/organise/seasons/{season.pk}/players/",
        f"/organise/seasons/{season.pk}/teams/",
        f"/organise/seasons/{season.pk}/schedule/",
    ]
    failures = [f for page in pages for f in post_forms(client, page)]
    assert failures == []


@pytest.mark.slow  # every director form, fuzzed: the organiser's above stays in make test
@pytest.mark.django_db
def test_no_director_form_answers_500(boss, night, director, field):  # noqa: F811
    services.round_seat_next(user=director, tournament=night)
    client = Client(raise_request_exception=False)
    client.force_login(boss)
    pages = [
        f"/tournaments/{night.pk}/rounds/1/",
        f"/tournaments/{night.pk}/money/",
        "/admin/tournaments/tournament/add/",
        f"/admin/tournaments/tournament/{night.pk}/change/",
        "/admin/tournaments/entrant/add/",
        "/admin/tournaments/club/add/",
        "/admin/tournaments/clubseason/add/",
    ]
    failures = [f for page in pages for f in post_forms(client, page)]
    assert failures == []


@pytest.mark.slow  # the registration forms: the public page, the player's, the director's
@pytest.mark.django_db
def test_no_registration_form_answers_500(director):  # noqa: F811
    from tournaments.services import registration

    event = services.tournament_create(user=director, name="Fuzzed Main", kind="main")
    registration.desk_set(
        user=director, tournament=event, changes={"needs_approval": True, "capacity": 2}
    )
    ann = registration.registration_add(
        user=None, tournament=event, name="Ann", email="ann@example.com", acc_number="41"
    )
    client = Client(raise_request_exception=False)
    failures = post_forms(client, f"/tournaments/{event.pk}/event/")
    failures += post_forms(client, f"/tournaments/registration/{ann.token}/")
    client.force_login(director)
    failures += post_forms(client, f"/direct/events/{event.pk}/registration/")
    assert failures == []
