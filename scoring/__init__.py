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
from scoring.game import DealEntry, DealResult, Game, entry_rules, validate_deal
from scoring.outcome import Outcome, SkunkLevel, outcome_for
from scoring.pegging import Pegging, max_pegging, max_pegging_total, peg_points, play_out
from scoring.show import ScoreItem, ShowScore, score_show, show_total
from scoring.variants import VARIANTS, Variant, get_variant

__all__ = [
    "DECK",
    "VARIANTS",
    "Card",
    "DealEntry",
    "DealResult",
    "DuplicateCardError",
    "Game",
    "GameOverError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidHandError",
    "Outcome",
    "Pegging",
    "ScoreItem",
    "ScoringError",
    "ShowScore",
    "SkunkLevel",
    "Variant",
    "entry_rules",
    "format_cards",
    "get_variant",
    "max_pegging",
    "max_pegging_total",
    "outcome_for",
    "parse_cards",
    "peg_points",
    "play_out",
    "score_show",
    "show_total",
    "validate_deal",
]
