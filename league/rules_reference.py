"""The rules reference: Pegboard's own wording of the rules in ../shared/seeds, each with a stable
identifier that a judge's ruling cites. Identifiers never change once published."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    section: str

    def matches(self, query: str) -> bool:
        words = query.lower().split()
        hay = f"{self.id} {self.title} {self.text} {self.section}".lower()
        return all(w in hay for w in words)


RULES: tuple[Rule, ...] = (
    # The deal
    Rule(
        "D-1",
        "Cutting for the first deal",
        "Players cut the pack; the lowest card deals first "
        "(aces are low). After that the deal passes clockwise, one seat each hand.",
        "Deal",
    ),
    Rule(
        "D-2",
        "Cards dealt in the doubles game",
        "In four-handed partnership cribbage each "
        "player is dealt five cards and puts one in the dealer's crib, keeping four. Partners "
        "sit opposite each other.",
        "Deal",
    ),
    Rule(
        "D-3",
        "The starter",
        "After the crib is made, the player on the dealer's left cuts "
        "and the dealer turns up the starter. It belongs to every hand and the crib in the "
        "show but is never played.",
        "Deal",
    ),
    Rule(
        "D-4",
        "His heels",
        "If the starter is a Jack, the dealer's side pegs 2 at once. "
        "This can win the game before any card is played.",
        "Deal",
    ),
    # The play
    Rule(
        "P-1",
        "Order of play",
        "The player on the dealer's left leads; play passes "
        "clockwise. Each card is added to a running count, which may never pass 31.",
        "Play",
    ),
    Rule(
        "P-2",
        "Fifteen and thirty-one",
        "A card that makes the count exactly 15 pegs 2; "
        "exactly 31 pegs 2, and the count starts again at zero.",
        "Play",
    ),
    Rule(
        "P-3",
        "Pairs in the play",
        "A card of the same rank as the card just played pegs 2; "
        "a third in a row pegs 6; a fourth pegs 12. Only rank counts: a Jack does not pair "
        "a Queen.",
        "Play",
    ),
    Rule(
        "P-4",
        "Runs in the play",
        "A card that makes the last three or more cards played a "
        "sequence of ranks, in any order, pegs one per card of the run. Any other card in "
        "between breaks it. Aces are low: Q-K-A is not a run.",
        "Play",
    ),
    Rule(
        "P-5",
        "Go",
        "A player who cannot play without passing 31 says go. The others play on "
        "while they can; the last player to lay a card pegs 1 for the go (or 2 for exactly "
        "31, never both), and the count starts again with the player to the left of the one "
        "who played last. You must play if you can.",
        "Play",
    ),
    Rule(
        "P-6",
        "Last card",
        "The player who lays the last card of the play pegs 1, unless it "
        "made 31 (which already pegged 2).",
        "Play",
    ),
    # The show
    Rule(
        "S-1",
        "Counting order",
        "After the play, hands are counted clockwise from the dealer's "
        "left; the dealer counts last, then the crib for the dealer's side.",
        "Show",
    ),
    Rule(
        "S-2",
        "Fifteens",
        "Every different set of cards adding to 15 scores 2. Court cards count 10 and aces 1.",
        "Show",
    ),
    Rule(
        "S-3",
        "Pairs",
        "Each pair scores 2: three of a kind is three pairs (6), four of a kind six pairs (12).",
        "Show",
    ),
    Rule(
        "S-4",
        "Runs",
        "Each run of three or more consecutive ranks scores one per card. A "
        "double run counts every version: 7-7-8-9 holds two runs of three.",
        "Show",
    ),
    Rule(
        "S-5",
        "Flush in the hand",
        "Four hand cards of one suit score 4, or 5 if the "
        "starter matches. The starter alone with three hand cards is no flush.",
        "Show",
    ),
    Rule(
        "S-6",
        "Flush in the crib",
        "The crib scores a flush only when its four cards and "
        "the starter are all one suit: 5 points. Four crib cards alone score nothing.",
        "Show",
    ),
    Rule(
        "S-7", "His nobs", "The Jack of the starter's suit in a hand or the crib scores 1.", "Show"
    ),
    Rule(
        "S-8",
        "Impossible counts",
        "No hand or crib can score 19, 25, 26 or 27, or more than "
        "29. The best is 29: three fives and the Jack of the fourth suit, with the fourth "
        "five turned up.",
        "Show",
    ),
    Rule(
        "S-9",
        "No muggins",
        "Our league plays no muggins: points a player forgets to claim "
        "are simply lost; nobody else takes them. A count entered below what the cards make "
        "stands; a count above it is corrected.",
        "Show",
    ),
    # Winning
    Rule(
        "W-1",
        "The game ends at once",
        "The first side to reach 121 wins the moment it gets "
        "there, in the play or in the middle of the show. Nothing counted after that "
        "moment scores.",
        "Winning",
    ),
    Rule(
        "W-2",
        "Skunk",
        "In our league a win by 30 points or more is a skunk and earns one "
        "extra league point (the ACC uses 31). A double skunk is a win by 61 or more.",
        "Winning",
    ),
    Rule(
        "W-3",
        "League points and weeks won",
        "A team earns league points for each game it "
        "wins, plus the skunk bonus. It wins a week when it wins more games than it loses "
        "that week.",
        "League",
    ),
    Rule(
        "W-4",
        "Playoff seeding",
        "Seeds follow total league points. Ties go to the team "
        "with more weeks won, then the league's further tie-breaks, ending with a public "
        "draw from the season's seed.",
        "League",
    ),
    Rule(
        "J-1",
        "Judges",
        "A judge answers questions about the rules and settles disagreements. "
        "A judge does not rule on a dispute involving their own team. Every ruling is written "
        "down with the rule it rests on, and every correction is kept on record.",
        "League",
    ),
)

RULES_BY_ID = {rule.id: rule for rule in RULES}


def search_rules(query: str) -> list[Rule]:
    query = (query or "").strip()
    if not query:
        return list(RULES)
    return [r for r in RULES if r.matches(query)]
