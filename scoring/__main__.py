"""The scorer from the command line: ``python -m scoring show``, ``distribution`` and ``discard``.

``show`` counts one hand (or crib) with its starter, the last card given::

    $ python -m scoring show 5H 5D 5S JC 5C
    $ python -m scoring show --crib 2H 4H 6H 8H KH
    $ python -m scoring show --json 7H 7S 8H 8D 9C

``distribution`` counts how many hand-and-starter pairs score each total::

    $ python -m scoring distribution
    $ python -m scoring distribution --crib --hand-size 4

``discard`` ranks every way to lay away the cards dealt, by exact expected points (the hand over
the unseen starters, the crib over the starters and the other players' discards, drawn uniformly
from the unseen cards; pegging left out)::

    $ python -m scoring discard --dealer 5H 5D JS 4C KD 9S
    $ python -m scoring discard --json --pone --variant partnership-121 5H 5D JS 4C KD

Exit status: 0 on success, 2 for a usage error or cards that cannot be read.

>>> main(["show", "7H", "7S", "8H", "8D", "9C"])
hand 7H 7S 8H 8D, starter 9C
  fifteen two: 7S 8H
  fifteen four: 7S 8D
  fifteen six: 7H 8H
  fifteen eight: 7H 8D
  pair: 7S 7H
  pair: 8H 8D
  run of three: 7S 8H 9C
  run of three: 7S 8D 9C
  run of three: 7H 8H 9C
  run of three: 7H 8D 9C
total 24 (fifteens 8, pairs 4, runs 12, flush 0, nobs 0)
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from scoring.cards import format_cards, parse_cards
from scoring.discard import Discard, analyse_discards
from scoring.distribution import show_distribution
from scoring.errors import ScoringError
from scoring.show import MAX_HAND, MIN_HAND, ShowScore, score_show
from scoring.variants import VARIANTS

EXIT_OK = 0
EXIT_USAGE = 2


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Pegboard's cribbage scorer.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    show = commands.add_parser(
        "show",
        help="score a hand or crib with its starter",
        description="Score a hand or crib: give the hand's cards, then the starter last "
        "(5H 10H TH th 5♥ are all accepted).",
    )
    show.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help=f"{MIN_HAND} to {MAX_HAND} hand cards, then the starter",
    )
    show.add_argument("--crib", action="store_true", help="score it as the crib (flush: all five)")
    show.add_argument("--json", action="store_true", help="print the score as JSON")

    dist = commands.add_parser(
        "distribution",
        help="how many hand-and-starter pairs score each total",
        description="Count every hand of the given size with every starter, by total.",
    )
    dist.add_argument("--crib", action="store_true", help="count them as cribs")
    dist.add_argument(
        "--hand-size",
        type=int,
        default=4,
        choices=range(MIN_HAND, MAX_HAND + 1),
        metavar="N",
        help=f"cards in the hand, {MIN_HAND} to {MAX_HAND} (default 4)",
    )

    discard = commands.add_parser(
        "discard",
        help="rank every discard of the cards dealt by expected points",
        description="Rank every possible discard of the cards dealt, best first, by the exact "
        "expected points of the hand (over the unseen starters) and of the crib (over the "
        "starters and the other players' discards, drawn uniformly from the unseen cards), "
        "added for the dealer's side and taken away for the other. Pegging is left out.",
    )
    discard.add_argument("cards", nargs="+", metavar="CARD", help="the cards dealt")
    whose = discard.add_mutually_exclusive_group()
    whose.add_argument(
        "--dealer",
        dest="own_crib",
        action="store_true",
        default=True,
        help="the crib is your side's: you deal, or your partner does (the default)",
    )
    whose.add_argument(
        "--pone", dest="own_crib", action="store_false", help="the crib is the other side's"
    )
    discard.add_argument(
        "--variant",
        default="singles-121",
        choices=sorted(VARIANTS),
        metavar="NAME",
        help=f"the game: {', '.join(sorted(VARIANTS))} (default singles-121)",
    )
    discard.add_argument("--json", action="store_true", help="print the ranking as JSON")
    return parser


def _error(message: str, stderr: TextIO) -> int:
    print(f"python -m scoring: error: {message}", file=stderr)
    return EXIT_USAGE


def format_show(score: ShowScore) -> list[str]:
    """The lines ``show`` prints: a heading, each scoring combination, and the total.

    >>> print("\\n".join(format_show(score_show("2H 4H 6H 8H", "KS", crib=True))))
    crib 2H 4H 6H 8H, starter KS
      nothing scores
    total 0 (fifteens 0, pairs 0, runs 0, flush 0, nobs 0)
    """
    kind = "crib" if score.crib else "hand"
    lines = [f"{kind} {format_cards(score.hand)}, starter {score.starter}"]
    items = score.lines()
    lines += [f"  {line}" for line in items] if items else ["  nothing scores"]
    lines.append(
        f"total {score.total} (fifteens {score.fifteens}, pairs {score.pairs}, "
        f"runs {score.runs}, flush {score.flush}, nobs {score.nobs})"
    )
    return lines


def format_distribution(
    dist: dict[int, int], *, hand_size: int, crib: bool, seconds: float | None = None
) -> list[str]:
    """A table of ``{total: pairs}`` with percentages, every total from 0 to the highest.

    >>> table = format_distribution({0: 3, 2: 1}, hand_size=4, crib=False, seconds=0.5)
    >>> print("\\n".join(table))
    hands of 4 cards with the starter: 4 hand-and-starter pairs
    total          pairs     percent
        0              3   75.00000%
        1              -           -
        2              1   25.00000%
    -----  -------------  ----------
      all              4  100.00000%
    mean 0.5000; never scored: 1
    computed in 0.50 s
    """
    pairs = sum(dist.values())
    kind = "cribs" if crib else "hands"
    lines = [f"{kind} of {hand_size} cards with the starter: {pairs:,} hand-and-starter pairs"]
    lines.append(f"{'total':>5}  {'pairs':>13}  {'percent':>10}")
    top = max(dist) if dist else 0
    for total in range(top + 1):
        count = dist.get(total, 0)
        if count:
            lines.append(f"{total:>5}  {count:>13,}  {100 * count / pairs:>9.5f}%")
        else:
            lines.append(f"{total:>5}  {'-':>13}  {'-':>10}")
    lines.append(f"{'-' * 5}  {'-' * 13}  {'-' * 10}")
    lines.append(f"{'all':>5}  {pairs:>13,}  {100.0 if pairs else 0.0:>9.5f}%")
    mean = sum(t * c for t, c in dist.items()) / pairs if pairs else 0.0
    never = [str(t) for t in range(top + 1) if not dist.get(t)]
    lines.append(f"mean {mean:.4f}; never scored: {', '.join(never) if never else 'none'}")
    if seconds is not None:
        lines.append(f"computed in {seconds:.2f} s")
    return lines


def _show(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    tokens: Sequence[str] = args.cards
    try:
        cards = parse_cards(" ".join(tokens))
    except ScoringError as exc:
        return _error(str(exc), stderr)
    if not MIN_HAND + 1 <= len(cards) <= MAX_HAND + 1:
        return _error(
            f"give {MIN_HAND} to {MAX_HAND} hand cards and then the starter "
            f"({MIN_HAND + 1} to {MAX_HAND + 1} cards in all), not {len(cards)}.",
            stderr,
        )
    try:
        score = score_show(cards[:-1], cards[-1], crib=args.crib)
    except ScoringError as exc:  # pragma: no cover - parse_cards already refused the rest
        return _error(str(exc), stderr)
    if args.json:
        print(json.dumps(score.as_dict(), indent=2), file=stdout)
    else:
        print("\n".join(format_show(score)), file=stdout)
    return EXIT_OK


def _distribution(args: argparse.Namespace, stdout: TextIO) -> int:
    t0 = time.perf_counter()
    dist = show_distribution(args.hand_size, crib=args.crib)
    seconds = time.perf_counter() - t0
    table = format_distribution(dist, hand_size=args.hand_size, crib=args.crib, seconds=seconds)
    print("\n".join(table), file=stdout)
    return EXIT_OK


def format_discards(rows: Sequence[Discard], *, own_crib: bool) -> list[str]:
    """The table ``discard`` prints: one line a discard, best first.

    >>> rows = analyse_discards("5H 5D 5S JC 2D", variant="partnership-121", own_crib=True)
    >>> print("\\n".join(format_discards(rows[:2], own_crib=True)))
    discard  keep              hand    crib   total  hand 12+  hand 0
    2D       5H 5D 5S JC     16.596   4.429  21.025    100.0%    0.0%
    JC       5H 5D 5S 2D     11.319   4.051  15.370     51.1%    0.0%
    crib: yours (expected points added); pegging left out
    """
    lines = [
        f"{'discard':<7}  {'keep':<14}  {'hand':>6}  {'crib':>6}  {'total':>6}  "
        f"{'hand 12+':>8}  {'hand 0':>6}"
    ]
    for r in rows:
        lines.append(
            f"{r.discard_text:<7}  {r.keep_text:<14}  {r.hand:>6.3f}  {r.crib:>6.3f}  "
            f"{r.total:>6.3f}  {100 * r.hand_12_plus:>7.1f}%  {100 * r.hand_zero:>5.1f}%"
        )
    whose = "yours (expected points added)" if own_crib else "theirs (expected points taken away)"
    lines.append(f"crib: {whose}; pegging left out")
    return lines


def _discard(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        rows = analyse_discards(args.cards, variant=args.variant, own_crib=args.own_crib)
    except ScoringError as exc:
        return _error(str(exc), stderr)
    if args.json:
        print(json.dumps([r.as_dict() for r in rows], indent=2), file=stdout)
    else:
        print("\n".join(format_discards(rows, own_crib=args.own_crib)), file=stdout)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 for bad input).

    >>> main(["show", "5H", "5D", "5S", "JC", "5X"])  # the error goes to stderr
    2
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    stdout, stderr = sys.stdout, sys.stderr
    if args.command == "show":
        return _show(args, stdout, stderr)
    if args.command == "discard":
        return _discard(args, stdout, stderr)
    return _distribution(args, stdout)


if __name__ == "__main__":
    sys.exit(main())
