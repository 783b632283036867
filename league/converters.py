"""The ``<id:...>`` path converter: a database id, so an id past 64 bits is a 404, not a crash.

Django's ``<int:>`` matches any run of digits, and SQLite cannot bind an integer past 64 bits
(``OverflowError``), which a page that looks the id up before ``get_object_or_404`` turns into a
500. Ids here are BigAutoField: 1 to 2**63 - 1.
"""

from __future__ import annotations

MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("not a database id")  # the resolver answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))
