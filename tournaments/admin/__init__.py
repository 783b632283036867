"""The director's and checkers' admin, by part: tournaments, entrants and rounds (events); the
checkers' queue, the rulings and paper scorecards (tables); playoff matches, a game at a time
(playoffs); clubs, members and club seasons (clubs); the money: purses with their ledger, side
pots and ledger entries by hand (money). Every change goes through a service;
``has_*_permission`` asks ``can()``, and every action declares the permission it needs.
Importing this package registers every ModelAdmin."""

from tournaments.admin.base import (
    _DirectorOnly as _DirectorOnly,
)
from tournaments.admin.base import (
    _RefusalStaysOnForm as _RefusalStaysOnForm,
)
from tournaments.admin.clubs import (
    CLUB_FIELDS as CLUB_FIELDS,
)
from tournaments.admin.clubs import (
    ClubAdmin as ClubAdmin,
)
from tournaments.admin.clubs import (
    ClubMemberAdmin as ClubMemberAdmin,
)
from tournaments.admin.clubs import (
    ClubSeasonAdmin as ClubSeasonAdmin,
)
from tournaments.admin.clubs import (
    _ClubsOnly as _ClubsOnly,
)
from tournaments.admin.events import (
    EntrantAdmin as EntrantAdmin,
)
from tournaments.admin.events import (
    EntrantForm as EntrantForm,
)
from tournaments.admin.events import (
    RoundAdmin as RoundAdmin,
)
from tournaments.admin.events import (
    TournamentAdmin as TournamentAdmin,
)
from tournaments.admin.money import (
    LedgerEntryAdmin as LedgerEntryAdmin,
)
from tournaments.admin.money import (
    LedgerEntryForm as LedgerEntryForm,
)
from tournaments.admin.money import (
    PurseAdmin as PurseAdmin,
)
from tournaments.admin.money import (
    SidePotAdmin as SidePotAdmin,
)
from tournaments.admin.money import (
    _MoneyOnly as _MoneyOnly,
)
from tournaments.admin.playoffs import (
    PlayoffGameForm as PlayoffGameForm,
)
from tournaments.admin.playoffs import (
    PlayoffMatchAdmin as PlayoffMatchAdmin,
)
from tournaments.admin.playoffs import (
    _last_game as _last_game,
)
from tournaments.admin.playoffs import (
    _new_key as _new_key,
)
from tournaments.admin.tables import (
    AccRulingAdmin as AccRulingAdmin,
)
from tournaments.admin.tables import (
    CheckersQueueAdmin as CheckersQueueAdmin,
)
from tournaments.admin.tables import (
    PaperCardForm as PaperCardForm,
)
from tournaments.admin.tables import (
    PaperScorecardAdmin as PaperScorecardAdmin,
)
from tournaments.admin.tables import (
    SettleForm as SettleForm,
)
from tournaments.admin.tables import (
    _cards_in as _cards_in,
)
from tournaments.admin.tables import (
    _CheckersTables as _CheckersTables,
)
