"""``python -m scoring``: the show and distribution commands, through main([...])."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import Card, parse_cards, score_show
from scoring.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- show ---------------------------------------------------------------------------------------


def test_show_29(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "5H", "5D", "5S", "JC", "5C")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "hand 5H 5D 5S JC, starter 5C"
    expected = score_show(parse_cards("5H 5D 5S JC"), Card.from_str("5C")).lines()
    assert lines[1:-1] == [f"  {line}" for line in expected]
    assert "  fifteen sixteen: 5H 5D 5C" in lines
    assert "  one for his nobs: JC" in lines
    assert lines[-1] == "total 29 (fifteens 16, pairs 12, runs 0, flush 0, nobs 1)"


def test_show_last_card_is_the_starter(capsys: pytest.CaptureFixture[str]) -> None:
    _, with_jack_cut, _ = run(capsys, "show", "5H", "5D", "5S", "5C", "JC")
    assert with_jack_cut.splitlines()[0] == "hand 5H 5D 5S 5C, starter JC"
    assert with_jack_cut.splitlines()[-1].startswith("total 28 ")


def test_show_double_double_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "7H", "7S", "8H", "8D", "9C")
    assert code == 0
    assert out.count("run of three") == 4
    assert out.splitlines()[-1] == "total 24 (fifteens 8, pairs 4, runs 12, flush 0, nobs 0)"


def test_show_crib_flush_rule(capsys: pytest.CaptureFixture[str]) -> None:
    _, hand, _ = run(capsys, "show", "2H", "4H", "6H", "8H", "KS")
    assert "  flush of four: 2H 4H 6H 8H" in hand.splitlines()
    assert hand.splitlines()[-1].startswith("total 4 ")
    code, crib, _ = run(capsys, "show", "--crib", "2H", "4H", "6H", "8H", "KS")
    assert code == 0
    assert crib.splitlines() == [
        "crib 2H 4H 6H 8H, starter KS",
        "  nothing scores",
        "total 0 (fifteens 0, pairs 0, runs 0, flush 0, nobs 0)",
    ]
    _, crib5, _ = run(capsys, "show", "2H", "4H", "6H", "8H", "KH", "--crib")
    assert crib5.splitlines()[-1].startswith("total 5 ")


def test_show_accepts_every_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "5♥", "5d", "5♠", "jc", "5♣")
    assert code == 0
    assert out.splitlines()[0] == "hand 5H 5D 5S JC, starter 5C"
    _, out, _ = run(capsys, "show", "10H", "JH", "QH", "KH", "AH")
    assert out.splitlines()[0] == "hand TH JH QH KH, starter AH"
    _, out, _ = run(capsys, "show", "5H,5D,5S,JC,5C")  # one token, commas
    assert out.splitlines()[-1].startswith("total 29 ")
    _, out, _ = run(capsys, "show", "5H 5D 5S JC 5C")  # one quoted argument
    assert out.splitlines()[-1].startswith("total 29 ")


def test_show_three_and_five_card_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "2H", "5H", "9H", "KH")
    assert code == 0
    assert "  flush of four: 2H 5H 9H KH" in out.splitlines()
    code, out, _ = run(capsys, "show", "6H", "6S", "5H", "5D", "4C", "4D")
    assert code == 0
    assert out.splitlines()[-1] == "total 46 (fifteens 16, pairs 6, runs 24, flush 0, nobs 0)"


def test_show_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "--json", "5H", "5D", "5S", "JC", "5C")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == score_show(parse_cards("5H 5D 5S JC"), Card.from_str("5C")).as_dict()
    assert data["total"] == 29
    assert data["hand"] == ["5H", "5D", "5S", "JC"]
    assert data["starter"] == "5C"
    assert data["crib"] is False
    assert sum(item["points"] for item in data["breakdown"]) == 29


def test_show_json_crib(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "show", "--json", "--crib", "2H", "4H", "6H", "8H", "KS")
    data = json.loads(out)
    assert (data["crib"], data["flush"], data["total"], data["breakdown"]) == (True, 0, 0, [])


@pytest.mark.parametrize("bad", ["5X", "1OH", "ZZ", "H5", "11C"])
def test_show_bad_card_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    code, out, err = run(capsys, "show", "5H", "5D", bad, "JC", "5C")
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert repr(bad) in err
    assert err.startswith("python -m scoring: error: ")


def test_show_duplicate_card_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "5H", "5D", "5S", "JC", "5h")
    assert (code, out) == (2, "")
    assert (
        err.strip()
        == "python -m scoring: error: 5H appears twice; a deck has only one of each card."
    )


@pytest.mark.parametrize(
    "cards", [["5H"], ["5H", "5D", "5S"], ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]]
)
def test_show_wrong_number_of_cards_exit_2(
    capsys: pytest.CaptureFixture[str], cards: list[str]
) -> None:
    code, out, err = run(capsys, "show", *cards)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert f"not {len(cards)}" in err


def test_show_needs_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show")
    assert (code, out) == (2, "")
    assert "CARD" in err


# --- distribution ---------------------------------------------------------------------------------


def test_distribution_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "distribution")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "hands of 4 cards with the starter: 12,994,800 hand-and-starter pairs"
    rows = {int(line.split()[0]): line.split()[1:] for line in lines[2:32]}
    assert sorted(rows) == list(range(30))
    assert rows[0] == ["1,009,008", "7.76471%"]
    assert rows[29] == ["4", "0.00003%"]
    assert rows[19] == ["-", "-"]
    assert "  all     12,994,800  100.00000%" in lines
    assert "mean 4.7692; never scored: 19, 25, 26, 27" in lines
    assert lines[-1].startswith("computed in ") and lines[-1].endswith(" s")
    widths = {len(line) for line in lines[1:34]}  # the table's lines line up
    assert len(widths) == 1


def test_distribution_crib(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "distribution", "--crib")
    assert code == 0
    assert out.splitlines()[0].startswith("cribs of 4 cards with the starter: 12,994,800")
    assert "    0      1,022,208" in out


def test_distribution_hand_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "distribution", "--hand-size", "3")
    assert (
        out.splitlines()[0] == "hands of 3 cards with the starter: 1,082,900 hand-and-starter pairs"
    )
    _, out, _ = run(capsys, "distribution", "--hand-size", "5", "--crib")
    assert "122,151,120" in out.splitlines()[0]
    assert "   46          1,296" in out


@pytest.mark.parametrize(
    "args",
    [["distribution", "--hand-size", "7"], ["distribution", "--hand-size", "x"], [], ["deal"]],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert "usage:" in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "show" in out and "distribution" in out


def test_python_dash_m_scoring() -> None:
    """The module runs as ``python -m scoring`` and its exit status is main's."""
    ok = subprocess.run(
        [sys.executable, "-m", "scoring", "show", "5H", "5D", "5S", "JC", "5C"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert ok.returncode == 0
    assert ok.stdout.splitlines()[-1].startswith("total 29 ")
    bad = subprocess.run(
        [sys.executable, "-m", "scoring", "show", "5H", "5D", "5S", "JC", "5X"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.count("\n") == 1


def test_the_modules_own_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """pytest's --doctest-modules never collects a ``__main__.py``, so run its examples here."""
    import doctest

    import scoring.__main__

    result = doctest.testmod(scoring.__main__)
    assert result.attempted >= 5
    assert result.failed == 0, capsys.readouterr().out


# --- discard ------------------------------------------------------------------------------------


def test_discard_json_ranks_every_discard_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "discard", "--json", "--dealer", "5H", "5D", "JS", "4C", "KD", "9S"
    )
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert len(rows) == 15  # C(6, 2)
    assert rows[0]["discard"] == ["4C", "9S"] and rows[0]["keep"] == ["5H", "5D", "JS", "KD"]
    for row in rows:
        assert row["total"] == pytest.approx(row["hand"] + row["crib"])
        assert row["crib"] > 0  # the dealer's own crib is added
    assert [r["total"] for r in rows] == sorted((r["total"] for r in rows), reverse=True)


def test_discard_as_pone_takes_the_crib_away(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys,
        "discard",
        "--json",
        "--pone",
        "--variant",
        "partnership-121",
        *"5H 5D JS 4C KD".split(),
    )
    rows = json.loads(out)
    assert len(rows) == 5 and all(len(r["discard"]) == 1 and r["crib"] < 0 for r in rows)
    assert rows[0]["discard"] == ["4C"]


def test_discard_refuses_the_wrong_number_of_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "discard", "--variant", "seven-card-181", "5H", "5D")
    assert (code, out) == (2, "")
    assert "Seven-card cribbage to 181 deals 7 cards, not 2." in err


def test_discard_table_says_pegging_is_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "--pone", "AH", "2H", "3H", "4H", "5H", "6H")
    assert code == 0
    assert out.splitlines()[1].startswith("AH 2H    3H 4H 5H 6H")
    assert out.splitlines()[-1] == "crib: theirs (expected points taken away); pegging left out"
