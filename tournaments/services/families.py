"""A weekend (or a day) of events: made, its events added (a main, a consolation, satellites
and side events, singles or doubles, each with its own rules and bracket), and the main's
non-qualifiers moved into the consolation in one action, as a full consolation (its own
qualifying rounds) or "Consy Lite" (straight into its bracket, the best of the main's
non-qualifiers taking the byes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import Action, Actor
from tournaments.models import (
    Entrant,
    EntrantStatus,
    EventFamily,
    Kind,
    Tournament,
    TournamentStage,
    TournamentVariant,
)
from tournaments.selectors import standings_for_tournament
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.bracket import store_bracket
from tournaments.services.events import entrant_register, tournament_create


def family_create(
    *,
    user: Actor,
    name: str,
    starts: dt.date | None = None,
    ends: dt.date | None = None,
    club: Any = None,
) -> EventFamily:
    """A weekend (or a day) of events, empty until its events are added."""
    _require(user, Action.RUN_TOURNAMENT)
    name = name_from(name, field="name", label=_("The weekend's name"), limit=160)
    if not name:
        raise ValidationFailed(_("A weekend of events needs a name."), field="name")
    if starts and ends and ends < starts:
        raise ValidationFailed(_("The last day comes on or after the first."), field="ends")
    with transaction.atomic():
        if EventFamily.objects.filter(name=name).exists():
            raise ValidationFailed(
                _("There is already a weekend called %(name)s.") % {"name": name}, field="name"
            )
        family = EventFamily.objects.create(name=name, starts=starts, ends=ends, club=club)
        audit_log(
            actor=user, action=AuditAction.TOURNAMENT_CREATE, obj=family, after={"name": name}
        )
    return family


def family_event_create(
    *,
    user: Actor,
    family: EventFamily,
    name: str,
    kind: str = Kind.MAIN,
    variant: str = TournamentVariant.SINGLES,
    games_per_entrant: int = 9,
    date: dt.date | None = None,
) -> Tournament:
    """An event of the weekend: a main, a consolation, a satellite or a side event (singles,
    or doubles as a partnership event), with the rules of a new event (each editable)."""
    if kind == Kind.CLUB_NIGHT:
        raise ValidationFailed(
            _("A weekend holds a main, consolations, satellites and side events."), field="kind"
        )
    with transaction.atomic():
        event = tournament_create(
            user=user,
            name=name,
            kind=kind,
            variant=variant,
            games_per_entrant=games_per_entrant,
            acc_rules=True,
        )
        event.family = family
        event.club = family.club
        event.date = date or family.starts
        event.save(update_fields=["family", "club", "date"])
    return event


def consolation_fill(
    *, user: Actor, main: Tournament, consolation: Tournament, lite: bool = False
) -> list[Entrant]:
    """Move the main's non-qualifiers into ``consolation`` in one action, in the main's
    standings order, checked in. ``lite`` ("Consy Lite"): the consolation goes straight into
    its bracket, seeded by the main's standings (the best non-qualifiers get the byes);
    otherwise it plays its own qualifying rounds first. Refused before the main's cut, into
    an event that is no consolation of the same weekend or has entrants already."""
    _require(user, Action.RUN_TOURNAMENT, main)
    _require(user, Action.RUN_TOURNAMENT, consolation)
    if main.pk == consolation.pk:
        raise ValidationFailed(_("Choose the consolation, not the main itself."))
    with transaction.atomic():
        main = _lock(main)
        consolation = _lock(consolation)
        if main.stage not in (TournamentStage.PLAYOFFS, TournamentStage.FINISHED):
            raise Locked(
                _("The main's bracket is not drawn yet: its non-qualifiers are not known.")
            )
        if consolation.kind != Kind.CONSOLATION:
            raise ValidationFailed(
                _("%(name)s is not a consolation event.") % {"name": consolation.name}
            )
        if main.family_id is not None and consolation.family_id not in (None, main.family_id):
            raise ValidationFailed(
                _("%(name)s belongs to another weekend.") % {"name": consolation.name}
            )
        if consolation.stage != TournamentStage.REGISTRATION or consolation.entrants.exists():
            raise Locked(
                _("%(name)s has entrants already: the non-qualifiers move in once.")
                % {"name": consolation.name}
            )
        if main.variant != consolation.variant:
            raise ValidationFailed(
                _("The consolation must be played as the main is (singles or partnership).")
            )
        data = standings_for_tournament(main)
        chosen = set(data["qualifiers"])
        by_name = {e.name: e for e in main.entrants.prefetch_related("roster__player")}
        names = [
            row["entrant"]
            for row in data["standings"]
            if row["entrant"] not in chosen
            and by_name[row["entrant"]].status != EntrantStatus.WITHDRAWN
        ]
        if not names:
            raise ValidationFailed(_("Every entrant of the main qualified: nobody moves."))
        moved = [
            entrant_register(
                user=user,
                tournament=consolation,
                name=name,
                players=[ep.player for ep in by_name[name].roster.all()],
                check_in=True,
            )
            for name in names
        ]
        consolation.consolation_of = main
        consolation.family_id = main.family_id or consolation.family_id
        consolation.byes_from_main = lite
        consolation.save(update_fields=["consolation_of", "family", "byes_from_main"])
        audit_log(
            actor=user,
            action=AuditAction.TOURNAMENT_UPDATE,
            obj=consolation,
            after={"from": main.name, "entrants": names, "consy_lite": lite},
            reason="the main's non-qualifiers moved in",
        )
        if lite:
            store_bracket(consolation, names)
            consolation.refresh_from_db(fields=["stage"])
            if consolation.stage == TournamentStage.REGISTRATION:
                consolation.stage = TournamentStage.PLAYOFFS
                consolation.save(update_fields=["stage"])
            audit_log(
                actor=user,
                action=AuditAction.BRACKET_DRAW,
                obj=consolation,
                after={"qualifiers": names, "seeded_from": main.name},
            )
    _changed(consolation.pk)
    return moved
