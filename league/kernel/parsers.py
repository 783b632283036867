"""The one reading of what people send: the API's JSON parser (bodies bounded in depth and free
of NUL, refused in words), and every form's numbers and names (``whole_number``, ``cents_from``,
``name_from``), refused in words before anything is stored.

A body nested 100,000 deep made ``json`` raise ``RecursionError``: a 500 on every write, the
anonymous token endpoint included. (The size is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, checked
as DRF reads the body; ``league.api.errors`` says it in words.) Kept apart from
``league.kernel.api`` because ``DEFAULT_PARSER_CLASSES`` names it, and DRF imports that setting
while ``league.kernel.api`` is still importing DRF's views.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import IO, Any
from urllib.parse import urlsplit

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from league.kernel.errors import ValidationFailed
from league.kernel.ids import number_from

#: No request the API takes is nested more than a few levels (a deal's cards are three deep).
BODY_DEPTH_LIMIT = 32


def nul_refusal(field: str) -> ValidationFailed:
    """The refusal of a text holding a NUL character: PostgreSQL cannot store one (a 500 there)
    and SQLite would keep it invisible in a name."""
    return ValidationFailed(
        _("%(field)s holds a NUL character, which cannot be stored: type it again.")
        % {"field": field},
        field=field,
    )


def check_body(data: Any) -> None:
    r"""Refuse a body nested deeper than ``BODY_DEPTH_LIMIT`` (``ParseError``) or holding a NUL
    character in any text or key (``ValidationFailed`` naming the field); walked without
    recursion.

    >>> check_body({"cards": {"1": ["5H"]}})
    >>> check_body({"seats": ["Ann", "C\x00t"]})
    Traceback (most recent call last):
    league.kernel.errors.ValidationFailed: seats.1 holds a NUL character, which cannot be stored: type it again.
    """  # noqa: E501
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise nul_refusal(where or "The request")
            continue
        items: Iterable[tuple[object, Any]]
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        if depth > BODY_DEPTH_LIMIT:
            raise ParseError(_("This request is nested too deeply to be read: nothing was stored."))
        for name, item in items:
            key = str(name)
            field = f"{where}.{key}" if where else key
            if "\x00" in key:
                raise nul_refusal(field.replace("\x00", ""))
            stack.append((item, field, depth + 1))


class BoundedJSONParser(JSONParser):
    """JSON, refused with a 400 and a sentence when nested deeper than ``BODY_DEPTH_LIMIT`` or
    holding a NUL character (``check_body``)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                _("This request is nested too deeply to be read: nothing was stored.")
            ) from None
        check_body(data)
        return data


#: Every API view's parsers, as ``DEFAULT_PARSER_CLASSES`` names them: JSON, and the forms a
#: browser or ``curl -d`` sends to the token endpoint.
PARSERS = [BoundedJSONParser, FormParser, MultiPartParser]


# --- The forms' one parser for numbers and one for names -----------------------------------------
#
# Every number a person types (a fee, a pot, games a night, a percent, a payout table) and every
# name (a club, a venue, a team, a player, a league, a season, a tournament, a username) is read
# here, in the services and the forms alike: ``str.isdigit()`` said yes to "²", ``Decimal`` took
# "1e999999" (31 s of a worker) and "sNaN", 5,000 digits overflowed the database, and a CR/LF in
# a club's name was stored, then refused by every mail about its nights.

#: Digits of the longest whole number a form takes: far above any fee in cents or count.
NUMBER_DIGITS = 9
#: The longest name a form takes (a player's name, ``Player.name``, holds 120).
NAME_LIMIT = 120
#: Control characters (C0 and C1, DEL) and the Unicode line and paragraph separators: a name is
#: one line of text, and a mail header refuses every one of them.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_AMOUNT = re.compile(r"([0-9]{1,7})(?:[.,]([0-9]{1,2}))?")


