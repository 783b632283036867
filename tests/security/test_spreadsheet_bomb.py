"""Security review, L12: a 558 KB spreadsheet that unzipped to 190 MB held a worker until gunicorn
killed it. An .xlsx's uncompressed size is read from its zip directory before anything is
inflated, and a file too big once opened is refused in words, adding nobody."""

from __future__ import annotations

import io
import zipfile
from unittest import mock

import openpyxl
import pytest

from league.models import Player


@pytest.fixture
def lena(client, league_admin):
    client.force_login(league_admin)
    return client


@pytest.fixture
def new_season(league, league_admin):
    from league.services.rules import season_create

    return season_create(league=league, user=league_admin, name="Spring 2027")


def upload(lena, season, content: bytes, name: str):
    sheet = io.BytesIO(content)
    sheet.name = name
    return lena.post(
        f"/organise/seasons/{season.pk}/players/", {"action": "upload", "upload-sheet": sheet}
    )


def roster_xlsx() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["Name", "Email"])
    book.active.append(["Ada Byron", "ada@example.org"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def bomb_xlsx(megabytes: int = 60) -> bytes:
    """A real workbook whose sheet is padded with ``megabytes`` of blanks: tiny zipped."""
    source = zipfile.ZipFile(io.BytesIO(roster_xlsx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bomb:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * (megabytes << 20))
            bomb.writestr(item.filename, data)
    return out.getvalue()


@pytest.mark.django_db
def test_a_spreadsheet_that_inflates_hugely_is_refused_before_it_is_read(lena, new_season):
    content = bomb_xlsx()
    assert len(content) < 1024 * 1024  # well under the 2 MB upload limit
    with mock.patch("tablib.Dataset.load") as load:
        response = upload(lena, new_season, content, "roster.xlsx")
    assert response.status_code == 400
    assert "far too big once opened" in response.content.decode()
    load.assert_not_called()  # nothing was inflated
    assert not Player.objects.filter(name="Ada Byron").exists()


@pytest.mark.django_db
def test_a_plain_roster_spreadsheet_is_still_read(lena, new_season):
    response = upload(lena, new_season, roster_xlsx(), "roster.xlsx")
    assert response.status_code == 302
    assert Player.objects.filter(name="Ada Byron").exists()


@pytest.mark.django_db
def test_a_file_named_xlsx_that_is_no_zip_is_refused_in_words(lena, new_season):
    response = upload(lena, new_season, b"Name,Email\nAda,ada@example.org\n", "roster.xlsx")
    assert response.status_code == 400
    assert "could not be read as a spreadsheet" in response.content.decode()
