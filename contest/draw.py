"""The draw: the last tie-break, public and repeatable by anyone who knows the seed."""

from __future__ import annotations

import hashlib


def draw_ticket(seed: int, name: str) -> str:
    """A competitor's ticket in the draw: sha256 of "seed:name", the higher ticket first.

    The seed is published (a season's or a tournament's), so anyone can recompute the draw.

    >>> draw_ticket(2026, "Nobs")[:12]
    '6457b8b78b8e'
    """
    return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()
