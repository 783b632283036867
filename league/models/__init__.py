"""The league's data, one module per part of the domain."""

from league.models.audit import AuditEntry
from league.models.availability import Answer, Availability
from league.models.calendars import CalendarEntry, CalendarFeed
from league.models.devices import KnownDevice
from league.models.discards import DealtHand
from league.models.disputes import Dispute, DisputeStatus
from league.models.forfeits import Forfeit
from league.models.games import Deal, Game, GameSeat, GameStatus
from league.models.leagues import DealtCards, League, Season, SeasonState, Venue
from league.models.notifications import (
    Announcement,
    Category,
    Channel,
    Delivery,
    DeliveryStatus,
    NotifyChoice,
    NotifyProfile,
    PushSubscription,
)
from league.models.people import HeldInvitation, Player, SeasonSub, Team
from league.models.ratings import RatedGame, Rating
from league.models.schedule import Match, Postponement, PostponementStatus, Week
from league.models.standings import (
    MatchTally,
    RecordsSnapshot,
    StandingsPage,
    StandingsSnapshot,
)
from scoring.outcome import SkunkLevel

__all__ = [
    "Announcement",
    "Answer",
    "AuditEntry",
    "Availability",
    "CalendarEntry",
    "CalendarFeed",
    "Category",
    "Channel",
    "Deal",
    "DealtCards",
    "DealtHand",
    "Delivery",
    "DeliveryStatus",
    "Dispute",
    "DisputeStatus",
    "Forfeit",
    "Game",
    "GameSeat",
    "GameStatus",
    "HeldInvitation",
    "KnownDevice",
    "League",
    "Match",
    "MatchTally",
    "NotifyChoice",
    "NotifyProfile",
    "Player",
    "Postponement",
    "PostponementStatus",
    "PushSubscription",
    "RatedGame",
    "Rating",
    "RecordsSnapshot",
    "Season",
    "SeasonState",
    "SeasonSub",
    "SkunkLevel",
    "StandingsPage",
    "StandingsSnapshot",
    "Team",
    "Venue",
    "Week",
]
