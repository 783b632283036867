"""The tournament archive keeps an event's settings beyond its scoring rules (ACC cross-check,
Rule 12.2(h), two games per opponent, keep-apart pairs, the bracket format, the grand final's
reset, best-of per round, the tie-break playoffs) and a double-elimination bracket's games;
an archive written before those fields imports with every default; a bad setting is refused
in words and nothing is stored."""

from __future__ import annotations

import copy
import json

import pytest

from tests.tournaments.conftest import TRUSTED, weekend_playoff, win
from tournaments import services
from tournaments.archive import TournamentArchiveRefused, export_tournament, import_tournament
from tournaments.models import PlayoffMatch, Tournament, TournamentStage


def _renamed(doc, name):
    doc = copy.deepcopy(doc)
    doc["tournament"]["name"] = name
    return doc


def _old_archive() -> dict:
    """An archive as written before the settings: no ``settings``, no ``tiebreak_playoffs``."""
    return {
        "format": "pegboard-tournament",
        "version": 1,
        "tournament": {"name": "Old Night", "kind": "main", "draw_seed": 3},
        "entrants": [{"name": n} for n in ("Ann", "Bob", "Cy", "Dee")],
        "rounds": [
            {
                "number": 1,
                "games": [
                    {"table": 1, "entrants": ["Ann", "Bob"], "winner": "Ann", "loser_score": 90},
                    {"table": 2, "entrants": ["Cy", "Dee"], "winner": "Cy", "loser_score": 100},
                ],
                "byes": [],
            }
        ],
    }


def test_an_archive_without_the_new_fields_imports_with_every_default(db):
    t = import_tournament(_old_archive())
    assert (t.acc_rules, t.acc_no_harm, t.games_per_opponent, t.keep_apart) == (
        False,  # a main event: the checkers settle disagreements unless the director says so
        True,
        1,
        [],
    )
    assert (t.bracket_format, t.grand_final_reset, t.playoff_best_of_rounds) == (
        "single",
        True,
        "",
    )
    assert t.tiebreak_playoffs == []
    settings = export_tournament(t)["tournament"]["settings"]
    assert settings["bracket_format"] == "single" and settings["keep_apart"] == []


def test_the_settings_round_trip(db):
    t = services.tournament_create(user=TRUSTED, name="Weekend Main", games_per_entrant=2)
    services.tournament_update(
        user=TRUSTED,
        tournament=t,
        changes={
            "acc_no_harm": False,
            "games_per_opponent": 2,
            "keep_apart": [["Ann", "Bob"]],
            "bracket_format": "double",
            "grand_final_reset": False,
            "playoff_best_of_rounds": "1,3,5",
        },
    )
    t.refresh_from_db()
    doc = export_tournament(t)
    assert doc["tournament"]["settings"] == {
        "acc_rules": True,  # a club night's default
        "acc_no_harm": False,
        "games_per_opponent": 2,
        "keep_apart": [["Ann", "Bob"]],
        "bracket_format": "double",
        "grand_final_reset": False,
        "playoff_best_of_rounds": "1,3,5",
    }
    restored = import_tournament(json.loads(json.dumps(_renamed(doc, "Copy"))))
    assert export_tournament(restored) == _renamed(doc, "Copy")


def test_a_double_elimination_played_to_its_deciding_match_round_trips(db):
    t, seed = weekend_playoff(4, best_of="1,3")
    for label, top, bottom, winner in [
        ("W1-1", 1, 4, 1),
        ("W1-2", 2, 3, 3),
        ("L1-1", 4, 2, 2),
        ("W2-1", 1, 3, 3),
        ("L2-1", 2, 1, 1),
    ]:
        win(t, seed, label, top, bottom, winner)
    win(t, seed, "F1", 3, 1, 1, games=2)
    win(t, seed, "F2", 3, 1, 1, games=2)
    t.refresh_from_db()
    assert t.stage == TournamentStage.FINISHED
    doc = export_tournament(t)
    sides = [(p.get("side"), p["round"]) for p in doc["playoffs"]]
    assert sides == [
        ("winners", 1),
        ("winners", 2),
        ("losers", 1),
        ("losers", 2),
        ("final", 1),
        ("final", 2),
    ]
    copy_doc = _renamed(doc, "Copy")
    restored = import_tournament(json.loads(json.dumps(copy_doc)))
    assert restored.stage == TournamentStage.FINISHED
    assert export_tournament(restored) == copy_doc
    deciding = PlayoffMatch.objects.get(tournament=restored, side="final", round=2)
    assert deciding.winner.name == seed[1].name and deciding.best_of == 3


def test_a_losers_bracket_game_before_its_players_are_known_is_refused(db):
    t, seed = weekend_playoff(4)
    win(t, seed, "W1-1", 1, 4, 1)
    win(t, seed, "W1-2", 2, 3, 2)
    win(t, seed, "L1-1", 4, 3, 3)
    doc = _renamed(export_tournament(t), "Copy")
    doc["playoffs"] = [doc["playoffs"][1], doc["playoffs"][0]]  # the losers' round first
    with pytest.raises(
        TournamentArchiveRefused, match="losers round 1, seeds 3 v 4: these seeds do not meet"
    ):
        import_tournament(doc)
    assert not Tournament.objects.filter(name="Copy").exists()


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"games_per_opponent": 3}, "games_per_opponent is 1 or 2"),
        ({"acc_no_harm": "yes"}, "acc_no_harm is true or false"),
        ({"bracket_format": "swiss"}, "bracket_format 'swiss' is not one of"),
        ({"playoff_best_of_rounds": "1,2"}, "is not a list of 1, 3, 5 or 7"),
        ({"keep_apart": [["Ann"]]}, "each keep_apart pair is two"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_setting_is_refused_and_nothing_is_stored(db, given, words):
    doc = _old_archive()
    doc["tournament"]["settings"] = given
    with pytest.raises(TournamentArchiveRefused, match=words):
        import_tournament(doc)
    assert not Tournament.objects.exists()


def test_the_tiebreak_playoffs_come_back(db):
    doc = _old_archive()
    doc["tournament"]["tiebreak_playoffs"] = [["Bob", "Dee"]]
    assert import_tournament(doc).tiebreak_playoffs == [["Bob", "Dee"]]
    doc = _renamed(_old_archive(), "Bad")
    doc["tournament"]["tiebreak_playoffs"] = [["Bob", "Bob"]]
    with pytest.raises(TournamentArchiveRefused, match="winner, loser"):
        import_tournament(doc)
