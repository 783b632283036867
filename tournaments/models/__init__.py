"""A tournament's rows, by part: the event and its entrants (events), qualifying rounds with
their tables, byes and scorecards (tables), the playoff bracket (playoffs), clubs with their
members and seasons (clubs), and the money (money). Rules of play live in ``logic`` and the
services; these are the records. Every name is re-exported here, so ``from tournaments.models
import X`` reads as before."""

from tournaments.models.clubs import (
    Club as Club,
)
from tournaments.models.clubs import (
    ClubMember as ClubMember,
)
from tournaments.models.clubs import (
    ClubPointsMode as ClubPointsMode,
)
from tournaments.models.clubs import (
    ClubSeason as ClubSeason,
)
from tournaments.models.clubs import (
    MemberStatus as MemberStatus,
)
from tournaments.models.clubs import (
    default_points_table as default_points_table,
)
from tournaments.models.events import (
    RULE_FIELDS as RULE_FIELDS,
)
from tournaments.models.events import (
    Entrant as Entrant,
)
from tournaments.models.events import (
    EntrantPlayer as EntrantPlayer,
)
from tournaments.models.events import (
    EntrantStatus as EntrantStatus,
)
from tournaments.models.events import (
    Kind as Kind,
)
from tournaments.models.events import (
    Tournament as Tournament,
)
from tournaments.models.events import (
    TournamentStage as TournamentStage,
)
from tournaments.models.events import (
    TournamentVariant as TournamentVariant,
)
from tournaments.models.events import (
    default_tiebreaks as default_tiebreaks,
)
from tournaments.models.money import (
    MONEY_IN as MONEY_IN,
)
from tournaments.models.money import (
    POT_IN as POT_IN,
)
from tournaments.models.money import (
    LedgerEntry as LedgerEntry,
)
from tournaments.models.money import (
    LedgerKind as LedgerKind,
)
from tournaments.models.money import (
    PayoutMode as PayoutMode,
)
from tournaments.models.money import (
    Purse as Purse,
)
from tournaments.models.money import (
    SidePot as SidePot,
)
from tournaments.models.money import (
    SidePotKind as SidePotKind,
)
from tournaments.models.playoffs import (
    PlayoffCard as PlayoffCard,
)
from tournaments.models.playoffs import (
    PlayoffGame as PlayoffGame,
)
from tournaments.models.playoffs import (
    PlayoffMatch as PlayoffMatch,
)
from tournaments.models.tables import (
    STORED_STATES as STORED_STATES,
)
from tournaments.models.tables import (
    AccRuling as AccRuling,
)
from tournaments.models.tables import (
    Bye as Bye,
)
from tournaments.models.tables import (
    CheckersQueue as CheckersQueue,
)
from tournaments.models.tables import (
    PaperScorecard as PaperScorecard,
)
from tournaments.models.tables import (
    Round as Round,
)
from tournaments.models.tables import (
    RoundStatus as RoundStatus,
)
from tournaments.models.tables import (
    Scorecard as Scorecard,
)
from tournaments.models.tables import (
    TableGame as TableGame,
)
from tournaments.models.tables import (
    TableState as TableState,
)
from tournaments.models.tables import (
    table_state as table_state,
)
