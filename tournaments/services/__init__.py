"""Writes for a tournament, one function per change of state, each of one shape: ask ``refusal()``,
check the state (a :class:`~league.kernel.errors.DomainError` with a sentence for the room), lock
the tournament row, change, log to the audit trail, and after commit tell the live pages (TV,
standings) that something moved.

Semantics chosen where the issue is silent:

- The field of a round is the checked-in entrants; registering after the first round is a late
  add (checked in at once), a withdrawal takes effect from the next round, and both are refused
  while the entrant sits at a table whose result is still open.
- A round is seated only when every game of the one before is verified, and no more rounds are
  seated than the event's qualifying games.
- Scorecards follow ``league.kernel.lifecycle`` (a table's cards as the facts of a one-deal game):
  each side enters once (its card is its vouch; a wrong card is settled by a checker, not by
  the players writing again). Two matching entries verify the game; two that disagree send it
  to the checkers, whose entry settles it. A checker may also key in a paper card for one side.
  A card entered deal by deal is checked by the league's scorer; its winner and loser's score
  come from the deals, and it matches the other side's plain card when those agree.
- The bracket is drawn from the standings of verified games; withdrawn entrants are passed over
  in the cut (the next entrant qualifies), but the count of qualifiers is of the whole field.

The services are split by what they change (events, seating, scorecards, bracket, clubs,
money); this package names every one of them, so a door writes ``services.bracket_draw(...)``.
"""

from tournaments.services._common import MAX_DEALS
from tournaments.services.bracket import (
    bracket_draw,
    match_entrant,
    playoff_game_record,
    playoff_game_void,
    table_entrant,
)
from tournaments.services.clubs import (
    club_create,
    club_season_create,
    club_season_update,
    night_assign_season,
)
from tournaments.services.events import (
    EDITABLE,
    entrant_check_in,
    entrant_register,
    entrant_withdraw,
    tournament_create,
    tournament_update,
)
from tournaments.services.money import (
    MANUAL_KINDS,
    fees_collect,
    ledger_entry_add,
    ledger_entry_remove,
    night_close,
    payouts_record,
    purse_set,
    side_pot_award,
    side_pot_enter,
    side_pot_set,
)
from tournaments.services.scorecards import (
    result_from_deals,
    scorecard_enter,
    scorecard_settle,
    scorecard_submit,
)
from tournaments.services.seating import (
    round_seat_next,
    round_start,
    round_swap,
)

__all__ = [
    "EDITABLE",
    "MANUAL_KINDS",
    "MAX_DEALS",
    "bracket_draw",
    "club_create",
    "club_season_create",
    "club_season_update",
    "entrant_check_in",
    "entrant_register",
    "entrant_withdraw",
    "fees_collect",
    "ledger_entry_add",
    "ledger_entry_remove",
    "match_entrant",
    "night_assign_season",
    "night_close",
    "payouts_record",
    "playoff_game_record",
    "playoff_game_void",
    "purse_set",
    "result_from_deals",
    "round_seat_next",
    "round_start",
    "round_swap",
    "scorecard_enter",
    "scorecard_settle",
    "scorecard_submit",
    "side_pot_award",
    "side_pot_enter",
    "side_pot_set",
    "table_entrant",
    "tournament_create",
    "tournament_update",
]
