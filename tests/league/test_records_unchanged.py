"""The records pages say exactly what they said before they were kept as results count: each
page (every season and all of them) and the ``records`` command's JSON, on the varied league
of ``records_league``, against the output captured from the pages that computed everything
from the games on every request (``tests/data/records_pages.json``).

Ids differ from one database to the next, so every id in a link or a value is written as the
object's place among its kind (``G12`` is the twelfth game made). To capture the output again
after a change that is meant to show: ``PEGBOARD_RECAPTURE_RECORDS=1 pytest -n0 this file``."""

from __future__ import annotations

import json
import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from league import models
from tests.league.records_league import VariedLeague

pytestmark = pytest.mark.django_db

CAPTURED = Path(__file__).resolve().parents[1] / "data" / "records_pages.json"


class Labels:
    """Each id as its place among its kind, so output compares across databases."""

    def __init__(self) -> None:
        self.kinds = {
            "G": list(models.Game.objects.order_by("pk").values_list("pk", flat=True)),
            "P": list(models.Player.objects.order_by("pk").values_list("pk", flat=True)),
            "T": list(models.Team.objects.order_by("pk").values_list("pk", flat=True)),
            "S": list(models.Season.objects.order_by("pk").values_list("pk", flat=True)),
            "L": list(models.League.objects.order_by("pk").values_list("pk", flat=True)),
        }

    def of(self, kind: str, pk: str | int) -> str:
        return f"{kind}{self.kinds[kind].index(int(pk))}"

    def page(self, html: str) -> str:
        main = html[html.index('<main id="main"') : html.index("</main>")]
        subs = [
            (r"/games/(\d+)/", "G", "/games/{}/"),
            (r"/players/(\d+)/", "P", "/players/{}/"),
            (r"/teams/(\d+)/", "T", "/teams/{}/"),
            (r"/seasons/(\d+)/", "S", "/seasons/{}/"),
            (r"/leagues/(\d+)/", "L", "/leagues/{}/"),
            (r"player=(\d+)", "P", "player={}"),
            (r"team=(\d+)", "T", "team={}"),
            (r"season=(\d+)", "S", "season={}"),
        ]
        for pattern, kind, shape in subs:
            main = re.sub(pattern, lambda m, k=kind, s=shape: s.format(self.of(k, m[1])), main)
        main = re.sub(
            r"/records/h2h/(team|player)/(\d+)/(\d+)/",
            lambda m: "/records/h2h/{}/{}/{}/".format(
                m[1], *(self.of("T" if m[1] == "team" else "P", x) for x in (m[2], m[3]))
            ),
            main,
        )
        for select, kind in (("records-season", "S"), ("h2h-player", "P"), ("h2h-team", "T")):
            main = re.sub(
                rf'(<select id="{select}".*?</select>)',
                lambda m, k=kind: re.sub(
                    r'value="(\d+)"', lambda v: f'value="{self.of(k, v[1])}"', m[1]
                ),
                main,
                flags=re.S,
            )
        return main

    def document(self, doc: object) -> object:
        if isinstance(doc, dict):
            return {
                k: self.of("G", v) if k == "game" and isinstance(v, int) else self.document(v)
                for k, v in doc.items()
            }
        if isinstance(doc, list):
            return [self.document(v) for v in doc]
        return doc


def _outputs(client) -> dict[str, str | object]:
    league = VariedLeague()
    labels = Labels()
    out: dict[str, str | object] = {}
    seasons = [None, *league.seasons]
    for name in ("records_skunks", "records_streaks", "records_hands"):
        for season in seasons:
            url = reverse(f"league:{name}") + (f"?season={season.pk}" if season else "")
            response = client.get(url)
            assert response.status_code == 200, url
            out[f"{name} {season.name if season else 'all'}"] = labels.page(
                response.content.decode()
            )
    p, aces, kings = league.people, league.seasons[3].teams.get(name="Aces"), None
    kings = league.seasons[0].teams.get(name="Kings")
    picker = reverse("league:records_h2h")
    pages = {
        "honours": reverse("league:records_honours"),
        "picker": picker,
        "picker team": f"{picker}?team={aces.pk}",
        "picker player": f"{picker}?player={p['Ann'].pk}",
        "h2h teams": reverse("league:records_h2h_teams", args=[aces.pk, kings.pk]),
        "h2h players": reverse("league:records_h2h_players", args=[p["Ann"].pk, p["Cat"].pk]),
        "team page": reverse("league:team", args=[aces.pk]),
        "player page": reverse("league:player", args=[p["Ann"].pk]),
    }
    for key, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        out[key] = labels.page(response.content.decode())
    for season in seasons:
        text = StringIO()
        asked = ["--season", str(season.pk)] if season else []
        call_command("records", "--json", *asked, stdout=text)
        out[f"command {season.name if season else 'all'}"] = labels.document(
            json.loads(text.getvalue())
        )
    return out


def test_every_records_page_says_what_it_said(client):
    got = _outputs(client)
    if os.environ.get("PEGBOARD_RECAPTURE_RECORDS"):
        CAPTURED.write_text(json.dumps(got, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    captured = json.loads(CAPTURED.read_text())
    assert sorted(got) == sorted(captured)
    for key in captured:
        assert got[key] == captured[key], key


def test_the_varied_league_has_every_kind_of_record(client):
    """The capture means something: each page has records of each kind to show."""
    captured = json.loads(CAPTURED.read_text())
    every = captured["command all"]
    assert every["skunk_king"] and every["skunks"]["teams"]
    assert any(line["doubles_given"] for line in every["skunks"]["players"])
    assert {m["kind"] for m in every["milestones"]} == {"games", "wins", "points"}
    assert {h["points"] for h in every["special_hands"]} >= {29, 28, 24}
    seasons = {s["from"]["season"] != s["to"]["season"] for s in every["streaks"]["teams"]}
    assert True in seasons  # a streak that runs from one season into the next
    assert every["streaks"]["weeks"]
