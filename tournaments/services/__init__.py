"""Writes for a tournament, one function per change of state, each of one shape: ask ``refusal()``,
check the state (a :class:`~league.kernel.errors.DomainError` with a sentence for the room), lock
the tournament row (a player's scorecard locks its table's row alone: docs/architecture.md, the
card path), change, log to the audit trail, and after commit tell the live pages (TV,
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
    playoff_game_check,
    playoff_game_record,
    playoff_game_void,
    table_entrant,
    tiebreak_playoff_record,
)
from tournaments.services.clubs import (
    club_create,
    club_member_set,
    club_season_create,
    club_season_update,
    club_update,
    night_assign_season,
)
from tournaments.services.events import (
    EDITABLE,
    entrant_check_in,
    entrant_register,
    entrant_roster,
    entrant_withdraw,
    tournament_check,
    tournament_create,
    tournament_update,
)
from tournaments.services.families import (
    consolation_fill,
    family_create,
    family_event_create,
)
from tournaments.services.members import club_members_set
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
from tournaments.services.playoff_cards import (
    open_cards,
    playoff_card_enter,
    side_in_match,
)
from tournaments.services.runner_cards import PaperCard, paper_card_enter
from tournaments.services.scorecards import (
    acc_clause_of,
    acc_resolution,
    result_check,
    result_from_deals,
    scorecard_acc_reverse,
    scorecard_enter,
    scorecard_settle,
    scorecard_submit,
)
from tournaments.services.seating import (
    round_seat_next,
    round_start,
    round_swap,
)
from tournaments.services.special_pots import side_pot_award_from_cards
from tournaments.services.workspace import (
    club_defaults_set,
    club_director_add,
    club_found,
    club_members_add,
    entrants_add,
    entrants_check_in_all,
    forfeit_games,
    names_from,
    night_tonight,
    playoff_forfeit,
)

__all__ = [
    "EDITABLE",
    "MANUAL_KINDS",
    "MAX_DEALS",
    "PaperCard",
    "acc_clause_of",
    "acc_resolution",
    "bracket_draw",
    "club_create",
    "club_defaults_set",
    "club_director_add",
    "club_found",
    "club_member_set",
    "club_members_add",
    "club_members_set",
    "club_season_create",
    "club_season_update",
    "club_update",
    "consolation_fill",
    "entrant_check_in",
    "entrant_register",
    "entrant_roster",
    "entrant_withdraw",
    "entrants_add",
    "entrants_check_in_all",
    "family_create",
    "family_event_create",
    "fees_collect",
    "forfeit_games",
    "ledger_entry_add",
    "ledger_entry_remove",
    "match_entrant",
    "names_from",
    "night_assign_season",
    "night_close",
    "night_tonight",
    "open_cards",
    "paper_card_enter",
    "payouts_record",
    "playoff_card_enter",
    "playoff_forfeit",
    "playoff_game_check",
    "playoff_game_record",
    "playoff_game_void",
    "purse_set",
    "result_check",
    "result_from_deals",
    "round_seat_next",
    "round_start",
    "round_swap",
    "scorecard_acc_reverse",
    "scorecard_enter",
    "scorecard_settle",
    "scorecard_submit",
    "side_in_match",
    "side_pot_award",
    "side_pot_award_from_cards",
    "side_pot_enter",
    "side_pot_set",
    "table_entrant",
    "tiebreak_playoff_record",
    "tournament_check",
    "tournament_create",
    "tournament_update",
]
