"""The event and its entrants: a night, its rules, registration, check-in and withdrawal."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.people import Player
from league.kernel.permissions import Action, Actor
from league.kernel.scoring_messages import scoring_message
from scoring.errors import ScoringError
from tournaments import logic
from tournaments.models import (
    RULE_FIELDS,
    Entrant,
    EntrantPlayer,
    EntrantStatus,
    Kind,
    TableGame,
    TableStatus,
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
) -> Tournament:
    _require(user, Action.RUN_TOURNAMENT)
    name = name.strip()
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
    rules = rules or logic.TournamentRules()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            date=date,
            kind=kind,
            variant=variant,
            games_per_entrant=games_per_entrant,
            draw_seed=draw_seed,
            **{field: getattr(rules, name) for field, name in RULE_FIELDS.items()},
        )
        audit_log(
            actor=user, action=AuditAction.TOURNAMENT_CREATE, obj=tournament, after={"name": name}
        )
    return tournament


EDITABLE = (
    "name",
    "date",
    "kind",
    "variant",
    "games_per_entrant",
    *RULE_FIELDS,
    "draw_seed",
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


def _players(names: Iterable[Player | str]) -> list[Player]:
    out = []
    for p in names:
        out.append(p if isinstance(p, Player) else Player.objects.get_or_create(name=p.strip())[0])
    return out


def _open_table_of(entrant: Entrant) -> TableGame | None:
    return (
        TableGame.objects.filter(round__tournament_id=entrant.tournament_id)
        .exclude(status=TableStatus.VERIFIED)
        .filter(first=entrant)
        .first()
        or TableGame.objects.filter(round__tournament_id=entrant.tournament_id, second=entrant)
        .exclude(status=TableStatus.VERIFIED)
        .first()
    )


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
    name = name.strip()
    if not name:
        raise ValidationFailed(_("An entrant needs a name."), field="name")
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage not in (TournamentStage.REGISTRATION, TournamentStage.QUALIFYING):
            raise Locked(_("The qualifying rounds are over: no more entrants can join."))
        if tournament.entrants.filter(name=name).exists():
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
