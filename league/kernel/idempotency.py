"""A key sent with a write makes it safe to send twice: a phone that lost the answer sends the
same request again, and gets back what the first one stored instead of a second copy.

The key is made by the device (a UUID, say) and stored, unique, on what it wrote: a game's
``start_key``, a deal's or a scorecard's ``key``. A write that takes one:

1. checks its shape with :func:`checked_key`;
2. asks :func:`replay` with what the key stored before (:func:`stored_by_key`, or the
   writer's own query): the stored object comes back when the request is the same one (the
   writer returns it, ``created`` False), None when the key is new (the writer goes on), a
   Conflict naming the key when the key stored something else;
3. if two requests with one key race, the loser's insert breaks the unique constraint
   (``IntegrityError``): it asks :func:`replay` again, and returns the winner's object.

A new keyed write (a playoff game, say) adds a unique, nullable ``key`` field to its model and
calls these three in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import models
from django.utils.translation import gettext as _

from league.kernel.errors import Conflict, ValidationFailed

KEY_LENGTH = 64  # the stored fields' max_length

M = TypeVar("M", bound=models.Model)


def checked_key(key: Any) -> str | None:
    """``key`` as sent: None (no key), or text of 1 to 64 characters; else a refusal naming
    the field."""
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_LENGTH:
        raise ValidationFailed(_("The key must be text of 1 to 64 characters."), field="key")
    return key


def stored_by_key(model: type[M], key: str | None, *, field: str = "key") -> M | None:
    """What ``key`` stored before (one query), or None: no key, or a new one."""
    if not key:
        return None
    found: M | None = model._default_manager.filter(**{field: key}).first()
    return found


def replay(
    stored: M | None,
    *,
    same: Callable[[M], bool],
    conflict: str | None,
    current: Callable[[M], Any] | None = None,
) -> M | None:
    """``stored`` (what this request's key stored before) if ``same`` says this is the same
    request: the writer gives it back instead of storing twice. None if the key stored nothing:
    the writer goes on. If the key stored something else, a Conflict on the field ``key``
    saying ``conflict`` (with ``current(stored)``, how things stand, for the client); with no
    ``conflict`` (after a race, where the writer has its own refusal), None."""
    if stored is None:
        return None
    if same(stored):
        return stored
    if conflict is None:
        return None
    if current is None:
        raise Conflict(conflict, field="key")
    raise Conflict(conflict, field="key", current=current(stored))
