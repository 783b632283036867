#!/usr/bin/env python3
"""Scorer benchmark: our ``show_total`` and ``score_show`` beside every cribbage scorer on PyPI.

Not a test. Run it with any Python 3.11+ from the project root::

    python bench/scorer.py                 # or: make bench
    python bench/scorer.py --hands 20000   # a quicker run
    python bench/scorer.py --profile       # where score_show spends its time

What it does:

1. Creates ``bench/.venv`` (if missing) and installs each scorer named in
   ``bench/requirements.txt`` into its own folder ``bench/.venv/competitors/<name>/``;
   then runs itself again with ``bench/.venv/bin/python``, so every scorer, ours included, is
   measured by the same interpreter in the same process. The competitors are never installed
   into the project's own virtualenv.
2. Deals a fixed, seeded sample of random hands (4 cards and a starter; 100,000 by default) and
   times our two calls on it: ``show_total(hand, starter)`` (the total alone, what the check of
   a claimed show uses) and ``score_show(hand, starter).total`` (the readable result): each once
   cold (the first pass of a fresh interpreter, right after ``import scoring``) and the best of
   ``--repeat`` warm passes.
3. Times each competitor on the same hands, converted to its own card objects beforehand (the
   conversion is not timed), and checks its totals against ours, as a hand and as a crib, on the
   whole sample and on a short list of hands that catch the usual mistakes (double runs, hand and
   crib flushes, nobs). A scorer that disagrees is reported and is not "correct".
4. Times the full show distribution (hand and crib, 12,994,800 hand-and-starter pairs each),
   computed afresh.
5. Times the pegging of a deal, if ``scoring/pegging.py`` exists (it is being written); skipped
   with a message otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib
import importlib.metadata
import io
import json
import os
import platform
import pstats
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VENV = BENCH / ".venv"
COMPETITORS_DIR = VENV / "competitors"
REQUIREMENTS = BENCH / "requirements.txt"
IN_BENCH_VENV = "PEGBOARD_BENCH_IN_VENV"

# Declares Requires-Python >=3.12, but its code (and its two small dependencies) runs on 3.11.
IGNORE_REQUIRES_PYTHON = {"cribbagesim"}

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------------------------
# The benchmark's own virtualenv
# --------------------------------------------------------------------------------------------


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _requirements() -> list[str]:
    lines = []
    for raw in REQUIREMENTS.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def _dist_name(requirement: str) -> str:
    for sep in ("==", ">=", "<=", "~=", ">", "<", "["):
        requirement = requirement.split(sep, 1)[0]
    return requirement.strip().lower()


def ensure_bench_venv() -> bool:
    """Create bench/.venv and install each competitor into its own folder. True when usable."""
    python = _venv_python()
    if not python.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"could not create {VENV}: {exc}")
            return False
    for req in _requirements():
        name = _dist_name(req)
        target = COMPETITORS_DIR / name
        marker = target / ".installed"
        if marker.exists() and marker.read_text() == req:
            continue
        print(f"installing {req} into {target.relative_to(ROOT)} ...", flush=True)
        cmd = [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--upgrade",
            "--target",
            str(target),
            req,
        ]
        if name in IGNORE_REQUIRES_PYTHON:
            cmd.insert(-1, "--ignore-requires-python")
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
            print(f"  could not install {req}: {' '.join(tail)} (it will be skipped)")
            continue
        marker.write_text(req)
    return True


# --------------------------------------------------------------------------------------------
# The competitors: each loaded from its own folder, with a card converter and a scoring call
# --------------------------------------------------------------------------------------------


@dataclass
class Competitor:
    dist: str
    version: str
    module: str  # what is called, for the report
    prepare: Callable[[Any, Any], Any]  # (our hand, our starter) -> its own objects
    score: Callable[[Any, bool], int]  # (its objects, crib) -> total
    crib: bool = True  # whether it knows the crib's flush rule
    notes: list[str] = field(default_factory=list)


@contextlib.contextmanager
def _isolated(target: Path) -> Iterator[None]:
    """Import from ``target`` only, then forget its modules (the loaded functions keep theirs),
    so two distributions that both ship a package called ``cribbage`` can be measured together.
    """
    before = set(sys.modules)
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(target))
        for name in set(sys.modules) - before:
            file = getattr(sys.modules[name], "__file__", None) or ""
            if file.startswith(str(target)):
                del sys.modules[name]


def _version(target: Path, dist: str) -> str:
    for d in importlib.metadata.distributions(path=[str(target)]):
        if d.metadata["Name"].lower().replace("_", "-") == dist:
            return d.version
    return "?"


SUIT_LETTERS = "SHDC"  # our suit order: Card.suit 0..3


def _load_cribbage_scorer(target: Path) -> Competitor:
    from cribbage_scorer import cribbage_scorer as cs  # type: ignore[import-not-found]

    def prepare(hand: Sequence[Any], starter: Any) -> Any:
        return (
            [(c.rank, SUIT_LETTERS[c.suit]) for c in hand],
            (starter.rank, SUIT_LETTERS[starter.suit]),
        )

    def score(p: Any, crib: bool) -> int:
        return int(cs.show_calc_score(p[1], p[0], crib)[0])

    return Competitor("cribbage-scorer", "", "cribbage_scorer.show_calc_score", prepare, score)


def _load_magmacrunch(target: Path) -> Competitor:
    from cribbage import cards as mc  # type: ignore[import-not-found]

    suits = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}

    def conv(c: Any) -> Any:
        return mc.Card(suits[c.suit], mc.RANKS[c.rank - 1])

    def prepare(hand: Sequence[Any], starter: Any) -> Any:
        return ([conv(c) for c in hand], conv(starter))

    def score(p: Any, crib: bool) -> int:
        return int(mc.score_hand(p[0], p[1], crib).total)

    return Competitor("magmacrunch-cribbage", "", "cribbage.cards.score_hand", prepare, score)


def _load_pycribbage(target: Path) -> Competitor:
    from pycribbage.deck_tools import Card, Hand  # type: ignore[import-not-found]
    from pycribbage.scorer import ScoreTheShow  # type: ignore[import-not-found]

    def prepare(hand: Sequence[Any], starter: Any) -> Any:
        h = Hand()
        h.cards = [Card(c.suit, c.rank) for c in (*hand, starter)]  # the starter goes last
        return h

    def score(p: Any, crib: bool) -> int:
        return int(ScoreTheShow(p, is_crib=crib).score)

    return Competitor("pycribbage", "", "pycribbage.scorer.ScoreTheShow", prepare, score)


def _load_cribbage(target: Path) -> Competitor:
    from cribbage.card import Card  # type: ignore[import-not-found]
    from cribbage.score import score_hand  # type: ignore[import-not-found]

    def conv(c: Any) -> Any:
        return Card(c.suit * 13 + c.rank - 1)

    def prepare(hand: Sequence[Any], starter: Any) -> Any:
        return ([conv(c) for c in hand], conv(starter))

    def score(p: Any, crib: bool) -> int:
        return int(score_hand(p[0], p[1]))  # it has no crib argument

    return Competitor("cribbage", "", "cribbage.score.score_hand", prepare, score, crib=False)


def _load_cribbagesim(target: Path) -> Competitor:
    from CribbageSim.CribbageCombination import (  # type: ignore[import-not-found]
        CribFlushCombination,
        FifteenCombination,
        FlushCombination,
        HisNobsCombination,
        PairCombination,
        RunCombination,
    )
    from HandsDecksCards.card import Card  # type: ignore[import-not-found]
    from HandsDecksCards.hand import Hand  # type: ignore[import-not-found]

    pips = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    # The same lists CribbageDeal.determine_score_showing_hand/_crib iterate over.
    hand_combos = [
        PairCombination(),
        FifteenCombination(),
        RunCombination(),
        FlushCombination(),
        HisNobsCombination(),
    ]
    crib_combos = [
        PairCombination(),
        FifteenCombination(),
        RunCombination(),
        CribFlushCombination(),
        HisNobsCombination(),
    ]

    def conv(c: Any) -> Any:
        return Card(SUIT_LETTERS[c.suit], pips[c.rank - 1])

    def prepare(hand: Sequence[Any], starter: Any) -> Any:
        h = Hand()
        h.add_cards([conv(c) for c in hand])
        return (h, conv(starter))

    def score(p: Any, crib: bool) -> int:
        total = 0
        for combo in crib_combos if crib else hand_combos:
            total += combo.score(p[0], p[1]).score
        return total

    return Competitor(
        "cribbagesim", "", "CribbageSim.CribbageCombination (as CribbageDeal)", prepare, score
    )


LOADERS: dict[str, Callable[[Path], Competitor]] = {
    "cribbage-scorer": _load_cribbage_scorer,
    "magmacrunch-cribbage": _load_magmacrunch,
    "pycribbage": _load_pycribbage,
    "cribbage": _load_cribbage,
    "cribbagesim": _load_cribbagesim,
}


def load_competitors() -> list[Competitor]:
    found = []
    for req in _requirements():
        name = _dist_name(req)
        target = COMPETITORS_DIR / name
        if not (target / ".installed").exists():
            print(f"  {name}: not installed, skipped")
            continue
        loader = LOADERS.get(name)
        if loader is None:
            print(f"  {name}: no adapter in bench/scorer.py, skipped")
            continue
        try:
            with _isolated(target):
                comp = loader(target)
        except Exception as exc:  # a broken package must not stop the benchmark
            print(f"  {name}: could not be loaded ({type(exc).__name__}: {exc}), skipped")
            continue
        comp.version = _version(target, name)
        found.append(comp)
    return found


# --------------------------------------------------------------------------------------------
# Measurements
# --------------------------------------------------------------------------------------------

# Hands that catch the usual mistakes: (hand, starter). Each is checked as a hand and a crib.
EDGE_CASES = [
    ("5H 5D 5S JC", "5C"),  # 29
    ("5H 5D 5S 5C", "JC"),  # 28, no nobs (the jack is the starter)
    ("7H 7S 8H 8D", "9C"),  # double-double run: 24
    ("4H 4S 5H 6D", "6C"),  # 24
    ("3H 4H 5H 5D", "5C"),  # triple run
    ("2H 3H 4H 5H", "6H"),  # run of five, five-card flush
    ("2H 4H 6H 8H", "KS"),  # four-card flush: hand 4, crib 0
    ("2H 4H 6H 8H", "KH"),  # five-card flush: 5 in both
    ("2H 4H 6H 8S", "KH"),  # three in the hand plus the starter: no flush
    ("JH 2S 4D 6C", "9H"),  # nobs
    ("JH 2H 4H 6H", "9H"),  # nobs and a five-card flush
    ("AH 2S 3D 3C", "AD"),  # double-double run at the bottom
    ("9H TS JD QC", "KH"),  # run of five with tens and faces
    ("TH JS QD KC", "5H"),  # four fifteens and a run of four
    ("AH AS AD AC", "5H"),  # four aces: pairs only
    ("2H 4S 6D 8C", "TH"),  # zero
]


def deal_sample(n: int, seed: int) -> list[tuple[tuple[Any, ...], Any]]:
    from scoring import DECK

    rng = random.Random(seed)
    sample = []
    for _ in range(n):
        cards = rng.sample(DECK, 5)
        sample.append((tuple(cards[:4]), cards[4]))
    return sample


def _best_of(fn: Callable[[], list[int]], repeat: int, budget: float) -> tuple[float, list[int]]:
    """Best wall time of up to ``repeat`` passes (stopping early past ``budget`` seconds)."""
    best = float("inf")
    spent = 0.0
    result: list[int] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        if spent > budget:
            break
    return best, result


# Our two calls, as the bench times them: the total alone (what validating a claimed show uses)
# and the readable result (what the breakdowns and the API use), its total read.
OUR_CALLS = {
    "show_total": "show_total(h, s)",
    "score_show": "score_show(h, s).total",
}

_COLD_PASS = """
import json, sys, time
sys.path[:0] = [{root!r}, {bench!r}]
t0 = time.perf_counter()
import scoring
t1 = time.perf_counter()
from scorer import deal_sample
from scoring.show import score_show, show_total
sample = deal_sample({n}, {seed})
t2 = time.perf_counter()
totals = [{call} for h, s in sample]
t3 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "pass_s": t3 - t2, "checksum": sum(totals)}}))
"""


class OurPasses:
    """Timed passes of one of our calls (``OUR_CALLS``) over the sample: warm (this process, after
    earlier passes) or cold (the first pass of a fresh interpreter, right after ``import scoring``:
    what a new web worker's first deals meet; its tables are built at import or stored, so nothing
    is emptied).
    """

    def __init__(self, sample: list[tuple[tuple[Any, ...], Any]], seed: int, call: str) -> None:
        from scoring import show

        self.sample = sample
        self.seed = seed
        self.call = call
        self.show = show
        self.totals: list[int] = []
        self.import_s: list[float] = []

    def warm(self) -> float:
        sample = self.sample
        if self.call == "show_total":
            show_total = self.show.show_total
            t0 = time.perf_counter()
            self.totals = [show_total(h, s) for h, s in sample]
        else:
            score_show = self.show.score_show
            t0 = time.perf_counter()
            self.totals = [score_show(h, s).total for h, s in sample]
        return time.perf_counter() - t0

    def cold(self) -> float:
        code = _COLD_PASS.format(
            root=str(ROOT),
            bench=str(BENCH),
            n=len(self.sample),
            seed=self.seed,
            call=OUR_CALLS[self.call],
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        figures = json.loads(out)
        if self.totals and figures["checksum"] != sum(self.totals):
            raise RuntimeError("the cold pass scored the sample differently")
        self.import_s.append(figures["import_s"])
        return float(figures["pass_s"])


def measure_ours(passes: dict[str, OurPasses], repeat: int) -> dict[str, Any]:
    """Each of our calls cold and warm (best of ``repeat``); the crib totals; text input."""
    from scoring.show import score_show

    figures: dict[str, Any] = {}
    for call, ours in passes.items():
        warm = min(ours.warm() for _ in range(repeat))
        cold = min(ours.cold() for _ in range(repeat))
        figures[call] = {
            "cold_s": cold,
            "warm_s": warm,
            "cold_per_s": len(ours.sample) / cold,
            "warm_per_s": len(ours.sample) / warm,
            "import_scoring_s": min(ours.import_s),
        }
    totals = passes["score_show"].totals
    if passes["show_total"].totals != totals:
        raise RuntimeError("show_total and score_show(...).total disagree on the sample")
    sample = passes["score_show"].sample
    crib_totals = [score_show(h, s, crib=True).total for h, s in sample]
    texts = [(" ".join(map(str, h)), str(s)) for h, s in sample]
    text_s, _ = _best_of(lambda: [score_show(h, s).total for h, s in texts], repeat, budget=60.0)
    # The same hands as lists (what slicing a list of cards gives), in passes alternating with
    # the tuples' so both meet the same load: the fast path is for any four-card sequence. At
    # least 7 pairs: the two differ by a few percent, less than one noisy pass moves.
    lists = [(list(h), s) for h, s in sample]
    tuple_s = list_s = float("inf")
    for _ in range(max(repeat, 7)):
        t, from_tuples = _best_of(lambda: [score_show(h, s).total for h, s in sample], 1, 60.0)
        u, from_lists = _best_of(lambda: [score_show(h, s).total for h, s in lists], 1, 60.0)
        tuple_s, list_s = min(tuple_s, t), min(list_s, u)
    if from_lists != from_tuples:
        raise RuntimeError("score_show scored the hands differently as lists and as tuples")
    return {
        **figures,
        "text_s": text_s,
        "text_per_s": len(sample) / text_s,
        "tuple_s": tuple_s,
        "tuple_per_s": len(sample) / tuple_s,
        "list_s": list_s,
        "list_per_s": len(sample) / list_s,
        "totals": totals,
        "crib_totals": crib_totals,
    }


def measure_competitor(
    comp: Competitor,
    passes: dict[str, OurPasses],
    ours: dict[str, Any],
    repeat: int,
) -> dict[str, Any]:
    """Time ``comp`` on the sample, alternating with passes of ours (each of our calls cold and
    warm, then theirs; best of ``repeat`` each), so all are measured under the same load; then
    check its answers."""
    from scoring import Card, parse_cards
    from scoring.show import score_show

    sample = passes["show_total"].sample
    prepared = [comp.prepare(h, s) for h, s in sample]
    score = comp.score
    errors = 0

    def run() -> list[int]:
        nonlocal errors
        out = []
        for p in prepared:
            try:
                out.append(score(p, False))
            except Exception:
                errors += 1
                out.append(-1)
        return out

    best = float("inf")
    our_cold = dict.fromkeys(passes, float("inf"))
    our_warm = dict.fromkeys(passes, float("inf"))
    totals: list[int] = []
    spent = 0.0
    for _ in range(repeat):
        for call, ours_passes in passes.items():
            our_cold[call] = min(our_cold[call], ours_passes.cold())
            our_warm[call] = min(our_warm[call], ours_passes.warm())
        t0 = time.perf_counter()
        totals = run()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        if spent > 30.0:
            break
    hand_bad = [i for i, (a, b) in enumerate(zip(totals, ours["totals"], strict=True)) if a != b]
    crib_bad: list[int] = []
    if comp.crib:
        for i, p in enumerate(prepared):
            try:
                got = score(p, True)
            except Exception:
                got = -1
            if got != ours["crib_totals"][i]:
                crib_bad.append(i)
    edge_bad = []
    for hand_text, starter_text in EDGE_CASES:
        hand, starter = parse_cards(hand_text), Card.from_str(starter_text)
        for crib in (False, True) if comp.crib else (False,):
            want = score_show(hand, starter, crib=crib).total
            try:
                got = score(comp.prepare(hand, starter), crib)
            except Exception as exc:
                got = f"{type(exc).__name__}"  # type: ignore[assignment]
            if got != want:
                edge_bad.append(
                    f"{hand_text} / {starter_text}{' (crib)' if crib else ''}: "
                    f"says {got}, should be {want}"
                )
    examples = []
    for i in hand_bad[:3]:
        h, s = sample[i]
        examples.append(
            f"{' '.join(map(str, h))} / {s}: says {totals[i]}, should be {ours['totals'][i]}"
        )
    correct = not hand_bad and not crib_bad and not edge_bad and not errors
    return {
        "dist": comp.dist,
        "version": comp.version,
        "call": comp.module,
        "seconds": best,
        "per_s": len(sample) / best,
        # keyed by our call: show_total (the target's) and score_show
        "ours_warm_per_s": {call: len(sample) / t for call, t in our_warm.items()},
        "ours_cold_per_s": {call: len(sample) / t for call, t in our_cold.items()},
        "ratio_warm": {call: best / t for call, t in our_warm.items()},
        "ratio_cold": {call: best / t for call, t in our_cold.items()},
        "hand_disagreements": len(hand_bad),
        "crib_disagreements": len(crib_bad) if comp.crib else None,
        "edge_disagreements": edge_bad,
        "examples": examples,
        "errors": errors,
        "correct": correct,
    }


def measure_distribution() -> dict[str, Any]:
    from scoring.distribution import show_distribution

    fresh = show_distribution.__wrapped__  # bypass functools.cache: compute it again
    t0 = time.perf_counter()
    hand = fresh(4)
    t1 = time.perf_counter()
    crib = fresh(4, crib=True)
    t2 = time.perf_counter()
    return {
        "hand_s": t1 - t0,
        "crib_s": t2 - t1,
        "total_s": t2 - t0,
        "hand_pairs": sum(hand.values()),
        "crib_pairs": sum(crib.values()),
    }


def _pegging_calls(
    pegging: Any, variant: Any
) -> list[tuple[str, Callable[[list[tuple[Any, ...]]], object]]]:
    """The call shapes to try on scoring.pegging, the module's real one first."""
    play_out = getattr(pegging, "play_out", None)
    cls = getattr(pegging, "Pegging", None)
    shapes: list[tuple[str, Callable[[list[tuple[Any, ...]]], object]]] = []
    if callable(play_out):
        shapes += [
            ("play_out(variant, hands, dealer=0)", lambda h: play_out(variant, h, dealer=0)),
            ("play_out(hands, dealer=0)", lambda h: play_out(h, dealer=0)),
            ("play_out(variant, hands)", lambda h: play_out(variant, h)),
            ("play_out(hands)", lambda h: play_out(h)),
        ]
    if cls is not None and callable(getattr(cls, "play_out", None)):
        shapes += [
            (
                "Pegging(variant, hands, dealer=0).play_out()",
                lambda h: cls(variant, h, dealer=0).play_out(),
            ),
            ("Pegging(hands).play_out()", lambda h: cls(h).play_out()),
        ]
    return shapes


