"""Whole legal games for the API tests: real cards from a seeded deck, shows counted by the scorer.

Each deal is dealt from a shuffled deck (five cards each, one to the crib), pegs a few points per
side, and is counted in table order: his heels, the play, the shows clockwise from the dealer's
left with the dealer last, then the crib. The game stops the instant a side reaches the target,
so the last deal holds only what was counted up to then.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from scoring.cards import DECK
from scoring.show import score_show

PLAYERS = 4
SIDES = 2
TARGET = 121


def first_deal(**changes: Any) -> dict[str, Any]:
    """A legal first deal, as the API takes it, of a game where seat 0 deals first (a fresh
    idempotency key each call); ``changes`` replace fields."""
    body = {
        "key": str(uuid.uuid4()),
        "number": 1,
        "dealer": 0,
        "starter": "5H",
        "pegging": [2, 3],
        "shows": {"1": 6, "2": 8, "3": 4, "0": 12},
        "crib": 5,
    }
    body.update(changes)
    return body


@dataclass
class DealtGame:
    """The request bodies of a whole game, and the scores they should give after each deal."""

    deals: list[dict[str, Any]] = field(default_factory=list)
    scores_after: list[tuple[int, int]] = field(default_factory=list)

    @property
    def final(self) -> tuple[int, int]:
        return self.scores_after[-1]

    @property
    def winner(self) -> int:
        return 0 if self.final[0] >= TARGET else 1


def deal_game(
    *,
    seed: int,
    first_dealer: int = 0,
    pegging: tuple[tuple[int, int], tuple[int, int]] = ((0, 5), (0, 5)),
    with_cards_every: int = 3,
) -> DealtGame:
    """A whole game of partnership cribbage to 121, as API bodies.

    ``pegging`` gives each side's (low, high) pegging per deal, to make lopsided games;
    every ``with_cards_every``-th deal also sends the cards so the scorer checks the claims.
    """
    rng = random.Random(seed)
    game = DealtGame()
    scores = [0, 0]
    number = 0
    while max(scores) < TARGET:
        number += 1
        dealer = (first_dealer + number - 1) % PLAYERS
        dealer_side = dealer % SIDES
        deck = list(DECK)
        rng.shuffle(deck)
        hands: dict[int, list] = {}
        crib: list = []
        for seat in range(PLAYERS):
            dealt = deck[seat * 5 : seat * 5 + 5]
            crib.append(dealt.pop(rng.randrange(5)))
            hands[seat] = dealt
        starter = deck[PLAYERS * 5]

        body: dict[str, Any] = {
            "key": str(uuid.UUID(int=rng.getrandbits(128))),
            "number": number,
            "dealer": dealer,
            "starter": str(starter),
            "pegging": [0, 0],
            "shows": {},
            "crib": None,
        }
        if with_cards_every and number % with_cards_every == 0:
            body["cards"] = {str(s): [str(c) for c in h] for s, h in hands.items()}
            body["cards"]["crib"] = [str(c) for c in crib]

        def peg(side: int, points: int) -> bool:
            scores[side] += points
            return scores[side] >= TARGET

        over = False
        if starter.rank == 11:  # his heels: two to the dealer's side
            over = peg(dealer_side, 2)
        if not over:
            pegged = [rng.randint(*pegging[side]) for side in range(SIDES)]
            # only one side can reach the target in the play: the other stops short of it
            if scores[0] + pegged[0] >= TARGET:
                pegged[1] = min(pegged[1], TARGET - 1 - scores[1])
            body["pegging"] = pegged
            for side in range(SIDES):
                over = peg(side, pegged[side]) or over
        for i in range(1, PLAYERS + 1):
            seat = (dealer + i) % PLAYERS
            if over:
                break
            points = score_show(hands[seat], starter).total
            body["shows"][str(seat)] = points
            over = peg(seat % SIDES, points)
        if not over:
            body["crib"] = score_show(crib, starter, crib=True).total
            peg(dealer_side, body["crib"])
        game.deals.append(body)
        game.scores_after.append((scores[0], scores[1]))
    return game
