"""The API's one JSON parser: bodies bounded in depth and free of NUL, refused in words.

A body nested 100,000 deep made ``json`` raise ``RecursionError``: a 500 on every write, the
anonymous token endpoint included. (The size is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, checked
as DRF reads the body; ``league.api.errors`` says it in words.) Kept apart from
``league.kernel.api`` because ``DEFAULT_PARSER_CLASSES`` names it, and DRF imports that setting
while ``league.kernel.api`` is still importing DRF's views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from league.kernel.errors import ValidationFailed

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
