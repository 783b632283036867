"""Every form reads numbers with one parser (ASCII digits, bounded length) and names with one
(one line, no control character, bounded): the money page's payout table, the workspace's fees,
pot and club defaults, workspace and club names, the director's username box, the calendar
reset, the one-tap answer's ``next`` and a push subscription's JSON answer a refusal in words,
never a 500 or a worker held for half a minute; and no name of anything (club, venue, team,
player, league, season, tournament) can hold a CR/LF that would break every mail about it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from league.kernel.errors import ValidationFailed
from league.kernel.permissions import TOURNAMENT_DIRECTORS
from league.models import Player, Venue
from league.services.people import PlayerLine, player_rename, players_add
from league.services.rules import league_create, season_create
from league.services.seasons import team_create, venue_create, venue_update
from tests import factories
from tests.factories import make_archive
from tests.tournaments.conftest import TRUSTED
from tournaments import services
from tournaments.models import Club, PayoutMode, Purse

pytestmark = pytest.mark.django_db

HOSTILE_NUMBERS = ["1e999999", "sNaN", "Infinity", "NaN", "9" * 5000, "²", "٣", "-5", "1_000"]


@pytest.fixture
def dora(db):
    user = factories.UserFactory(username="dora", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
    return user


@pytest.fixture
def club(dora):
    club = services.club_create(user=TRUSTED, name="Crooked Peg")
    club.directors.add(dora)
    return club


@pytest.fixture
def director(client, dora):
    client.force_login(dora)
    return client


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize("mode", [PayoutMode.PERCENT, PayoutMode.AMOUNT])
def test_a_hostile_payout_table_is_refused_in_words(director, dora, club, mode):
    night = services.night_tonight(user=dora, club=club)
    before = list(Purse.objects.filter(tournament=night).values())
    url = reverse("tournaments:money", args=[night.pk])
    for table in HOSTILE_NUMBERS:
        answer = director.post(
            url,
            {
                "op": "purse",
                "entry_fee": "5",
                "house_percent": "10",
                "payout_mode": mode,
                "payout_table": f"50, {table}",
            },
        )
        assert answer.status_code == 302, table[:20]
        assert any("payout table" in m for m in _said(answer)), table[:20]
    assert list(Purse.objects.filter(tournament=night).values()) == before


@pytest.mark.parametrize(
    "field", ["night_games", "round_minutes", "house_percent", "entry_fee", "pot_fee"]
)
def test_the_club_defaults_refuse_odd_digits_and_huge_numbers(director, club, field):
    good = {
        "op": "defaults",
        "night_games": "9",
        "round_minutes": "20",
        "house_percent": "10",
        "entry_fee": "5",
        "pot_fee": "1",
    }
    before = Club.objects.filter(pk=club.pk).values().get()
    for raw in ("²", "9" * 5000, "1e999999", "\x00"):
        answer = director.post(reverse("direct:club", args=[club.pk]), {**good, field: raw})
        assert answer.status_code == 302, (field, raw[:10])
        assert _said(answer), (field, raw[:10])
    assert Club.objects.filter(pk=club.pk).values().get() == before


def test_a_workspace_club_name_with_a_nul_or_a_line_break_is_refused(director):
    for name in ("Crooked\x00Peg", "Crooked\r\nBcc: all@example.org", "Peg\x1b[31m"):
        answer = director.post(reverse("direct:home"), {"name": name})
        assert answer.status_code == 302
        assert any("control character" in m or "NUL" in m for m in _said(answer)), name
    assert not Club.objects.exists()


def test_the_directors_username_box_refuses_a_nul(director, club):
    answer = director.post(
        reverse("direct:club", args=[club.pk]), {"op": "director", "username": "ann\x00"}
    )
    assert answer.status_code == 302 and _said(answer)
    assert list(club.directors.values_list("username", flat=True)) == ["dora"]


def test_the_calendar_reset_refuses_a_nul_or_a_huge_token(client, ann):
    client.force_login(ann)
    for token in ("abc\x00", "x" * 5000):
        answer = client.post(reverse("league:calendar_reset"), {"token": token, "next": "/"})
        assert answer.status_code == 404


def test_the_one_tap_answer_goes_back_only_to_a_page_of_the_site(client, ann, venue_week):
    client.force_login(ann)
    url = reverse("league:availability_answer", args=[venue_week.pk])
    for target in ("home", "league:home", "//evil.example/", "/no/such/page/", "/\x00"):
        answer = client.post(url, {"answer": "in", "next": target})
        assert answer.status_code == 302 and answer["Location"] == "/", target
    back = client.post(url, {"answer": "in", "next": "/rules/"})
    assert back["Location"] == "/rules/"


def test_a_push_subscription_nested_2000_deep_is_refused_not_a_500(client, ann):
    client.force_login(ann)
    answer = client.post(
        reverse("league:push_subscription"),
        data="[" * 2000 + "]" * 2000,
        content_type="application/json",
    )
    assert answer.status_code == 400


LINE_BREAKS = ["Crooked\r\nPeg", "Crooked\nPeg", "Crooked\x00Peg", "Crooked\x1bPeg", "A\u2028B"]


@pytest.mark.parametrize("name", LINE_BREAKS)
def test_no_name_of_anything_holds_a_control_character(name, season, home_team, league_admin):
    club = services.club_create(user=TRUSTED, name="Crooked Peg")
    night = services.tournament_create(user=TRUSTED, name="Night", games_per_entrant=3)
    ann, bob = list(home_team.players.all())
    writes = {
        "club": lambda: services.club_create(user=TRUSTED, name=name),
        "club venue": lambda: services.club_create(user=TRUSTED, name="Peg 2", venue=name),
        "club rename": lambda: services.club_update(
            user=TRUSTED, club=club, changes={"name": name}
        ),
        "club season": lambda: services.club_season_create(user=TRUSTED, club=club, name=name),
        "tournament": lambda: services.tournament_create(
            user=TRUSTED, name=name, games_per_entrant=3
        ),
        "entrant": lambda: services.entrant_register(user=TRUSTED, tournament=night, name=name),
        "walk-in": lambda: services.club_members_add(user=TRUSTED, club=club, names=[name]),
        "venue": lambda: venue_create(user=league_admin, name=name),
        "venue rename": lambda: venue_update(
            venue=Venue.objects.create(name="The Peg"), user=league_admin, name=name
        ),
        "team": lambda: team_create(
            season=season, user=league_admin, name=name, players=[ann, bob]
        ),
        "league": lambda: league_create(user=league_admin, name=name),
        "season": lambda: season_create(league=season.league, user=league_admin, name=name),
        "player": lambda: players_add(
            user=league_admin, lines=[PlayerLine(name=name, email="", line=1)]
        ),
    }
    writes["player rename"] = lambda: player_rename(player=ann, name=name, user=league_admin)
    for what, write in writes.items():
        if what in ("walk-in", "player") and not any(c in name for c in "\x00\x1b"):
            continue  # a pasted list is read one line a name: a line break starts the next
        with pytest.raises(ValidationFailed):
            write()
            pytest.fail(what)
    assert not Player.objects.filter(name__contains="Crooked").exists()
    assert not Club.objects.filter(name__contains="\n").exists()


@pytest.mark.parametrize("name", LINE_BREAKS)
def test_an_archive_cannot_bring_a_name_with_a_control_character(name):
    from league.services.archive_import import ArchiveRefused, import_season

    doc = make_archive(games=1)
    doc["teams"][0]["players"][0] = name
    with pytest.raises(ArchiveRefused, match=r"control character|NUL"):
        import_season(doc)
    doc = make_archive(games=1)
    doc["league"]["name"] = name
    with pytest.raises(ArchiveRefused, match=r"control character|NUL"):
        import_season(doc)
    assert not Player.objects.filter(name__contains="Crooked").exists()
