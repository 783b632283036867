"""The event and its entrants: a night, its rules, registration, check-in and withdrawal."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from contest.points import skunk_defaults
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import Action, Actor
from league.kernel.scoring_messages import scoring_message
from league.shared import Player
from scoring.errors import ScoringError
from tournaments import logic
from tournaments.models import (
    RULE_FIELDS,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    Kind,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
    TournamentVariant,
)
from tournaments.rules_messages import rules_message
from tournaments.services._common import _changed, _lock, _require


def tournament_create(
    *,
    user: Actor,
    name: str,
    date: dt.date | None = None,
    kind: str = "club-night",
    variant: str = "singles-121",
    rules: logic.TournamentRules | None = None,
    games_per_entrant: int = 9,
    draw_seed: int = 0,
    acc_rules: bool | None = None,
) -> Tournament:
    """A new event. ``acc_rules`` (cross-checking by ACC Rule 12.2) is on by default for a
    club night, off for the other kinds."""
    _require(user, Action.RUN_TOURNAMENT)
    name = tournament_check(
        name=name, kind=kind, variant=variant, games_per_entrant=games_per_entrant
    )
    rules = rules or logic.TournamentRules()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            date=date,
            kind=kind,
            variant=variant,
            games_per_entrant=games_per_entrant,
            draw_seed=draw_seed,
            acc_rules=(kind == Kind.CLUB_NIGHT) if acc_rules is None else bool(acc_rules),
            **{field: getattr(rules, name) for field, name in RULE_FIELDS.items()},
        )
        audit_log(
            actor=user, action=AuditAction.TOURNAMENT_CREATE, obj=tournament, after={"name": name}
        )
    return tournament


def tournament_check(*, name: str, kind: str, variant: str, games_per_entrant: int) -> str:
    """The checks of :func:`tournament_create` (one query: the name is free), the name
    stripped; the tournament archive's importer plans a tournament with them too."""
    name = name_from(name, field="name", label=_("The tournament's name"), limit=160)
    if not name:
        raise ValidationFailed(_("A tournament needs a name."), field="name")
    if Tournament.objects.filter(name=name).exists():
        raise ValidationFailed(
            _("There is already a tournament called %(name)s.") % {"name": name}, field="name"
        )
    if kind not in Kind.values:
        raise ValidationFailed(_("Unknown kind of event: %(kind)s.") % {"kind": kind})
    if variant not in TournamentVariant.values:
        raise ValidationFailed(_("Unknown variant: %(variant)s.") % {"variant": variant})
    if games_per_entrant < 1:
        raise ValidationFailed(_("Every entrant plays at least one qualifying game."))
    return name


EDITABLE = (
    "name",
    "date",
    "kind",
    "variant",
    "games_per_entrant",
    *RULE_FIELDS,
    "draw_seed",
    "acc_rules",
    "acc_no_harm",
    "games_per_opponent",
    "keep_apart",
)


def _check_seating(row: Tournament) -> None:
    """Two games a pairing at most ("nobody plays another player more than 2 games"); each
    "keep apart" entry two different names."""
    if row.games_per_opponent not in (1, 2):
        raise ValidationFailed(
            _("Entrants play each opponent once or twice in a row."), field="games_per_opponent"
        )
    pairs = row.keep_apart if isinstance(row.keep_apart, list) else None
    if pairs is None or any(
        not isinstance(p, list | tuple)
        or len(p) != 2
        or not all(isinstance(n, str) and n.strip() for n in p)
        or p[0] == p[1]
        for p in pairs
    ):
        raise ValidationFailed(
            _("Keep apart two different entrants at a time, by name."), field="keep_apart"
        )


