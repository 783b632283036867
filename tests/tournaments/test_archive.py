"""The tournament archive: import, export and the standings command, exactly per the format."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import TRUSTED, play_round
from tournaments import services
from tournaments.archive import (
    TournamentArchiveRefused,
    export_tournament,
    import_tournament,
)
from tournaments.models import Tournament


@pytest.fixture
def finished_night(night, director, field):
    """Three rounds of seven, the cut (2 of 7), a best-of-3 final played to a champion."""
    for i in range(3):
        play_round(night, director, winner_first=i % 2 == 0, score=60 + 10 * i)
    services.bracket_draw(user=director, tournament=night)
    final = night.playoff_matches.get(round=1)
    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=99)
    services.playoff_game_record(user=director, match=final, winner=final.top, loser_score=88)
    night.refresh_from_db()
    return night


def _renamed(doc, name):
    doc = copy.deepcopy(doc)
    doc["tournament"]["name"] = name
    return doc


def test_import_then_export_is_identical(finished_night):
    doc = export_tournament(finished_night)
    assert list(doc) == [
        "format",
        "version",
        "tournament",
        "entrants",
        "rounds",
        "playoffs",
        "standings",
        "qualifiers",
        "bracket",
    ]
    copy_doc = _renamed(doc, "Copy")
    restored = import_tournament(json.loads(json.dumps(copy_doc)))
    assert export_tournament(restored) == copy_doc
    assert json.dumps(export_tournament(restored)) == json.dumps(copy_doc)


def test_a_night_without_its_bracket_round_trips_too(night, director, field):
    play_round(night, director)
    doc = export_tournament(night)
    assert "playoffs" not in doc
    restored = import_tournament(_renamed(doc, "Copy"))
    assert export_tournament(restored) == _renamed(doc, "Copy")


def _seventeen():
    names = [f"P{i:02d}" for i in range(1, 18)]
    games = []
    # one round: 8 tables and a bye; the first named of each pair wins, by less each table
    for t in range(8):
        a, b = names[2 * t], names[2 * t + 1]
        games.append({"table": t + 1, "entrants": [a, b], "winner": a, "loser_score": 60 + 5 * t})
    return {
        "format": "pegboard-tournament",
        "version": 1,
        "tournament": {
            "name": "Seventeen",
            "date": "2026-11-14",
            "kind": "club-night",
            "variant": "singles-121",
            "rules": {
                "target": 121,
                "skunk_margin": 31,
                "double_skunk_margin": 61,
                "game_points": {"win": 2, "skunk": 3, "double_skunk": 3, "loss": 0},
                "bye": {"game_points": 2, "spread": 0},
                "tiebreaks": ["games_won", "spread", "draw"],
                "qualify_one_in": 4,
                "playoff_best_of": 3,
            },
            "draw_seed": 1114,
        },
        "entrants": [{"name": n} for n in names],
        "rounds": [{"number": 1, "games": games, "byes": ["P17"]}],
    }


def test_the_standings_command_prints_the_formats_json(db):
    import_tournament(_seventeen())
    out = io.StringIO()
    call_command("tournament_standings", "Seventeen", "--format", "json", stdout=out)
    doc = json.loads(out.getvalue())
    assert list(doc) == ["tournament", "standings", "qualifiers", "bracket"]
    assert doc["tournament"] == "Seventeen"
    row = doc["standings"][0]
    assert list(row) == [
        "rank",
        "entrant",
        "played",
        "won",
        "lost",
        "game_points",
        "skunks",
        "spread",
    ]
    # P01 won by 61 (double skunk: 3 points, 1 skunk), P03 by 56 ... P09 and on lost
    assert row == {
        "rank": 1,
        "entrant": "P01",
        "played": 1,
        "won": 1,
        "lost": 0,
        "game_points": 3,
        "skunks": 1,
        "spread": 61,
    }
    assert len(doc["qualifiers"]) == 5  # 17 entrants: 5 qualify
    assert doc["bracket"] == [[1, None], [4, 5], [3, None], [2, None]]
    bye = next(r for r in doc["standings"] if r["entrant"] == "P17")
    assert (bye["played"], bye["won"], bye["game_points"], bye["spread"]) == (1, 1, 2, 0)
    out = io.StringIO()
    call_command("tournament_standings", "Seventeen", stdout=out)
    assert "Seventeen" in out.getvalue() and "P01 *" in out.getvalue()


def test_tied_entrants_share_a_rank_and_the_draw_orders_them(db):
    doc = _seventeen()
    for g in doc["rounds"][0]["games"]:
        g["loser_score"] = 100  # every winner: 2 points, spread 21
    import_tournament(doc)
    out = io.StringIO()
    call_command("tournament_standings", "Seventeen", "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())["standings"]
    assert [r["rank"] for r in rows[:9]] == [1] * 8 + [9]  # 8 winners level; then the bye
    assert rows[8]["entrant"] == "P17"


def test_a_bad_game_is_refused_naming_round_and_table_and_nothing_is_stored(db):
    doc = _seventeen()
    doc["rounds"].append(
        {
            "number": 2,
            "games": [
                {"table": 3, "entrants": ["P01", "P04"], "winner": "P01", "loser_score": 121}
            ],
            "byes": [],
        }
    )
    with pytest.raises(TournamentArchiveRefused, match=r"^Round 2, table 3: The loser's score"):
        import_tournament(doc)
    assert not Tournament.objects.exists()
    doc["rounds"][1]["games"][0].update(loser_score=80, winner="P09")
    with pytest.raises(TournamentArchiveRefused, match=r"^Round 2, table 3: The winner must be"):
        import_tournament(doc)
    doc["rounds"][1]["games"][0].update(winner="P01", entrants=["P01", "P01"])
    with pytest.raises(TournamentArchiveRefused, match="plays twice"):
        import_tournament(doc)
    assert not Tournament.objects.exists()


def test_standings_that_do_not_match_the_games_are_refused(finished_night):
    doc = _renamed(export_tournament(finished_night), "Copy")
    doc["standings"][0]["spread"] += 1
    with pytest.raises(TournamentArchiveRefused, match="standings row 1"):
        import_tournament(doc)
    doc = _renamed(export_tournament(finished_night), "Copy")
    doc["bracket"] = [[1, None]]
    with pytest.raises(TournamentArchiveRefused, match="bracket"):
        import_tournament(doc)


def test_no_playoff_game_after_the_match_is_decided(finished_night):
    doc = _renamed(export_tournament(finished_night), "Copy")
    del doc["standings"], doc["qualifiers"], doc["bracket"]
    games = doc["playoffs"][0]["matches"][0]["games"]
    games.append(dict(games[0]))
    with pytest.raises(TournamentArchiveRefused, match=r"Playoff round 1, seeds 1 v 2, game 3"):
        import_tournament(doc)


def test_the_commands_round_trip_through_a_file(finished_night, tmp_path):
    out = io.StringIO()
    call_command("export_tournament", finished_night.name, stdout=out)
    doc = _renamed(json.loads(out.getvalue()), "Copy")
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    again = io.StringIO()
    call_command("export_tournament", "Copy", stdout=again)
    assert json.loads(again.getvalue()) == doc
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no tournament called"):
        call_command("tournament_standings", "Nope", stdout=io.StringIO())


def test_a_partnership_keeps_its_players_in_order(db):
    doc = _seventeen()
    doc["tournament"]["variant"] = "partnership-121"
    for i, e in enumerate(doc["entrants"]):
        e["players"] = [f"Z{i}", f"A{i}"]
    t = import_tournament(doc)
    out = export_tournament(t)
    assert out["entrants"][0] == {"name": "P01", "players": ["Z0", "A0"]}


def test_a_bye_written_among_the_playoff_matches_is_passed_over(db):
    doc = _seventeen()
    doc["playoffs"] = [{"round": 1, "matches": [{"seeds": [1, None], "games": []}]}]
    t = import_tournament(doc)
    assert t.playoff_matches.filter(round=1, is_bye=True, winner__isnull=False).count() == 3


def test_the_table_of_a_night_without_entrants_yet(night):
    out = io.StringIO()
    call_command("tournament_standings", night.name, stdout=out)
    assert night.name in out.getvalue()
    out = io.StringIO()
    call_command("tournament_standings", night.name, "--format", "json", stdout=out)
    assert json.loads(out.getvalue()) == {
        "tournament": night.name,
        "standings": [],
        "qualifiers": [],
        "bracket": [],
    }


def _night(entrants: int, rounds: int, name: str) -> dict:
    """A singles night of ``entrants`` over ``rounds`` rounds (each round the field turned by
    one, neighbours paired, the first named winning), its bracket drawn and played out."""
    names = [f"E{i:02d}" for i in range(1, entrants + 1)]
    round_rows = []
    for k in range(rounds):
        order = names[k:] + names[:k]
        games = [
            {
                "table": t + 1,
                "entrants": [order[2 * t], order[2 * t + 1]],
                "winner": order[2 * t],
                "loser_score": 40 + (3 * t + 7 * k) % 80,
            }
            for t in range(entrants // 2)
        ]
        round_rows.append({"number": k + 1, "games": games, "byes": []})
    doc = {
        "format": "pegboard-tournament",
        "version": 1,
        "tournament": {"name": f"{name} (draft)", "draw_seed": 7},
        "entrants": [{"name": n} for n in names],
        "rounds": round_rows,
        "playoffs": [],
    }
    night = import_tournament(doc)  # drawn, then every match played 2-0 by its top seed
    open_matches = night.playoff_matches.filter(winner=None).order_by("round")
    while (match := open_matches.first()) is not None:
        for score in (90, 95):
            services.playoff_game_record(
                user=TRUSTED, match=match, winner=match.top, loser_score=score
            )
    night.refresh_from_db()
    return _renamed(export_tournament(night), name)


def _statements(doc: dict) -> int:
    with CaptureQueriesContext(connection) as queries:
        import_tournament(doc)
    return len(queries)


def test_an_import_takes_the_same_few_statements_however_many_tables(db):
    """A night is written with one insert per table of rows (security review, L11), not one per
    row: a 12-entrant night of 4 rounds takes 21 statements (checks, inserts, the standings
    read once to tell each entrant its place, those messages written in one insert, the
    savepoint), and one of 48 with four times the
    games, byes and playoff games takes at most one more per batch of rows (SQLite inserts
    at most 999 values at once: its audit trail is two batches), where row by row it took
    several hundred more; and both nights come back whole."""
    small, big = _night(12, 4, "Twelve"), _night(48, 4, "Forty-eight")
    assert len(big["rounds"][0]["games"]) == 24 and len(big["playoffs"]) == 4
    twelve = _statements(small)
    assert twelve <= 21
    assert _statements(big) <= twelve + 3
    assert export_tournament(Tournament.objects.get(name="Forty-eight")) == big
    assert export_tournament(Tournament.objects.get(name="Twelve")) == small


def test_games_the_acc_rule_split_keep_each_sides_figure_through_a_round_trip(db):
    """A 12.2(b) game (a 16-point win, a 17-point loss) and a 12.2(e) game (a loss for both)
    export their two figures and import to the same standings."""
    doc = _seventeen()
    games = doc["rounds"][0]["games"]
    games[0].update({"winner": "P01", "loser_score": 105, "spreads": [16, -17]})
    games[1].update({"winner": None, "loser_score": None, "spreads": [-12, -15]})
    doc.pop("standings", None)
    night = import_tournament(doc)
    rows = {r["entrant"]: r for r in export_tournament(night)["standings"]}
    assert (rows["P01"]["spread"], rows["P02"]["spread"]) == (16, -17)
    assert [(rows[n]["won"], rows[n]["lost"], rows[n]["spread"]) for n in ("P03", "P04")] == [
        (0, 1, -12),
        (0, 1, -15),
    ]
    exported = export_tournament(night)
    assert exported["rounds"][0]["games"][1]["spreads"] == [-12, -15]
    copy_doc = _renamed(exported, "Copy")
    assert export_tournament(import_tournament(copy_doc)) == copy_doc


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"spreads": [16, 17]}, "both entrants a win"),
        ({"spreads": [0, -3]}, "not 0"),
        ({"winner": "P02", "loser_score": 105, "spreads": [16, -17]}, "do not follow"),
    ],
)
def test_spreads_that_cannot_be_a_game_are_refused(db, change, words):
    doc = _seventeen()
    doc["rounds"][0]["games"][0].update(change)
    with pytest.raises(TournamentArchiveRefused, match=words):
        import_tournament(doc)
    assert not Tournament.objects.exists()
