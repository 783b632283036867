"""A NUL character (``\\x00``) in anything typed, uploaded or imported is refused with a sentence
naming where it is: PostgreSQL cannot store one (a 500 there) and SQLite stored it. A CSV saved
by Excel as "Unicode text" (UTF-16 with its byte-order mark) is read, not turned into NULs."""

from __future__ import annotations

import codecs
import copy
import io

import pytest
from rest_framework.test import APIClient

from league.models import Game, Player
from league.services.archive import ArchiveRefused
from league.services.archive_import import import_season
from tests.factories import make_archive

ROSTER = "Name,Email\nAda Byron,ada@example.org\nBea Arthur,bea@example.org\n"


@pytest.fixture
def lena(client, league_admin):
    client.force_login(league_admin)
    return client


@pytest.fixture
def new_season(league, league_admin):
    from league.services.rules import season_create

    return season_create(league=league, user=league_admin, name="Spring 2027")


def upload(lena, season, content: bytes, name: str = "roster.csv"):
    sheet = io.BytesIO(content)
    sheet.name = name
    return lena.post(
        f"/organise/seasons/{season.pk}/players/", {"action": "upload", "upload-sheet": sheet}
    )


def test_a_seat_name_with_a_nul_is_a_400_naming_the_seat(match, ann):
    api = APIClient()
    api.force_authenticate(ann)
    body = {"seats": ["Ann\x00", "Cat", "Bob", "Dan"]}
    response = api.post(f"/api/matches/{match.pk}/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "seats.0"
    assert "NUL" in response.json()["detail"]
    assert not Game.objects.exists()


def test_a_nul_in_a_json_key_is_refused_too(game, ann):
    api = APIClient()
    api.force_authenticate(ann)
    response = api.post(f"/api/games/{game.pk}/deals/", {"key\x00": "x"}, format="json")
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


def test_a_csv_with_a_nul_is_refused_in_words_and_adds_nobody(lena, new_season):
    response = upload(lena, new_season, b"Name,Email\nAda\x00Byron,ada@example.org\n")
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert not Player.objects.filter(name__startswith="Ada").exists()


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE), ("utf-8", b"")],
)
def test_a_csv_saved_as_utf16_by_excel_is_read(lena, new_season, encoding, bom):
    response = upload(lena, new_season, bom + ROSTER.replace("\n", "\r\n").encode(encoding))
    assert response.status_code == 302, response.content.decode()[:500]
    assert set(Player.objects.values_list("name", "user__email")) >= {
        ("Ada Byron", "ada@example.org"),
        ("Bea Arthur", "bea@example.org"),
    }


def test_a_csv_in_windows_1252_is_read(lena, new_season):
    response = upload(lena, new_season, "Name,Email\nZoë Hahn,zoe@example.org\n".encode("cp1252"))
    assert response.status_code == 302
    assert Player.objects.filter(name="Zoë Hahn").exists()


def test_an_archive_with_a_nul_in_a_name_is_refused_with_where_it_is(db):
    doc = copy.deepcopy(make_archive())
    doc["teams"][0]["name"] = "Fifteen\x00Two"
    with pytest.raises(ArchiveRefused) as info:
        import_season(doc)
    assert "teams[0].name" in info.value.message and "NUL" in info.value.message
