"""The games of cribbage the engine knows, as data: who plays, how many cards, to what target."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import ScoringError


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of cribbage.

    ``players`` sit clockwise in seats 0..players-1; ``sides`` is how many scores are kept
    (a partnership game has four players on two sides: seats 0 and 2 against 1 and 3).

    >>> VARIANTS["partnership-121"].side_of(2)
    0
    """

    key: str
    name: str
    players: int
    sides: int
    dealt: int  # cards dealt to each player
    hand_size: int  # cards each player keeps for the play and the show
    crib_from_deck: int  # cards dealt straight to the crib (three-player game)
    target: int
    three_for_last: bool = False  # five-card game: the first non-dealer pegs 3 before play
    one_go_only: bool = False  # five-card game: the play ends at the first go or 31

    @property
    def crib_size(self) -> int:
        return self.players * (self.dealt - self.hand_size) + self.crib_from_deck

    def side_of(self, seat: int) -> int:
        """Which side the player in ``seat`` scores for."""
        return seat % self.sides

    def next_seat(self, seat: int) -> int:
        """The seat to the left (the deal and the play pass clockwise)."""
        return (seat + 1) % self.players

    def show_order(self, dealer: int) -> list[int]:
        """Seats in counting order: the dealer's left first, the dealer last (then the crib)."""
        return [(dealer + i) % self.players for i in range(1, self.players + 1)]


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("singles-121", "Two-player six-card cribbage to 121", 2, 2, 6, 4, 0, 121),
        Variant("three-player-121", "Three-player cribbage to 121", 3, 3, 5, 4, 1, 121),
        Variant("partnership-121", "Four-player partnership cribbage to 121", 4, 2, 5, 4, 0, 121),
        Variant(
            "five-card-61",
            "Five-card cribbage to 61",
            2,
            2,
            5,
            3,
            0,
            61,
            three_for_last=True,
            one_go_only=True,
        ),
        Variant("seven-card-181", "Seven-card cribbage to 181", 2, 2, 7, 5, 0, 181),
    )
}


def get_variant(key: str) -> Variant:
    """The variant called ``key``; a :class:`ScoringError` lists the known ones otherwise."""
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ScoringError(
            f"Unknown game {key!r}; known games are {known}.",
            code="unknown_variant",
            params={"key": key, "known": known},
        ) from None
