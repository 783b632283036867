"""Reading an archive someone else wrote: the checks the season and tournament archives share.

An archive is a file from outside (a spreadsheet's export, a backup, a crafted attack), so it is
read defensively and every refusal is a sentence that says where it is: a :class:`Reader` keeps
a running "where" ("Week 2, Fifteen Two v Nobs, game 1, deal 7") and checks types, fields,
lengths and ranges before the database sees a value, so SQLite (which stores nearly anything)
and PostgreSQL (which raises ``DataError``) refuse a file with the same words.
:func:`archive_parse` and :func:`check_shape` stop hostile files before that: past the size cap,
not UTF-8, not JSON, nested too deeply, numbers past 64 bits, texts past 10,000 characters.

Each archive passes its own refusal class (a :class:`~league.kernel.errors.ValidationFailed`)
and its own limits; the messages are the ones each archive has always given.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.conf import settings

from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.parsers import CONTROL_CHARACTERS

NAME_LIMIT = 120  # characters: the name columns of leagues, seasons, teams and players
SMALL_LIMIT = 32_767  # the largest value of the small-integer columns (weeks, rules, playoffs)
BIG_LIMIT = 2**63 - 1  # the largest number any column holds (a draw seed)
TEXT_LIMIT = 10_000  # characters of any one text in an archive
DEPTH_LIMIT = 16  # an archive is about ten levels deep (weeks, matches, games, deals, cards)


class Reader:
    """Reads an archive with a running "where" so every refusal names its place.

    ``refusal`` is the archive's own error class; ``name_limit`` and ``number_limit`` are the
    longest text and the largest number :meth:`text` and :meth:`int` accept by default (None:
    no limit beyond :func:`check_shape`'s)."""

    def __init__(
        self,
        refusal: type[ValidationFailed],
        *,
        name_limit: int | None = None,
        number_limit: int | None = None,
    ) -> None:
        self.refusal = refusal
        self.name_limit = name_limit
        self.number_limit = number_limit
        self.where: list[str] = []

    def refuse(self, message: str) -> ValidationFailed:
        prefix = ", ".join(self.where)
        return self.refusal(f"{prefix}: {message}" if prefix else message)

    @contextmanager
    def at(self, label: str) -> Iterator[None]:
        """Inside, a refusal (or a service's domain error) is prefixed with ``label``."""
        self.where.append(label)
        try:
            yield
        except self.refusal:
            raise
        except DomainError as exc:
            raise self.refuse(exc.message) from None
        finally:
            self.where.pop()

    def obj(
        self,
        value: Any,
        what: str,
        *,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.refuse(f"{what} must be a JSON object.")
        for key in required:
            if key not in value:
                raise self.refuse(f"{what} has no {key!r}.")
        unknown = sorted(set(value) - set(required) - set(optional))
        if unknown:
            raise self.refuse(f"{what} has an unknown field {unknown[0]!r}.")
        return value

    def list(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.refuse(f"{what} must be a list.")
        return value

    def text(self, value: Any, what: str, *, max_length: int | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.refuse(f"{what} must be a name (text).")
        limit = self.name_limit if max_length is None else max_length
        if limit is not None and len(value.strip()) > limit:
            raise self.refuse(f"{what} must be at most {limit} characters.")
        return value.strip()

    def name(self, value: Any, what: str, *, max_length: int | None = None) -> str:
        """A name: ``text`` on one line, with no control character (a CR/LF in a name would
        break every mail that names it), refused in the app's words."""
        text = self.text(value, what, max_length=max_length)
        if CONTROL_CHARACTERS.search(text):
            raise self.refuse(
                f"{what} holds a line break or another control character: type it on one line."
            )
        return text

    def int(self, value: Any, what: str, *, minimum: int = 0, maximum: int | None = None) -> int:
        if type(value) is not int or value < minimum:
            raise self.refuse(f"{what} must be a whole number of at least {minimum}.")
        limit = self.number_limit if maximum is None else maximum
        if limit is not None and value > limit:
            raise self.refuse(f"{what} must be at most {limit}.")
        return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def archive_parse(
    raw: bytes | str, *, refusal: type[ValidationFailed], what: str = "a season"
) -> Any:
    """The archive in ``raw`` (a file's bytes) as parsed JSON, or ``refusal`` with a sentence:
    past ``PEGBOARD_ARCHIVE_MAX_BYTES``, not UTF-8, not JSON, or nested too deeply."""
    limit = settings.PEGBOARD_ARCHIVE_MAX_BYTES
    if len(raw) > limit:
        raise refusal(
            f"The archive is larger than {limit:,} bytes: split the season or ask the "
            "administrator to raise PEGBOARD_ARCHIVE_MAX_BYTES."
        )
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise refusal(
                f"The archive is not UTF-8 text (byte {exc.start + 1}): save it again as UTF-8."
            ) from None
    else:
        text = raw
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise refusal(
            f"The archive is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    except RecursionError:
        raise refusal(too_deep(what)) from None
    except ValueError as exc:  # NaN, Infinity, or an integer of more than 4,300 digits
        raise refusal(f"The archive has {exc}.") from None


def too_deep(what: str) -> str:
    return f"The archive is nested too deeply (more than {DEPTH_LIMIT} levels): it is not {what}."


def check_shape(data: Any, *, refusal: type[ValidationFailed], what: str = "a season") -> None:
    """Depth, numbers and texts (length, NUL) of the whole document, walked without recursion."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > DEPTH_LIMIT:
            raise refusal(too_deep(what))
        if isinstance(value, Mapping):
            for k, v in value.items():
                inside = f"{where}.{k}" if where else str(k)
                if "\x00" in str(k):
                    raise refusal(f"The archive, at {inside!r}: a name holds a NUL character.")
                stack.append((v, inside, depth + 1))
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and not -BIG_LIMIT <= value <= BIG_LIMIT:
            raise refusal(f"The archive, at {where}: this number is too large.")
        elif isinstance(value, float) and not math.isfinite(value):
            raise refusal(f"The archive, at {where}: {value} is not a number JSON allows.")
        elif isinstance(value, str) and "\x00" in value:
            raise refusal(
                f"The archive, at {where}: a text holds a NUL character, which cannot be stored."
            )
        elif isinstance(value, str) and len(value) > TEXT_LIMIT:
            raise refusal(f"The archive, at {where}: a text longer than {TEXT_LIMIT:,} characters.")
