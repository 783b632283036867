"""The API's one JSON parser: bodies bounded in depth, refused in words.

A body nested 100,000 deep made ``json`` raise ``RecursionError``: a 500 on every write, the
anonymous token endpoint included. (The size is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, checked
as DRF reads the body; ``league.api.errors`` says it in words.) Kept apart from
``league.kernel.api`` because ``DEFAULT_PARSER_CLASSES`` names it, and DRF imports that setting
while ``league.kernel.api`` is still importing DRF's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

#: No request the API takes is nested more than a few levels (a deal's cards are three deep).
BODY_DEPTH_LIMIT = 32


def _depth_beyond(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and objects deeper than ``limit`` (walked without recursion).

    >>> _depth_beyond({"cards": {"1": ["5H"]}}, 3), _depth_beyond([[[[1]]]], 3)
    (False, True)
    """
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            if depth > limit:
                return True
            stack.extend((item, depth + 1) for item in value)
    return False


class BoundedJSONParser(JSONParser):
    """JSON, refused with a 400 and a sentence when nested deeper than ``BODY_DEPTH_LIMIT``."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        too_deep = _("This request is nested too deeply to be read: nothing was stored.")
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep) from None
        if _depth_beyond(data, BODY_DEPTH_LIMIT):
            raise ParseError(too_deep)
        return data


#: Every API view's parsers, as ``DEFAULT_PARSER_CLASSES`` names them: JSON, and the forms a
#: browser or ``curl -d`` sends to the token endpoint.
PARSERS = [BoundedJSONParser, FormParser, MultiPartParser]
