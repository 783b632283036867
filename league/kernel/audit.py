"""Writing the audit trail: who changed what, from what to what, and why. Every kind of
change is an :class:`AuditAction`, declared once here: the services write it, and a game's
history (``league.selectors.history``) reads its sentence from the same member."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from league.kernel.permissions import Trusted, actor_of
from league.shared import AuditEntry

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
    GAME_CLOSE = (
        "game_close",
        _("Closed by the league: nobody confirmed or disputed it within %(hours)s hours."),
    )

    # Forfeits: the forfeit itself (the season's trail) and each game it awarded or undid (the
    # game's history).
    FORFEIT_RECORD = "forfeit_record", _("Won by forfeit: %(team)s forfeited it.")
    FORFEIT_UNDO = "forfeit_undo", _("The forfeit was undone: the game no longer counts.")

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
    SEASON_PUBLISH = "season_publish"
    SEASON_UNPUBLISH = "season_unpublish"
    SEASON_FINISH = "season_finish"
    SEASON_REOPEN = "season_reopen"
    SCHEDULE_CREATE = "schedule_create"
    SCHEDULE_CLEAR = "schedule_clear"
    WEEK_CREATE = "week_create"
    WEEK_UPDATE = "week_update"
    VENUE_CREATE = "venue_create"
    VENUE_UPDATE = "venue_update"
    TEAM_CREATE = "team_create"
    TEAM_UPDATE = "team_update"
    MATCH_CREATE = "match_create"
    MATCH_UPDATE = "match_update"
    DELETE = "delete"
    PLAYER_CREATE = "player_create"
    PLAYER_LOGIN_CREATE = "player_login_create"
    PLAYER_LINK = "player_link"
    PLAYER_RENAME = "player_rename"
    INVITATION_SEND = "invitation_send"
    INVITATION_HOLD = "invitation_hold"
    SUB_ADD = "sub_add"
    SUB_REMOVE = "sub_remove"
    SUB_ASK = "sub_ask"

    # Postponements and nights that move (the season's trail).
    POSTPONEMENT_ASK = "postponement_ask"
    POSTPONEMENT_ANSWER = "postponement_answer"
    MATCH_POSTPONE = "match_postpone"
    NIGHT_MOVE = "night_move"
    NIGHT_CANCEL = "night_cancel"
    MATCH_EARLY_START = "match_early_start"

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
    SCORECARD_ACC_RESOLVE = "scorecard_acc_resolve"
    SCORECARD_ACC_REVERSE = "scorecard_acc_reverse"
    BRACKET_DRAW = "bracket_draw"
    PLAYOFF_GAME_RECORD = "playoff_game_record"
    PLAYOFF_GAME_VOID = "playoff_game_void"
    PLAYOFF_FORFEIT = "playoff_forfeit"

    # Clubs and their seasons of nights.
    CLUB_CREATE = "club_create"
    CLUB_SEASON_CREATE = "club_season_create"
    CLUB_SEASON_UPDATE = "club_season_update"
    CLUB_MEMBER_SET = "club_member_set"
    CLUB_UPDATE = "club_update"
    NIGHT_ASSIGN_SEASON = "night_assign_season"
    NIGHT_CLOSE = "night_close"
    CLUB_MEMBERS_ADD = "club_members_add"
    NIGHT_TONIGHT = "night_tonight"

    # An event's money.
    PURSE_SET = "purse_set"
    SIDE_POT_SET = "side_pot_set"
    SIDE_POT_ENTER = "side_pot_enter"
    SIDE_POT_AWARD = "side_pot_award"
    FEES_COLLECT = "fees_collect"
    PAYOUTS_RECORD = "payouts_record"
    LEDGER_ENTRY_ADD = "ledger_entry_add"
    LEDGER_ENTRY_REMOVE = "ledger_entry_remove"

    # Telling players: the organiser's announcements, each player's own choices.
    ANNOUNCEMENT_POST = "announcement_post"
    NOTIFY_CHOICES = "notify_choices"
    DISCARDS_SHARE = "discards_share"
    NOTIFY_UNSUBSCRIBE = "notify_unsubscribe"
    CALENDAR_RESET = "calendar_reset"

    # The federation: its points schedules, and results sent up and reviewed.
    POINTS_SCHEDULE_SET = "points_schedule_set"
    RESULTS_SEND = "results_send"
    RESULTS_APPROVE = "results_approve"
    RESULTS_RETURN = "results_return"


_ASK = object()  # no account given: ``actor_of(actor)``


#: Each app's answer to "which game and season does this object concern?": ``place(obj)`` gives
#: ``(game, season id)``, or None for an object it does not know (another app's). Registered in
#: the app's ``AppConfig.ready()`` with :func:`add_audit_place`; asked in order, the first
#: answer kept; an object no app places is filed under neither.
Place = Callable[[Any], tuple[Any, int | None] | None]
_places: list[Place] = []


def add_audit_place(place: Place) -> None:
    """Let ``place(obj)`` say which game and season an audited object concerns."""
    _places.append(place)


def audit_log(
    *,
    actor: Any,
    action: AuditAction,
    obj: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    account: Any = _ASK,
) -> AuditEntry:
    """Record one change; call it inside the transaction that makes the change. The game and
    season it concerns are worked out from ``obj``; a trusted caller's reason is kept.
    ``account``: the account ``actor`` acts as, when the caller has it (``Permit.actor``)."""
    entry = audit_entry(
        actor=actor,
        action=action,
        obj=obj,
        before=before,
        after=after,
        reason=reason,
        account=account,
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
    account: Any = _ASK,
) -> AuditEntry:
    """The entry :func:`audit_log` writes, unsaved: a bulk writer saves many with one
    ``bulk_create`` in the transaction that makes the changes (``obj`` must have its key)."""
    if not isinstance(action, AuditAction):
        raise TypeError(f"{action!r} is not an AuditAction: declare it in league.kernel.audit")
    game, season_id = None, None
    for place in _places:  # asked inline: one call on a deal's path, as the old helper was
        found = place(obj)
        if found is not None:
            game, season_id = found
            break
    if isinstance(actor, Trusted) and actor.why not in reason:
        reason = f"{reason} ({actor.why})" if reason else actor.why
    return AuditEntry(
        actor=actor_of(actor) if account is _ASK else account,
        action=action.value,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        game=game,
        season_id=season_id,
        before=before,
        after=after,
        reason=reason,
    )


def audit_write_many(entries: Iterable[AuditEntry], *, batch_size: int = 500) -> None:
    """Save entries made by :func:`audit_entry` with one insert per ``batch_size``, in their
    order, in the caller's transaction (a bulk writer's trail: an archive import)."""
    AuditEntry.objects.bulk_create(entries, batch_size=batch_size)
