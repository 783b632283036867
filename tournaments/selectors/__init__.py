"""Reads for a tournament, by part: the standings and the cut, a round's seating and the bracket
(standings); the tables, the checkers' queue and the scorecards (tables); after the night: final
places, club seasons and a player's record (nights); the books (money); and the verified results
the ratings read (records). Standings are computed by ``logic`` from two queries (verified games
and byes), whatever the size of the field. Every name is re-exported here."""

from tournaments.selectors.money import (
    Books as Books,
)
from tournaments.selectors.money import (
    books_for as books_for,
)
from tournaments.selectors.money import (
    house_share as house_share,
)
from tournaments.selectors.nights import (
    Night as Night,
)
from tournaments.selectors.nights import (
    _outcome as _outcome,
)
from tournaments.selectors.nights import (
    club_season_standings as club_season_standings,
)
from tournaments.selectors.nights import (
    night_points as night_points,
)
from tournaments.selectors.nights import (
    nights_of as nights_of,
)
from tournaments.selectors.nights import (
    player_tournament_record as player_tournament_record,
)
from tournaments.selectors.records import (
    verified_results as verified_results,
)
from tournaments.selectors.standings import (
    BracketMatch as BracketMatch,
)
from tournaments.selectors.standings import (
    NoSuchTournament as NoSuchTournament,
)
from tournaments.selectors.standings import (
    bracket_rounds as bracket_rounds,
)
from tournaments.selectors.standings import (
    champion as champion,
)
from tournaments.selectors.standings import (
    compute as compute,
)
from tournaments.selectors.standings import (
    current_round as current_round,
)
from tournaments.selectors.standings import (
    qualifiers_of as qualifiers_of,
)
from tournaments.selectors.standings import (
    rounds_with_seating as rounds_with_seating,
)
from tournaments.selectors.standings import (
    standings_document as standings_document,
)
from tournaments.selectors.standings import (
    standings_for_tournament as standings_for_tournament,
)
from tournaments.selectors.standings import (
    standings_from_rows as standings_from_rows,
)
from tournaments.selectors.standings import (
    tournament_by_name as tournament_by_name,
)
from tournaments.selectors.standings import (
    tournament_version as tournament_version,
)
from tournaments.selectors.tables import (
    acc_rulings as acc_rulings,
)
from tournaments.selectors.tables import (
    bracket_document as bracket_document,
)
from tournaments.selectors.tables import (
    checkers_queue as checkers_queue,
)
from tournaments.selectors.tables import (
    open_playoff_matches_for_player as open_playoff_matches_for_player,
)
from tournaments.selectors.tables import (
    open_tables_for_player as open_tables_for_player,
)
from tournaments.selectors.tables import (
    playoff_match_rows as playoff_match_rows,
)
from tournaments.selectors.tables import (
    rounds_for_api as rounds_for_api,
)
from tournaments.selectors.tables import (
    scorecard_entry_data as scorecard_entry_data,
)
from tournaments.selectors.tables import (
    table_rows as table_rows,
)
from tournaments.selectors.tables import (
    table_seat_names as table_seat_names,
)
from tournaments.selectors.tables import (
    tables_awaiting_cards as tables_awaiting_cards,
)
from tournaments.selectors.tables import (
    tables_with_cards as tables_with_cards,
)
