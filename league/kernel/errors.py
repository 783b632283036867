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


class Refusal:
    """Why an action is refused, asked once (``permissions.refusal``) and said at every door.

    ``code`` is stable (for a program or a test), ``text`` the translatable sentence with
    ``%(name)s`` placeholders filled from ``params``, and ``error`` the domain error a service
    raises for it, whose ``status`` is the HTTP status (403 for a role, 409 for a state that
    moved on, 400 for a request that was never right). ``message()`` says it in the active
    language, at the moment a door renders it; ``sentence`` in English, for a log.

    >>> Refusal("not_over", "This game is not over yet.", error=Locked)
    Refusal('not_over', status=409)
    """

    __slots__ = ("code", "error", "params", "text")

    def __init__(
        self,
        code: str,
        text: Any,
        *,
        params: dict[str, Any] | None = None,
        error: type[DomainError] = NotAllowed,
    ) -> None:
        self.code = code
        self.text = text
        self.params = params or {}
        self.error = error

    @property
    def status(self) -> int:
        return self.error.status

    def message(self) -> str:
        """The sentence in the active language."""
        text = str(self.text)
        if not self.params:
            return text
        return text % {k: str(v) for k, v in self.params.items()}

    @property
    def sentence(self) -> str:
        """The sentence in English (for a log line, whatever the reader's language)."""
        from django.utils import translation

        with translation.override("en"):
            return self.message()

    def exception(self, *, current: dict[str, Any] | None = None) -> DomainError:
        """The domain error that says this refusal (a conflict also says how things stand)."""
        if issubclass(self.error, Conflict):
            return self.error(self.message(), current=current or {}, refusal=self.code)
        return self.error(self.message(), refusal=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.code, self.error, self.params) == (
            other.code,
            other.error,
            other.params,
        )

    def __hash__(self) -> int:
        return hash((self.code, self.error))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, status={self.status})"
