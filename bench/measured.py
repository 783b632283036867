"""The check every bench ends with: it measured as many items as it set out to, or it fails.

A bench that prints "met" after measuring nothing is worse than none (a season left in draft
once gave "0 matches, 0 mails ... target < 60 s: met"). Each bench calls ``measured`` for every
count it set out to measure; a shortfall prints what was missing and exits non-zero."""

from __future__ import annotations

import sys


def measured(what: str, got: int, wanted: int) -> None:
    """Say how many ``what`` were measured; exit 1 if fewer than ``wanted``."""
    if got < wanted or wanted <= 0:
        print(f"MEASURED TOO FEW: {got} {what} of the {wanted} this bench set out to measure")
        sys.exit(1)
    print(f"measured: {got} {what}")