def whole_number(
    raw: object, *, field: str, message: str, digits: int = NUMBER_DIGITS, blank: int | None = None
) -> int:
    """The whole number ``raw`` spells in ASCII digits (at most ``digits``), else
    ``ValidationFailed(message)``; an int passes when it is that short and not negative;
    ``blank`` is the value of an empty field (None: an empty field is refused).

    >>> whole_number(" 12 ", field="n", message="A whole number.")
    12
    >>> whole_number("²", field="n", message="A whole number.")
    Traceback (most recent call last):
    league.kernel.errors.ValidationFailed: A whole number.
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        if 0 <= raw < 10**digits:
            return raw
        raise ValidationFailed(message, field=field)
    text = raw.strip() if isinstance(raw, str) else None
    if text == "" and blank is not None:
        return blank
    value = number_from(text, digits=digits)
    if value is None:
        raise ValidationFailed(message, field=field)
    return value


def cents_from(raw: object, *, field: str, message: str, blank: int | None = None) -> int:
    """Cents from an amount typed in dollars ("10", "12.50", "$12,50"; at most 7 digits of
    dollars and 2 of cents), else ``ValidationFailed(message)``.

    >>> cents_from("$12,5", field="fee", message="An amount.")
    1250
    >>> cents_from("1e999999", field="fee", message="An amount.")
    Traceback (most recent call last):
    league.kernel.errors.ValidationFailed: An amount.
    """
    text = raw.strip().removeprefix("$").strip() if isinstance(raw, str) else ""
    if text == "" and blank is not None:
        return blank
    found = _AMOUNT.fullmatch(text) if len(text) <= 12 else None
    if found is None:
        raise ValidationFailed(message, field=field)
    return int(found.group(1)) * 100 + int((found.group(2) or "").ljust(2, "0"))


def name_from(
    raw: object, *, field: str, label: Any, limit: int = NAME_LIMIT, required: bool = False
) -> str:
    r"""``raw`` as a name: stripped, one line with no control character, at most ``limit``
    characters; ``label`` says whose name in a refusal ("The club's name"). ``required``
    refuses an empty one.

    >>> name_from("  Crooked Peg ", field="name", label="The club's name")
    'Crooked Peg'
    >>> name_from("Peg\r\nBcc: x", field="name", label="The club's name")
    Traceback (most recent call last):
    league.kernel.errors.ValidationFailed: The club's name holds a line break or another control character: type it on one line.
    """  # noqa: E501
    text = raw.strip() if isinstance(raw, str) else ""
    if "\x00" in text:
        raise nul_refusal(str(label))
    if CONTROL_CHARACTERS.search(text):
        raise ValidationFailed(
            _("%(label)s holds a line break or another control character: type it on one line.")
            % {"label": label},
            field=field,
        )
    if len(text) > limit:
        raise ValidationFailed(
            _("%(label)s is longer than %(limit)s characters.") % {"label": label, "limit": limit},
            field=field,
        )
    if required and not text:
        raise ValidationFailed(_("%(label)s is empty: type it.") % {"label": label}, field=field)
    return text


def json_from(body: bytes | str, *, depth: int = BODY_DEPTH_LIMIT) -> Any:
    """``body`` as JSON, refused (``ParseError``) when nested deeper than ``depth``: the nesting
    is counted before ``json`` reads it, so no depth can raise ``RecursionError``; then NUL is
    refused as ``check_body`` does.

    >>> json_from(b'{"a": [1, "[["]}')
    {'a': [1, '[[']}
    >>> json_from("[" * 2000 + "]" * 2000)
    Traceback (most recent call last):
    rest_framework.exceptions.ParseError: This request is nested too deeply to be read: nothing was stored.
    """  # noqa: E501
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    level, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > depth:
                raise ParseError(
                    _("This request is nested too deeply to be read: nothing was stored.")
                )
        elif char in "]}":
            level -= 1
    data = json.loads(text or "null")
    check_body(data)
    return data


def local_path(raw: object, *, host: str, secure: bool) -> str:
    """``raw`` when it is the path of a page of this site (one the URL resolver knows), else
    "/": where a form goes back to after a tap (``next``). Any other word is not a place.

    >>> local_path("https://evil.example/", host="pegboard.test", secure=True)
    '/'
    """
    from django.urls import Resolver404, resolve
    from django.utils.http import url_has_allowed_host_and_scheme

    target = raw if isinstance(raw, str) else ""
    if (
        not target.startswith("/")
        or CONTROL_CHARACTERS.search(target)
        or len(target) > 2000
        or not url_has_allowed_host_and_scheme(target, allowed_hosts={host}, require_https=secure)
    ):
        return "/"
    try:
        resolve(urlsplit(target).path)
    except Resolver404:
        return "/"
    return target
