"""Single-elimination brackets: their size, the one seed order, byes, and best-of-N matches.

>>> bracket(5)
[(1, None), (4, 5), (3, None), (2, None)]
>>> match_winner(["Nobs", "Heels", "Nobs"], best_of=3)
'Nobs'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


def bracket_size(entrants: int) -> int:
    """The next power of two at or above the number of entrants.

    >>> [bracket_size(q) for q in (1, 2, 3, 5, 8, 9)]
    [1, 2, 4, 8, 8, 16]
    """
    size = 1
    while size < entrants:
        size *= 2
    return size


def slot_order(size: int) -> list[int]:
    """The seeds in first-round slot order, folded so that seeds 1 and 2 meet only in the
    final, 1 to 4 only in the semi-finals: each doubling pairs every seed s with size+1-s,
    the pair written low seed first in even slots and turned in odd ones. Slots 2k and 2k+1
    feed the same next-round match. (The tournament archive format pins this order.)

    >>> slot_order(8)
    [1, 8, 5, 4, 3, 6, 7, 2]
    """
    order = [1]
    m = 1
    while m < size:
        m *= 2
        nxt: list[int] = []
        for k, s in enumerate(order):
            pair = [s, m + 1 - s]
            nxt.extend(pair if k % 2 == 0 else reversed(pair))
        order = nxt
    return order


def pairings(order: Sequence[int], entrants: int) -> list[tuple[int, int | None]]:
    """First-round pairings from a slot ``order`` (seeds, two a match), the better seed first;
    ``None`` is a bye (a seed beyond ``entrants``). A stored bracket keeps the order it was
    drawn with, and reads its pairings through here.

    >>> pairings([1, 8, 4, 5, 2, 7, 3, 6], 6)
    [(1, None), (4, 5), (2, None), (3, 6)]
    """
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(order) - 1, 2):
        a, b = sorted(order[i : i + 2])
        out.append((a, b if b <= entrants else None))
    return out


def bracket(entrants: int) -> list[tuple[int, int | None]]:
    """First-round pairings in bracket order, the better seed first; ``None`` is a bye (the
    top ``size - entrants`` seeds get one, so the second round is full).

    >>> bracket(4)
    [(1, 4), (2, 3)]
    >>> bracket(1), bracket(0)
    ([(1, None)], [])
    """
    size = bracket_size(entrants)
    if size < 2:
        return [(1, None)] if entrants == 1 else []
    return pairings(slot_order(size), entrants)


def wins_needed(best_of: int) -> int:
    """Games a side must win to take a best-of-``best_of`` match.

    >>> wins_needed(3), wins_needed(5)
    (2, 3)
    """
    return best_of // 2 + 1


def match_winner(winners: Sequence[T], *, best_of: int) -> T | None:
    """Who has won the match from its game winners so far, in order, or None while it goes on.

    >>> match_winner(["A", "B"], best_of=3) is None
    True
    """
    need = wins_needed(best_of)
    count: Counter[T] = Counter()
    for w in winners:
        count[w] += 1
        if count[w] >= need:
            return w
    return None


BEST_OF_CHOICES = (1, 3, 5, 7)


def parse_best_of(text: str) -> tuple[int, ...]:
    """A best-of schedule written as the director types it (``"1,3,3,5"``, or one number for
    every round): each entry 1, 3, 5 or 7. Empty text is an empty schedule (the event's one
    best-of then holds for every round); anything else is a ``ValueError``.

    >>> parse_best_of("1, 3,3 ,5"), parse_best_of(" "), parse_best_of("3")
    ((1, 3, 3, 5), (), (3,))
    """
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if parts == [""]:
        return ()
    out = []
    for part in parts:
        if not part.isdigit() or int(part) not in BEST_OF_CHOICES:
            raise ValueError(part)
        out.append(int(part))
    return tuple(out)


def round_best_of(schedule: Sequence[int], round_: int, rounds: int, *, default: int = 3) -> int:
    """The best-of of playoff round ``round_`` of ``rounds``, from a schedule read from the
    final backwards: its last entry is the final's, the one before the semi-finals', and its
    first entry holds for every round before those it names (so ``"1,3,3,5"`` over a bracket
    of six rounds plays its first three rounds best of 1). An empty schedule: ``default``.

    >>> [round_best_of((1, 3, 3, 5), r, 4) for r in (1, 2, 3, 4)]
    [1, 3, 3, 5]
    >>> [round_best_of((1, 3, 5), r, 5) for r in range(1, 6)], round_best_of((1, 3, 5), 1, 2)
    ([1, 1, 1, 3, 5], 3)
    """
    if not schedule:
        return default
    from_final = rounds - round_
    return schedule[max(0, len(schedule) - 1 - from_final)]
