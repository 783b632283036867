"""Domain errors: each carries a sentence for the person at the table and, where useful, a field."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refused action. ``message`` is shown to the user as it is."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra = extra


class ValidationFailed(DomainError):
    """Input that breaks a rule: nothing was stored."""


class Conflict(DomainError):
    """Someone else changed the thing first; ``extra['current']`` says how it stands now."""

    status = 409
    code = "conflict"


class NotAllowed(DomainError):
    """The user's role does not allow this action."""

    status = 403
    code = "not_allowed"


class TooFast(DomainError):
    """Too many of one action in too short a time; ``retry_after`` says in how many seconds the
    next one will be accepted."""

    status = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after: int, **extra: Any) -> None:
        super().__init__(message, **extra)
        self.retry_after = retry_after


class Locked(Conflict):
    """The game's state does not allow this now (confirmed, void, over, disputed): a conflict
    with how the game stands, so ``extra['current']`` says how."""

    status = 409
    code = "locked"
