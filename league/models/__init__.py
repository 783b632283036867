"""The league's data, one module per part of the domain."""

from league.models.audit import AuditEntry
from league.models.disputes import Dispute, DisputeStatus
from league.models.games import Deal, Game, GameSeat, GameStatus
from league.models.leagues import League, Season, Venue
from league.models.people import Player, Team
from league.models.schedule import Match, Week
from league.models.standings import MatchTally, StandingsPage, StandingsSnapshot
from scoring.outcome import SkunkLevel

__all__ = [
    "AuditEntry",
    "Deal",
    "Dispute",
    "DisputeStatus",
    "Game",
    "GameSeat",
    "GameStatus",
    "League",
    "Match",
    "MatchTally",
    "Player",
    "Season",
    "SkunkLevel",
    "StandingsPage",
    "StandingsSnapshot",
    "Team",
    "Venue",
    "Week",
]