def measure_pegging(seed: int, deals: int = 2000) -> dict[str, Any]:
    """Time the play of whole deals through scoring/pegging.py, if it is there.

    ``play_out(variant, hands, dealer=...)`` plays a deal with its own card choice (the card that
    pegs most at once). The module was written while this benchmark was, so a few other call
    shapes are tried too; the first that works is timed, for the two-player game and for the
    league's four-player partnership game.
    """
    try:
        pegging = importlib.import_module("scoring.pegging")
    except ImportError as exc:
        return {"skipped": f"scoring/pegging.py is not there yet ({exc}); pegging not timed"}
    from scoring import DECK, get_variant

    results: dict[str, Any] = {"variants": {}}
    for key in ("singles-121", "partnership-121"):
        variant = get_variant(key)
        rng = random.Random(seed)
        all_hands = []
        for _ in range(deals):
            cards = rng.sample(DECK, variant.players * variant.hand_size)
            n = variant.hand_size
            all_hands.append([tuple(cards[i * n : (i + 1) * n]) for i in range(variant.players)])

        shapes = _pegging_calls(pegging, variant)
        if not shapes:
            names = ", ".join(n for n in dir(pegging) if not n.startswith("_"))
            return {"skipped": f"scoring.pegging has no play_out helper (it has: {names})"}
        failures = []
        for label, call in shapes:
            try:
                call(all_hands[0])
            except Exception as exc:
                failures.append(f"{label}: {type(exc).__name__}: {exc}")
                continue
            t0 = time.perf_counter()
            for hands in all_hands:
                call(hands)
            dt = time.perf_counter() - t0
            results["variants"][key] = {
                "call": label,
                "deals": deals,
                "seconds": dt,
                "per_deal_us": dt / deals * 1e6,
            }
            break
        else:
            return {"skipped": "no call shape of scoring.pegging worked: " + "; ".join(failures)}
    return results


