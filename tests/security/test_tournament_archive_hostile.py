"""Security review, L11: the tournament archive importer had none of the season importer's
hardening. It now reads with the same archive reader and limits (league/kernel/archive_reader):
size, UTF-8, JSON, depth, numbers, NUL and name lengths, each refused in words naming where,
all or nothing."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Player
from tournaments.archive import TournamentArchiveRefused, import_tournament
from tournaments.models import Tournament


def _seventeen() -> dict:
    """A one-round club night of 17 (8 tables and a bye), as the format describes it."""
    names = [f"P{i:02d}" for i in range(1, 18)]
    games = [
        {
            "table": t + 1,
            "entrants": [names[2 * t], names[2 * t + 1]],
            "winner": names[2 * t],
            "loser_score": 60 + 5 * t,
        }
        for t in range(8)
    ]
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


def test_the_archive_here_imports(db):
    assert import_tournament(_seventeen()).name == "Seventeen"


def run(tmp_path, raw: bytes) -> str:
    path = tmp_path / "night.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert not Tournament.objects.exists() and not Player.objects.exists()
    return str(refused.value)


@pytest.mark.django_db
def test_an_archive_nested_100000_deep_is_refused_in_words(tmp_path):
    raw = b'{"format": "pegboard-tournament", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert "nested too deeply" in run(tmp_path, raw)


@pytest.mark.django_db
def test_an_archive_past_the_size_cap_is_refused(tmp_path, settings):
    settings.PEGBOARD_ARCHIVE_MAX_BYTES = 1000
    raw = json.dumps(_seventeen()).encode() + b" " * 1000
    assert "larger than 1,000 bytes" in run(tmp_path, raw)


@pytest.mark.django_db
def test_an_archive_not_in_utf8_is_refused(tmp_path):
    raw = json.dumps(_seventeen(), ensure_ascii=False).replace("P01", "Zoë").encode("cp1252")
    assert "not UTF-8" in run(tmp_path, raw)


def hostile(change) -> dict:
    doc = copy.deepcopy(_seventeen())
    change(doc)
    return doc


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["entrants"][2].update(name="P0\x003"), "NUL"),
        (lambda d: d["entrants"][2].update(name="P" * 200), "at most 120 characters"),
        (lambda d: d["tournament"].update(draw_seed=2**40), "draw_seed must be at most"),
        (lambda d: d["tournament"].update(draw_seed=2**70), "too large"),
        (lambda d: d["tournament"]["rules"].update(qualify_one_in=10**9), "at most 32767"),
        (lambda d: d["rounds"][0]["games"][0].update(table=10**12), "at most 32767"),
        (lambda d: d["tournament"].update(name="N" * 161), "at most 160 characters"),
    ],
)
def test_hostile_values_are_refused_naming_where_and_nothing_is_stored(change, words):
    with pytest.raises(TournamentArchiveRefused) as refused:
        import_tournament(hostile(change))
    assert words in refused.value.message
    assert not Tournament.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_a_partnership_of_one_player_twice_is_refused_in_words():
    """It was an IntegrityError (a 500 at the door, a traceback at the command line)."""
    doc = hostile(lambda d: d["tournament"].update(variant="partnership-121"))
    for i, e in enumerate(doc["entrants"]):
        e["players"] = [f"Z{i}", f"A{i}"]
    doc["entrants"][3]["players"] = ["Kim", "Kim"]
    with pytest.raises(TournamentArchiveRefused) as refused:
        import_tournament(doc)
    assert refused.value.message == "Entrant 4: Kim is named twice: a partnership is two players."
    assert not Tournament.objects.exists() and not Player.objects.exists()