def tournament_update(
    *, user: Actor, tournament: Tournament, changes: dict[str, Any]
) -> Tournament:
    """Change an event's settings. The rules are checked as a whole (an unknown tie-break, an
    even best-of are refused); once the bracket is drawn they no longer change."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        row = _lock(tournament)
        before = {k: getattr(row, k) for k in EDITABLE}
        for key, value in changes.items():
            if key in EDITABLE:
                setattr(row, key, value)
        _follow_target(row, before, changes)
        after = {k: getattr(row, k) for k in EDITABLE}
        if after == before:
            return row
        if row.stage in (TournamentStage.PLAYOFFS, TournamentStage.FINISHED):
            raise Locked(_("The bracket is drawn: the event's settings no longer change."))
        try:
            row.rules.ladder  # noqa: B018 - building the rules and their ladder checks them
        except logic.RulesError as exc:  # logic says it in English: say it in the reader's
            raise ValidationFailed(rules_message(exc), field=exc.field) from None
        except ScoringError as exc:  # skunk margins the scorer cannot judge
            field = str(exc.params.get("name", "double_skunk_margin"))
            raise ValidationFailed(scoring_message(exc), field=field) from None
        _check_seating(row)
        if row.variant != before["variant"] and row.entrants.exists():
            raise Locked(_("Entrants are registered: singles or partnership no longer changes."))
        row.save()
        audit_log(
            actor=user,
            action=AuditAction.TOURNAMENT_UPDATE,
            obj=row,
            before={k: str(v) for k, v in before.items() if before[k] != after[k]},
            after={k: str(v) for k, v in after.items() if before[k] != after[k]},
        )
    _changed(row.pk)
    return row


def _follow_target(row: Tournament, before: dict[str, Any], changes: dict[str, Any]) -> None:
    """A new target moves skunk margins that were the old target's defaults to the new
    target's (``contest.points.skunk_defaults``); margins the director changed stay as set. A
    form sends every setting, so only a value that differs counts as changed."""
    changed = {key for key in changes if key in before and before[key] != getattr(row, key)}
    if "target" not in changed or {"skunk_margin", "double_skunk_margin"} & changed:
        return
    if type(before["target"]) is not int or type(row.target) is not int:
        return
    old = skunk_defaults(before["target"])
    if (before["skunk_margin"], before["double_skunk_margin"]) != (
        old.skunk_margin,
        old.double_skunk_margin,
    ):
        return
    new = skunk_defaults(row.target)
    row.skunk_margin, row.double_skunk_margin = new.skunk_margin, new.double_skunk_margin


def _players(names: Iterable[Player | str]) -> list[Player]:
    out = []
    for p in names:
        if not isinstance(p, Player):
            p = Player.objects.get_or_create(
                name=name_from(p, field="players", label=_("A player's name"), required=True)
            )[0]
        out.append(p)
    return out


def _open_table_of(entrant: Entrant) -> TableGame | None:
    return (
        TableGame.objects.filter(round__tournament_id=entrant.tournament_id)
        .exclude(status=TableState.VERIFIED)
        .filter(first=entrant)
        .first()
        or TableGame.objects.filter(round__tournament_id=entrant.tournament_id, second=entrant)
        .exclude(status=TableState.VERIFIED)
        .first()
    )


def entrant_roster(
    tournament: Tournament, name: str, players: Sequence[Player | str], *, taken: bool
) -> list[Player | str]:
    """The checks of :func:`entrant_register` on an entrant (``taken``: its name is already
    entered), and its roster: the players named, or a singles entrant's own name. The
    tournament archive's importer plans its entrants with them too."""
    if taken:
        raise ValidationFailed(
            _("%(name)s is already entered in this tournament.") % {"name": name},
            field="name",
        )
    roster = list(players) or ([name] if not tournament.is_partnership else [])
    if tournament.is_partnership and len(roster) != 2:
        raise ValidationFailed(
            _("A partnership entrant is a team of two players; %(count)s were given.")
            % {"count": len(roster)},
            field="players",
        )
    return roster


def entrant_register(
    *,
    user: Actor,
    tournament: Tournament,
    name: str,
    players: Sequence[Player | str] = (),
    check_in: bool = False,
) -> Entrant:
    """Register an entrant; a singles entrant with no player named is the player of its name.
    After the first round it is a late add, checked in at once for the next round."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    name = name_from(name, field="name", label=_("The entrant's name"))
    if not name:
        raise ValidationFailed(_("An entrant needs a name."), field="name")
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage not in (TournamentStage.REGISTRATION, TournamentStage.QUALIFYING):
            raise Locked(_("The qualifying rounds are over: no more entrants can join."))
        roster = entrant_roster(
            tournament, name, players, taken=tournament.entrants.filter(name=name).exists()
        )
        late = tournament.stage == TournamentStage.QUALIFYING
        number = (
            tournament.entrants.order_by("-number").values_list("number", flat=True).first() or 0
        ) + 1
        entrant = Entrant.objects.create(
            tournament=tournament,
            name=name,
            number=number,
            status=EntrantStatus.CHECKED_IN if (check_in or late) else EntrantStatus.REGISTERED,
        )
        for position, player in enumerate(_players(roster)):
            EntrantPlayer.objects.create(entrant=entrant, player=player, position=position)
        audit_log(
            actor=user,
            action=AuditAction.ENTRANT_REGISTER,
            obj=entrant,
            after={"name": name, "players": [str(p) for p in roster], "late": late},
        )
    _changed(tournament.pk)
    return entrant


def entrant_check_in(*, user: Actor, entrant: Entrant) -> Entrant:
    _require(user, Action.RUN_TOURNAMENT, entrant.tournament)
    with transaction.atomic():
        _lock(entrant.tournament)
        entrant = Entrant.objects.get(pk=entrant.pk)
        if entrant.status == EntrantStatus.WITHDRAWN:
            raise Locked(_("%(name)s has withdrawn.") % {"name": entrant.name})
        before = entrant.status
        entrant.status = EntrantStatus.CHECKED_IN
        entrant.save(update_fields=["status"])
        audit_log(actor=user, action=AuditAction.ENTRANT_CHECK_IN, obj=entrant, before=before)
    _changed(entrant.tournament_id)
    return entrant


def entrant_withdraw(*, user: Actor, entrant: Entrant) -> Entrant:
    """Withdraw an entrant from the next round on (their games so far still count)."""
    _require(user, Action.RUN_TOURNAMENT, entrant.tournament)
    with transaction.atomic():
        _lock(entrant.tournament)
        entrant = Entrant.objects.get(pk=entrant.pk)
        table = _open_table_of(entrant)
        if table is not None:
            raise Locked(
                _(
                    "%(name)s is seated at table %(table)s of round %(round)s: "
                    "settle that game first."
                )
                % {"name": entrant.name, "table": table.table, "round": table.round.number}
            )
        before = entrant.status
        entrant.status = EntrantStatus.WITHDRAWN
        entrant.save(update_fields=["status"])
        audit_log(actor=user, action=AuditAction.ENTRANT_WITHDRAW, obj=entrant, before=before)
    _changed(entrant.tournament_id)
    return entrant
