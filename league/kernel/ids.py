"""One reading of a number typed into a URL, a form or a JSON key: ASCII digits only.

``str.isdigit()`` says yes to "²" and "①", which ``int()`` then refuses with a server error;
``int()`` alone takes " 7", "7_000" and "٣". Every id, week, screen or seat number that arrives as
text is read here, so the pages answer 404 and the API 400 instead.
"""

from __future__ import annotations

import re

#: 18 digits stay below 2^63 - 1, the largest id either database holds.
ID_DIGITS = 18

_DIGITS = re.compile(r"[0-9]+")


def number_from(raw: object, *, digits: int = ID_DIGITS) -> int | None:
    """The whole number ``raw`` spells in ASCII digits (at most ``digits`` of them), else None.

    >>> number_from("42"), number_from("²"), number_from("①"), number_from(" 7"), number_from(7)
    (42, None, None, None, None)
    >>> number_from("1234567", digits=6) is None
    True
    """
    if not isinstance(raw, str) or not 0 < len(raw) <= digits or not _DIGITS.fullmatch(raw):
        return None
    return int(raw)
