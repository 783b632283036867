"""The ratings' maths: openskill's Plackett-Luce model over rated results, pure (no Django).

Each result updates two things: the **players'** ratings (each side a team of its players, so
a partnership game moves all four) and, where a side is two players, the **pair's** own rating
(the league team's two seated players, or a tournament's partnership), each pair rated as one
against the other side's pair or player. A player's or pair's state is a mean ``mu`` and an
uncertainty ``sigma`` on openskill's scale (25 and 25/3 to start) and the games it counted.

``replay`` applies results in ``contest.ratings.canonical_order``, so a replay of the same
history always gives the same figures, whatever order the rows were written in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from contest.ratings import RatedResult, canonical_order

MODEL = PlackettLuce()

Pair = tuple[int, int]


@dataclass
class Standing:
    """One player's or pair's rating."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    def as_model(self) -> PlackettLuceRating:
        return MODEL.rating(mu=self.mu, sigma=self.sigma)

    def take(self, rating: PlackettLuceRating) -> None:
        self.mu, self.sigma = float(rating.mu), float(rating.sigma)
        self.games += 1


@dataclass
class Book:
    """Every rating, by player id and by pair (lower player id first)."""

    players: dict[int, Standing] = field(default_factory=dict)
    pairs: dict[Pair, Standing] = field(default_factory=dict)

    def player(self, pk: int) -> Standing:
        return self.players.setdefault(pk, Standing())

    def pair(self, pair: Pair) -> Standing:
        return self.pairs.setdefault(pair, Standing())

    def apply(self, result: RatedResult) -> set[int | Pair]:
        """Rate one result (the winners ranked first); returns the players and pairs it moved."""
        if not result.rateable:
            return set()
        sides = [[self.player(p) for p in result.winners], [self.player(p) for p in result.losers]]
        rated = MODEL.rate([[s.as_model() for s in side] for side in sides], ranks=[0, 1])
        moved: set[int | Pair] = set()
        for side, new, ids in zip(sides, rated, (result.winners, result.losers), strict=True):
            for standing, rating, pk in zip(side, new, ids, strict=True):
                standing.take(rating)
                moved.add(pk)
        units = [result.pair_of_winners, result.pair_of_losers]
        if any(unit is not None for unit in units):
            # A pair plays as one; a lone player on the other side is met as themself.
            both = [
                self.pair(unit) if unit is not None else Standing(s[0].mu, s[0].sigma)
                for unit, s in zip(units, sides, strict=True)
            ]
            rated = MODEL.rate([[both[0].as_model()], [both[1].as_model()]], ranks=[0, 1])
            for unit, standing, new in zip(units, both, rated, strict=True):
                if unit is not None:
                    standing.take(new[0])
                    moved.add(unit)
        return moved


def replay(results: Iterable[RatedResult], book: Book | None = None) -> Book:
    """Apply ``results`` in the canonical order to ``book`` (a new one if none)."""
    book = book if book is not None else Book()
    for result in canonical_order(results):
        book.apply(result)
    return book


def win_chance(book: Book, side: Sequence[int], other: Sequence[int]) -> float:
    """The chance (0 to 1) that ``side`` beats ``other``, each a team of its players, from
    their ratings in ``book`` (openskill's prediction); a player not in it is new (the default
    rating). Reads the book, never changes it."""
    teams = [[book.players.get(pk, Standing()).as_model() for pk in s] for s in (side, other)]
    return float(MODEL.predict_win(teams)[0])
