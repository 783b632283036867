"""The scorer's exceptions: each says, in words a player understands, what was wrong."""

from __future__ import annotations


class ScoringError(ValueError):
    """Base class of every error the scoring engine raises."""


class InvalidCardError(ScoringError):
    """A card could not be read (``"1H"``, ``"5X"``) or is not a card at all."""

    def __init__(self, message: str, *, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class DuplicateCardError(ScoringError):
    """The same card appears twice where a deck has only one of each."""


class InvalidHandError(ScoringError):
    """A hand of the wrong size for the show."""


class IllegalPlayError(ScoringError):
    """A play the rules of pegging do not allow (over 31, a card not held, a false go)."""


class InvalidDealError(ScoringError):
    """A deal whose numbers no legal play of cribbage can produce."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class GameOverError(InvalidDealError):
    """Something was recorded after a side had already reached the target."""
