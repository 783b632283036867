"""The scorer's exceptions: each says, in words a player understands, what was wrong.

Each also carries a stable ``code`` and the ``params`` of its sentence, so that a caller can
say the same thing in another language without parsing English: ``str(error)`` stays the
English sentence (the CLI and these tests read it), and :data:`CODES` lists every code the
scorer raises with the names of its parameters.

>>> error = InvalidDealError("A hand can never score 19.", code="impossible_show",
...                          params={"seat": 1, "points": 19, "most": 29}, field="shows.1")
>>> str(error), error.code, error.params["points"], error.field
('A hand can never score 19.', 'impossible_show', 19, 'shows.1')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

#: Every code the scorer raises -> the names of its parameters. Seats and sides are numbers
#: (a caller names them by their players and teams); a value that could not be read is given
#: as its ``repr``. Places and stages are words from a short list, given in the comment.
CODES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        # Cards
        "not_a_card": ("token",),  # token: the repr of what was given
        "unreadable_card": ("token",),  # token: the text as typed
        "duplicate_card": ("card",),
        "card_repeated": (),
        # The shape of a deal as entered
        "pegging_not_list": (),
        "shows_not_mapping": (),
        "hands_not_mapping": (),
        "hand_not_list": ("seat",),
        "crib_cards_not_list": (),
        "cards_not_list": (),
        "not_a_seat_number": ("seat",),  # seat: the repr of what was given
        "seat_not_a_number": ("seat", "last"),  # seat: the repr of what was given
        "no_such_seat": ("seat", "last"),
        "not_a_deal": ("deal",),
        # The game
        "bad_target": ("target",),
        "unknown_variant": ("key", "known"),  # known: the keys, comma-separated
        "not_a_variant": ("variant",),
        "bad_first_dealer": ("dealer", "last"),
        "bad_scores": ("variant", "sides", "scores"),
        "two_winners": ("target",),
        "bad_deal_count": ("deals",),
        "over_before_start": ("target",),
        "game_over": ("side", "target"),
        # One deal, in the order it is counted. ended_on: heels, pegging, show or crib, and
        # ended_seat the seat whose show ended the game (None otherwise).
        "wrong_dealer": ("expected", "dealer"),
        "starter_not_a_card": ("starter",),
        "card_twice": ("card", "first", "first_seat", "second", "second_seat"),  # places:
        # starter, crib or hand (then its seat; None otherwise)
        "hand_size": ("seat", "size", "count"),
        "crib_size": ("size", "count"),
        "starter_needed": (),
        "heels_not_bool": ("heels",),
        "heels_without_jack": ("starter",),
        "heels_missing": ("starter",),
        "pegging_count": ("sides",),
        "pegging_not_int": ("side", "points"),  # points: the repr of what was given
        "pegging_negative": ("side", "points"),
        "pegging_over_dealer": ("side", "most", "points"),
        "pegging_over_other": ("side", "most", "points"),
        "pegging_over_total": ("most", "points"),
        "show_not_int": ("seat", "points"),  # points: the repr of what was given
        "crib_not_int": ("points",),
        "impossible_show": ("seat", "points", "most"),
        "impossible_crib": ("points", "most"),
        "show_over_claim": ("seat", "cards", "starter", "actual", "claim"),
        "crib_over_claim": ("cards", "starter", "actual", "claim"),
        "pegging_after_heels": ("side",),
        "two_out_in_play": ("target",),
        "show_after_end": ("seat", "side", "target", "ended_on", "ended_seat"),
        "show_missing": ("seat",),
        "crib_after_end": ("side", "target", "ended_on", "ended_seat"),
        "crib_missing": (),
        # Skunks
        "bad_margin": ("name", "value"),  # name: skunk_margin or double_skunk_margin
        "double_skunk_below_skunk": ("skunk", "double"),
        # Final scores
        "too_few_sides": (),
        "score_not_int": ("score",),  # score: the repr of what was given
        "score_negative": ("score",),
        "not_over": ("target",),
        # The play, card by card
        "count_over_31": ("count",),
        "wrong_player_count": ("variant", "players", "count"),
        "bad_dealer_seat": ("dealer", "last"),
        "pegging_hand_size": ("seat", "count", "size", "variant"),
        "card_not_held": ("seat", "card", "holder"),  # holder: None once played
        "card_over_31": ("card", "count", "total"),
        "false_go": ("seat", "card", "count"),
        "play_over": (),
        "not_your_turn": ("turn", "seat"),
        "play_over_before_card": ("card",),
        "no_pegging_bound": ("variant",),
        # The show
        "show_hand_cards": ("least", "most", "count"),
        # The discard analyser
        "dealt_count": ("variant", "dealt", "count"),  # variant: the variant's key
    }
)


class ScoringError(ValueError):
    """Base class of every error the scoring engine raises.

    ``code`` is one of :data:`CODES` and ``params`` has exactly the names listed there."""

    def __init__(
        self, message: str, *, code: str, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        params = dict(params or {})
        # A refusal whose code or parameters are not in the table could not be translated:
        # raise that mistake where it is made, not in front of a French captain.
        if code not in CODES or tuple(sorted(params)) != tuple(sorted(CODES[code])):
            raise TypeError(f"{code!r} with {sorted(params)} is not in scoring.errors.CODES")
        self.code = code
        self.params: Mapping[str, object] = MappingProxyType(params)


class InvalidCardError(ScoringError):
    """A card could not be read (``"1H"``, ``"5X"``) or is not a card at all."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        params: Mapping[str, object] | None = None,
        token: str | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.token = token


class DuplicateCardError(ScoringError):
    """The same card appears twice where a deck has only one of each."""


class InvalidHandError(ScoringError):
    """A hand of the wrong size for the show."""


class IllegalPlayError(ScoringError):
    """A play the rules of pegging do not allow (over 31, a card not held, a false go)."""


class InvalidDealError(ScoringError):
    """A deal whose numbers no legal play of cribbage can produce."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        params: Mapping[str, object] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.field = field


class GameOverError(InvalidDealError):
    """Something was recorded after a side had already reached the target."""
