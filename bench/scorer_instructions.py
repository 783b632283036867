"""Instructions per ``show_total`` and ``score_show(...).total`` beside cribbage-scorer (callgrind).

    python bench/scorer_instructions.py             # needs valgrind, and bench/.venv from scorer.py
    python bench/scorer_instructions.py --hands 3000

Wall-clock ratios move with the machine's load; an instruction count does not. Each scorer runs
in a fresh ``bench/.venv/bin/python`` under ``valgrind --tool=callgrind``, twice: once with a pass
over the hands after the setup (imports, the same hands as bench/scorer.py dealt, converted to the
competitor's own cards, one warm-up pass) and once without; the difference over the number of
hands is the count of one call. ``PYTHONHASHSEED`` is fixed so that both runs hash alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENV_PYTHON = BENCH / ".venv" / "bin" / "python"
COMPETITOR = BENCH / ".venv" / "competitors" / "cribbage-scorer"

_PAYLOAD = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
from scorer import deal_sample
sample = deal_sample({n}, 20261130)
if {which!r} == "show_total":
    from scoring.show import show_total
    def one_pass():
        return [show_total(h, s) for h, s in sample]
elif {which!r} == "score_show":
    from scoring.show import score_show
    def one_pass():
        return [score_show(h, s).total for h, s in sample]
elif {which!r} == "score_show_list":
    from scoring.show import score_show
    sample = [(list(h), s) for h, s in sample]
    def one_pass():
        return [score_show(h, s).total for h, s in sample]
else:
    sys.path.insert(0, {competitor!r})
    from cribbage_scorer import cribbage_scorer as cs
    prepared = [
        ([(c.rank, "SHDC"[c.suit]) for c in h], (s.rank, "SHDC"[s.suit])) for h, s in sample
    ]
    calc = cs.show_calc_score
    def one_pass():
        return [int(calc(p[1], p[0], False)[0]) for p in prepared]
one_pass()
if {counted}:
    one_pass()
"""


def _instructions(which: str, n: int, counted: bool) -> int:
    code = _PAYLOAD.format(
        root=str(ROOT),
        bench=str(BENCH),
        competitor=str(COMPETITOR),
        n=n,
        which=which,
        counted=counted,
    )
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    out = subprocess.run(
        [*command, str(VENV_PYTHON), "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    ).stderr
    for line in out.splitlines():
        if "Collected" in line:
            return int(line.split()[-1])
    raise RuntimeError(f"no instruction count in callgrind's output:\n{out}")


def per_call(which: str, n: int) -> float:
    return (_instructions(which, n, True) - _instructions(which, n, False)) / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    args = parser.parse_args(argv)
    if not VENV_PYTHON.exists() or not COMPETITOR.exists():
        print("bench/.venv is missing: run python bench/scorer.py once first", file=sys.stderr)
        return 1
    counted = 0
    theirs = per_call("cribbage-scorer", args.hands)
    print(f"cribbage_scorer.show_calc_score   {theirs:10,.0f} instructions a call")
    for which, expr in (
        ("show_total", "show_total(h, s)"),
        ("score_show", "score_show(h, s).total"),
        ("score_show_list", "score_show(list, s).total"),
    ):
        ours = per_call(which, args.hands)
        print(f"{expr:<34}{ours:10,.0f} instructions a call, {theirs / ours:.1f}x fewer")
        counted += 1
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from measured import measured

    measured("calls counted (ours)", counted, 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
