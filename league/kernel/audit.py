"""Writing the audit trail: who changed what, from what to what, and why. Every kind of
change is an :class:`AuditAction`, declared once here: the services write it, and a game's
history (``league.selectors.history``) reads its sentence from the same member."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.kernel.permissions import Trusted, actor_of
from league.models import AuditEntry, Game, Season

# A judge's or a team's correction of deals, one deal or several at once: the same line.
_CORRECTION = (
    _("Deal %(n)s: %(changes)s"),
    {
        "struck_out": _("Deal %(n)s struck out"),
        "ruling": _("Ruling on dispute #%(n)s, rule %(rule)s."),
    },
)


class AuditAction(StrEnum):
    """What a change was. The value is what ``AuditEntry.action`` stores (never rename one:
    stored rows keep it). ``sentence`` is the line a game's history shows for it, its
    ``%(name)s`` filled from the entry, and ``variants`` the other lines the history tells
    apart by name; an action with no sentence never concerns a game, and the history would
    say its name ("Playoffs create.")."""

    sentence: Promise | None
    variants: Mapping[str, Promise]

    def __new__(
        cls,
        value: str,
        sentence: Promise | None = None,
        variants: Mapping[str, Promise] | None = None,
    ) -> AuditAction:
        member = str.__new__(cls, value)
        member._value_ = value
        member.sentence = sentence
        member.variants = variants or {}
        return member

    # A league game, from its start to its confirmation (the game's history).
    GAME_START = "game_start", _("Game %(n)s started: %(seats)s, %(dealer)s deals first.")
    DEAL_RECORD = "deal_record", _("Deal %(n)s entered.")
    DEAL_AGREE = "deal_agree", _("Deal %(n)s entered again with the same numbers: agreed.")
    DEAL_RIVAL = (
        "deal_rival",
        _("Deal %(n)s entered differently: %(changes)s. Both entries are kept."),
        {"same_numbers": _("the same numbers, other cards")},
    )
    DEAL_CORRECT = "deal_correct", *_CORRECTION
    DEALS_CORRECT = "deals_correct", *_CORRECTION
    RIVAL_WITHDRAW = "rival_withdraw", _("Accepted the stored numbers of deal %(n)s.")
    GAME_CONFIRM = "game_confirm", _("Confirmed."), {"vouched": _("Vouched for.")}
    GAME_VOID = "game_void", _("Voided.")
    GAME_CANCEL = "game_cancel", _("Cancelled before its first deal: its number is free again.")

    # Disputes and rulings (the game's history too).
    DISPUTE_RAISE = (
        "dispute_raise",
        _("Dispute raised about deal %(n)s: %(claim)s"),
        {"no_deal": _("Dispute raised: %(claim)s")},
    )
    DISPUTE_WITHDRAW = "dispute_withdraw", _("Dispute withdrawn.")
    DISPUTE_ASSIGN = "dispute_assign", _("A judge took the dispute.")
    DISPUTE_RULE = (
        "dispute_rule",
        _("Dispute %(word)s, citing rule %(rule)s."),
        {"dismissed": _("dismissed"), "resolved": _("resolved")},
    )

    # A league's set-up: its default rules, seasons, people, the schedule.
    LEAGUE_CREATE = "league_create"
    LEAGUE_UPDATE = "league_update"
    SEASON_CREATE = "season_create"
    SEASON_RULES_UPDATE = "season_rules_update"
    SEASON_UPDATE = "season_update"
    SEASON_IMPORT = "season_import"
    SCHEDULE_CREATE = "schedule_create"
    SCHEDULE_CLEAR = "schedule_clear"
    WEEK_CREATE = "week_create"
    WEEK_UPDATE = "week_update"
    VENUE_CREATE = "venue_create"
    TEAM_CREATE = "team_create"
    TEAM_UPDATE = "team_update"
    MATCH_CREATE = "match_create"
    MATCH_UPDATE = "match_update"
    DELETE = "delete"
    PLAYER_CREATE = "player_create"
    PLAYER_LOGIN_CREATE = "player_login_create"
    PLAYER_LINK = "player_link"
    INVITATION_SEND = "invitation_send"

    # A league's playoffs.
    PLAYOFFS_CREATE = "playoffs_create"
    PLAYOFFS_UNDO = "playoffs_undo"
    PLAYOFFS_ADVANCE = "playoffs_advance"

    # Tournaments: the event, its entrants, rounds, scorecards and bracket.
    TOURNAMENT_CREATE = "tournament_create"
    TOURNAMENT_UPDATE = "tournament_update"
    TOURNAMENT_IMPORT = "tournament_import"
    ENTRANT_REGISTER = "entrant_register"
    ENTRANT_CHECK_IN = "entrant_check_in"
    ENTRANT_WITHDRAW = "entrant_withdraw"
    ROUND_SEAT = "round_seat"
    ROUND_SWAP = "round_swap"
    ROUND_START = "round_start"
    SCORECARD_SUBMIT = "scorecard_submit"
    SCORECARD_SETTLE = "scorecard_settle"
    BRACKET_DRAW = "bracket_draw"
    PLAYOFF_GAME_RECORD = "playoff_game_record"
    PLAYOFF_GAME_VOID = "playoff_game_void"

    # Clubs and their seasons of nights.
    CLUB_CREATE = "club_create"
    CLUB_SEASON_CREATE = "club_season_create"
    CLUB_SEASON_UPDATE = "club_season_update"
    NIGHT_ASSIGN_SEASON = "night_assign_season"
    NIGHT_CLOSE = "night_close"

    # An event's money.
    PURSE_SET = "purse_set"
    SIDE_POT_SET = "side_pot_set"
    SIDE_POT_ENTER = "side_pot_enter"
    SIDE_POT_AWARD = "side_pot_award"
    FEES_COLLECT = "fees_collect"
    PAYOUTS_RECORD = "payouts_record"
    LEDGER_ENTRY_ADD = "ledger_entry_add"
    LEDGER_ENTRY_REMOVE = "ledger_entry_remove"


def _where(obj: Any) -> tuple[Game | None, int | None]:
    """The game and the season an object belongs to, found from the object itself."""
    if isinstance(obj, Season):
        return None, obj.pk
    if isinstance(obj, Game):
        return obj, obj.match.week.season_id
    game = getattr(obj, "game", None)
    if isinstance(game, Game):
        return game, game.match.week.season_id
    for path in ("season_id", "week.season_id", "match.week.season_id"):
        value: Any = obj
        for part in path.split("."):
            value = getattr(value, part, None)
        if isinstance(value, int):
            return None, value
    return None, None


def audit_log(
    *,
    actor: Any,
    action: AuditAction,
    obj: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Record one change; call it inside the transaction that makes the change. The game and
    season it concerns are worked out from ``obj``; a trusted caller's reason is kept."""
    entry = audit_entry(
        actor=actor, action=action, obj=obj, before=before, after=after, reason=reason
    )
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    actor: Any,
    action: AuditAction,
    obj: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """The entry :func:`audit_log` writes, unsaved: a bulk writer saves many with one
    ``bulk_create`` in the transaction that makes the changes (``obj`` must have its key)."""
    if not isinstance(action, AuditAction):
        raise TypeError(f"{action!r} is not an AuditAction: declare it in league.kernel.audit")
    game, season_id = _where(obj)
    if isinstance(actor, Trusted) and actor.why not in reason:
        reason = f"{reason} ({actor.why})" if reason else actor.why
    return AuditEntry(
        actor=actor_of(actor),
        action=action.value,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        game=game,
        season_id=season_id,
        before=before,
        after=after,
        reason=reason,
    )
