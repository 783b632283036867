"""Pegboard's cribbage engine: cards, the show, pegging, deals and games, for every variant.

Pure Python (standard library only); nothing here imports Django or the league.

>>> from scoring import score_show, parse_cards, Card
>>> score_show(parse_cards("5H 5D 5S JC"), Card.from_str("5C")).total
29
"""

from scoring.cards import DECK, Card, format_cards, parse_cards
from scoring.errors import (
    DuplicateCardError,
    GameOverError,
    IllegalPlayError,
    InvalidCardError,
    InvalidDealError,
    InvalidHandError,
    ScoringError,
)
from scoring.show import ScoreItem, ShowScore, score_show
from scoring.variants import VARIANTS, Variant, get_variant

__all__ = [
    "DECK",
    "VARIANTS",
    "Card",
    "DuplicateCardError",
    "GameOverError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidHandError",
    "ScoreItem",
    "ScoringError",
    "ShowScore",
    "Variant",
    "format_cards",
    "get_variant",
    "parse_cards",
    "score_show",
]