def profile_ours(sample: list[tuple[tuple[Any, ...], Any]], *, cold: bool) -> str:
    from scoring import show
    from scoring.show import score_show

    if cold:
        show._RANK_TABLE.clear()  # the breakdown's figures; the totals' table is stored
    else:
        for h, s in sample:
            score_show(h, s)
    prof = cProfile.Profile()
    prof.enable()
    for h, s in sample:
        score_show(h, s).total  # noqa: B018
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(10)
    return out.getvalue()


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def _fmt_rate(per_s: float) -> str:
    return f"{per_s:>12,.0f}/s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--hands", type=int, default=100_000, help="sample size (100,000)")
    parser.add_argument("--seed", type=int, default=20261130, help="sample seed")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best counts")
    parser.add_argument(
        "--no-competitors", action="store_true", help="measure ours only (no bench/.venv)"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile score_show's pass")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    if not args.no_competitors and os.environ.get(IN_BENCH_VENV) != "1":
        if ensure_bench_venv():
            env = dict(os.environ, **{IN_BENCH_VENV: "1"})
            python = str(_venv_python())
            cmd = [python, str(Path(__file__).resolve()), *(argv or sys.argv[1:])]
            return subprocess.run(cmd, env=env).returncode
        print("measuring our scorer only")
        args.no_competitors = True

    print(
        f"Python {platform.python_version()} ({sys.executable}), {platform.machine()}, "
        f"{os.cpu_count()} cores, {platform.platform()}"
    )
    print(f"sample: {args.hands:,} random hands (4 cards + starter), seed {args.seed}\n")
    sample = deal_sample(args.hands, args.seed)

    results: dict[str, Any] = {"python": platform.python_version(), "hands": args.hands}
    passes = {call: OurPasses(sample, args.seed, call) for call in OUR_CALLS}
    ours = measure_ours(passes, args.repeat)
    results["ours"] = {k: v for k, v in ours.items() if not k.endswith("totals")}
    for call, expr in OUR_CALLS.items():
        print(f"{expr} (ours)")
        rows = [
            ("cold (first pass, new process)", ours[call]["cold_per_s"], ours[call]["cold_s"]),
            ("warm", ours[call]["warm_per_s"], ours[call]["warm_s"]),
        ]
        if call == "score_show":
            rows.append(("warm, cards given as text", ours["text_per_s"], ours["text_s"]))
            rows.append(("warm, hand a tuple (paired)", ours["tuple_per_s"], ours["tuple_s"]))
            rows.append(("warm, hand a list (paired)", ours["list_per_s"], ours["list_s"]))
        for label, per_s, seconds in rows:
            best = max(args.repeat, 7) if "paired" in label else args.repeat
            print(f"  {label:<32}{_fmt_rate(per_s)}  {seconds:.3f} s  (best of {best})")
        if call == "score_show":
            slower = ours["list_s"] / ours["tuple_s"] - 1
            verdict = "MET" if abs(slower) <= 0.10 else "NOT MET"
            print(f"  a list {slower:+.1%} beside a tuple (target within 10%: {verdict})")
    import_s = min(ours[call]["import_scoring_s"] for call in OUR_CALLS)
    print(f"  import scoring in a new process: {import_s * 1000:.1f} ms (best)")

    comps: list[dict[str, Any]] = []
    if not args.no_competitors:
        print(
            "\ncompetitors: same hands, same interpreter, their card objects built beforehand;"
            "\neach timed in turn with passes of ours (cold, warm, theirs), best of each"
        )
        for comp in load_competitors():
            print(f"  measuring {comp.dist} {comp.version} ...", flush=True)
            comps.append(measure_competitor(comp, passes, ours, args.repeat))
        print()
        print("\n  ours beside each: show_total(h, s) warm and cold, then score_show(h, s).total")
        header = (
            f"  {'scorer':<28}{'hands/s':>12}  {'show_total':>10} {'cold':>6}"
            f"  {'score_show':>10} {'cold':>6}  agrees with ours?"
        )
        print(header)
        print("  " + "-" * (len(header) + 24))
        for c in sorted(comps, key=lambda c: -c["per_s"]):
            if c["correct"]:
                verdict = "yes (hand and crib, sample and edge cases)"
            else:
                parts = [f"{c['hand_disagreements']:,} hands wrong"]
                if c["crib_disagreements"] is None:
                    parts.append("no crib rule")
                else:
                    parts.append(f"{c['crib_disagreements']:,} cribs wrong")
                parts.append(f"{len(c['edge_disagreements'])} edge cases wrong")
                if c["errors"]:
                    parts.append(f"{c['errors']} exceptions")
                verdict = "NO: " + ", ".join(parts)
            name = f"{c['dist']} {c['version']}"
            warm, cold = c["ratio_warm"], c["ratio_cold"]
            print(
                f"  {name:<28}{c['per_s']:>10,.0f}/s  {warm['show_total']:>9.1f}x "
                f"{cold['show_total']:>5.1f}x  {warm['score_show']:>9.1f}x "
                f"{cold['score_show']:>5.1f}x  {verdict}"
            )
        for c in comps:
            if not c["correct"]:
                print(f"\n  {c['dist']} {c['version']} gets these wrong, e.g.:")
                for line in (c["examples"] + c["edge_disagreements"])[:8]:
                    print(f"    {line}")
        correct = [c for c in comps if c["correct"]]
        if correct:
            best = max(correct, key=lambda c: c["per_s"])
            print(
                f"\nfastest correct competitor: {best['dist']} {best['version']} "
                f"({best['call']}), {best['per_s']:,.0f} hands/s"
            )
            for call, expr in OUR_CALLS.items():
                warm, cold = best["ratio_warm"][call], best["ratio_cold"][call]
                verdict = "MET" if warm >= 40 and cold >= 30 else "NOT MET"
                print(
                    f"{expr} is {warm:.1f}x as fast warm "
                    f"({best['ours_warm_per_s'][call]:,.0f}/s), {cold:.1f}x on a cold pass "
                    f"({best['ours_cold_per_s'][call]:,.0f}/s); target 40x warm, 30x cold: "
                    f"{verdict}"
                )
            results["fastest_correct"] = best
        else:
            print("\nno competitor agreed with our scores on every hand")
        results["competitors"] = comps

    print("\nfull show distribution (12,994,800 hand-and-starter pairs each), computed afresh")
    dist = measure_distribution()
    results["distribution"] = dist
    verdict = "MET" if dist["total_s"] < 10 else "NOT MET"
    print(
        f"  hand {dist['hand_s']:.2f} s, crib {dist['crib_s']:.2f} s, "
        f"both {dist['total_s']:.2f} s (target under 10 s: {verdict})"
    )

    print("\npegging: whole deals played out by scoring.pegging (its own choice of cards)")
    peg = measure_pegging(args.seed)
    results["pegging"] = peg
    if "skipped" in peg:
        print(f"  skipped: {peg['skipped']}")
    else:
        for key, m in peg["variants"].items():
            print(
                f"  {key:<16} {m['call']}: {m['deals']:,} deals in {m['seconds']:.3f} s, "
                f"{m['per_deal_us']:.0f} µs a deal"
            )

    if args.profile:
        for cold in (True, False):
            kind = "breakdown table emptied first" if cold else "warm"
            print(f"\nprofile of score_show over the sample ({kind}):")
            print(profile_ours(sample, cold=cold))

    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
        print(f"figures written to {args.json}")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from measured import measured

    measured("hands scored", len(sample), args.hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
