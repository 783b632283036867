"""Registration from an event's public page: the desk the director opens, players signing up
from a phone, the director's answers in bulk, the waiting list that fills itself, pairing
players who want a partner, fees owed and paid, and check-in from the list.

Semantics chosen where the issue is silent:

- A registration takes one place; the capacity counts the places taken (a doubles entry, a
  team, is one place; a player wanting a partner holds one until the director pairs them).
  Capacity 0 is no limit.
- Without approval, a registration is placed at once: a place while there is room, the
  waiting list after that. With approval it waits for the director, whose "accept" places it
  the same way (so accepting when full puts the player on the waiting list, in the order of
  acceptance) and whose "refuse" ends it (the player is told).
- A place confirmed is an entrant of the event (the event's own ``entrant_register``), with the
  entry fee owed from then; a player wanting a partner becomes an entrant when paired. The fee
  is paid when the director records it in the event's ledger (``fees_collect``): "who still
  owes" is every entrant placed here without a fee in the ledger.
- A withdrawal frees the place while the event is still registering; the first player on the
  waiting list takes it at once and is told. An entrant withdrawn from the night's own page
  frees its place too: the waiting list takes it at the next registration or answer (a new
  player never takes a place ahead of those waiting). Pairing two players makes one entry of
  them and frees the second one's place the same way. Once the first round is seated the
  waiting list stays as it is (a withdrawal then is the event's own, from the next round).
- One registration per e-mail address and per name in an event (letter case aside), while it
  is active; a player refused or withdrawn may register again.
- A money refund for a withdrawal after paying is the director's, in the ledger (``refund``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.kernel.notify import notify, said
from league.kernel.parsers import name_from
from league.kernel.permissions import Action, Actor, Trusted, actor_of, can
from league.shared import Player
from tournaments import notify_events as events
from tournaments.amounts import dollars
from tournaments.models import (
    ACTIVE,
    ClubMember,
    Entrant,
    EntrantStatus,
    LedgerEntry,
    MemberStatus,
    Purse,
    Registration,
    RegistrationDesk,
    RegistrationStatus,
    Tournament,
    TournamentStage,
)
from tournaments.selectors.registration import places_taken, waiting_list
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.clubs import member_store
from tournaments.services.events import entrant_check_in, entrant_register, entrant_withdraw
from tournaments.services.money import fees_collect, purse_set
from tournaments.services.workspace import directs

MAX_NAME = 120
DESK_FIELDS = ("is_open", "capacity", "venue", "details", "needs_approval")
MAX_CAPACITY = 10_000

# --- Who may ------------------------------------------------------------------------------------


def runs(user: Any, tournament: Tournament) -> bool:
    """Whether ``user`` runs ``tournament``'s registration: a tournament director (of its club,
    when it has one) or a league admin."""
    if isinstance(user, Trusted):
        return True
    if not can(user, Action.RUN_TOURNAMENT, tournament):
        return False
    club = tournament.club
    return club is None or directs(user, club)


def _require_director(user: Actor, tournament: Tournament) -> None:
    _require(user, Action.RUN_TOURNAMENT, tournament)
    if not runs(user, tournament):
        raise NotAllowed(
            _("Only the directors of %(club)s and league admins run its events' registration.")
            % {"club": tournament.club}
        )


# --- The desk -----------------------------------------------------------------------------------


def _capacity(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        try:
            raw = int(str(raw).strip() or "0")
        except ValueError:
            raise ValidationFailed(
                _("The capacity is a whole number of entries (0: no limit)."), field="capacity"
            ) from None
    if not 0 <= raw <= MAX_CAPACITY:
        raise ValidationFailed(
            _("The capacity is from 0 (no limit) to %(max)s entries.") % {"max": MAX_CAPACITY},
            field="capacity",
        )
    return raw


def desk_set(*, user: Actor, tournament: Tournament, changes: dict[str, Any]) -> RegistrationDesk:
    """Open (or change) an event's registration: open or closed, its capacity, venue, the
    format in words, whether each registration waits for the director, and its entry fee
    (``entry_fee``, cents: the event's purse, kept with the rest of its money). A capacity
    raised gives the places it adds to the waiting list at once; one lowered takes no place
    back (the next withdrawals are not refilled until there is room)."""
    _require_director(user, tournament)
    changes = dict(changes)
    fee = changes.pop("entry_fee", None)
    unknown = set(changes) - set(DESK_FIELDS)
    if unknown:
        raise ValidationFailed(
            _("These are not registration settings: %(names)s.")
            % {"names": ", ".join(sorted(unknown))}
        )
    clean = dict(changes)
    if "capacity" in clean:
        clean["capacity"] = _capacity(clean["capacity"])
    if "venue" in clean:
        clean["venue"] = name_from(clean["venue"], field="venue", label=_("The venue"), limit=160)
    if "details" in clean:
        details = clean["details"] if isinstance(clean["details"], str) else ""
        if len(details) > 4000:
            raise ValidationFailed(
                _("The format and times are longer than 4000 characters."), field="details"
            )
        clean["details"] = details.strip()
    for flag in ("is_open", "needs_approval"):
        if flag in clean and not isinstance(clean[flag], bool):
            raise ValidationFailed(_("Say yes or no."), field=flag)
    with transaction.atomic():
        tournament = _lock(tournament)
        desk, made = RegistrationDesk.objects.get_or_create(tournament=tournament)
        before = None if made else {name: getattr(desk, name) for name in DESK_FIELDS}
        for name, value in clean.items():
            setattr(desk, name, value)
        desk.save()
        purse = Purse.objects.filter(tournament=tournament).first()
        if fee is not None and (purse is None or purse.entry_fee != fee):
            keep = {}
            if purse is not None:
                keep = {
                    "house_percent": purse.house_percent,
                    "payout_mode": purse.payout_mode,
                    "payout_table": purse.payout_table,
                }
            purse_set(user=user, tournament=tournament, entry_fee=fee, **keep)
        audit_log(
            actor=user,
            action=AuditAction.REGISTRATION_DESK_SET,
            obj=tournament,
            before=before,
            after={name: getattr(desk, name) for name in DESK_FIELDS},
        )
        _promote(user, tournament, desk)
    _changed(tournament.pk)
    return desk


# --- Registering --------------------------------------------------------------------------------


def _clean_name(raw: Any, *, field: str, label: Any) -> str:
    text = " ".join(name_from(raw, field=field, label=label, limit=10**4).split())
    if len(text) > MAX_NAME:
        raise ValidationFailed(
            _("%(label)s is longer than %(limit)s characters.")
            % {"label": label, "limit": MAX_NAME},
            field=field,
        )
    return text


def _clean_email(raw: Any) -> str:
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        raise ValidationFailed(
            _("Your e-mail address is empty: we send your confirmation there."), field="email"
        )
    try:
        validate_email(text)
    except ValidationError:
        raise ValidationFailed(
            _("%(email)s is not an e-mail address we can write to.") % {"email": text[:80]},
            field="email",
        ) from None
    local, _at, domain = text.rpartition("@")
    return f"{local}@{domain.lower()}"


def _clean_acc(raw: Any) -> str:
    number = str(raw or "").strip()
    if number and (not (number.isascii() and number.isdigit()) or len(number) > 12):
        raise ValidationFailed(
            _("An ACC number is digits only, up to 12 (as on the member's card)."),
            field="acc_number",
        )
    return number


def registration_check(
    tournament: Tournament,
    *,
    name: Any,
    email: Any,
    acc_number: Any = "",
    member_status: Any = MemberStatus.MEMBER,
    partner: Any = "",
    partner_wanted: bool = False,
) -> dict[str, Any]:
    """The form's fields, cleaned and checked alone (no duplicate check: that needs the lock);
    every door (the page, the admin) asks this first."""
    name = _clean_name(name, field="name", label=_("Your name"))
    if not name:
        raise ValidationFailed(_("Your name is empty: type it."), field="name")
    email = _clean_email(email)
    acc = _clean_acc(acc_number)
    if member_status not in MemberStatus.values:
        raise ValidationFailed(
            _("Say whether you are an ACC member, a guest or a visitor."), field="member_status"
        )
    if member_status == MemberStatus.MEMBER and not acc:
        raise ValidationFailed(
            _("An ACC member gives their ACC number (on the membership card)."),
            field="acc_number",
        )
    partner = _clean_name(partner, field="partner", label=_("Your partner's name"))
    partner_wanted = bool(partner_wanted)
    if tournament.is_partnership:
        if partner and partner_wanted:
            raise ValidationFailed(
                _("Name your partner or tick “partner wanted”, not both."),
                field="partner",
            )
        if not partner and not partner_wanted:
            raise ValidationFailed(
                _("This is a doubles event: name your partner, or tick “partner wanted”."),
                field="partner",
            )
        if partner.casefold() == name.casefold():
            raise ValidationFailed(
                _("Your partner is someone else: type their name."), field="partner"
            )
    elif partner or partner_wanted:
        raise ValidationFailed(_("This is a singles event: it has no partners."), field="partner")
    return {
        "name": name,
        "email": email,
        "acc_number": acc,
        "member_status": member_status,
        "partner": partner,
        "partner_wanted": partner_wanted,
    }


def _duplicate(tournament: Tournament, fields: dict[str, Any]) -> None:
    active = Registration.objects.filter(tournament=tournament, status__in=ACTIVE)
    if active.filter(email__iexact=fields["email"]).exists():
        raise ValidationFailed(
            _(
                "%(email)s is already registered for %(event)s: the link in its confirmation "
                "shows that registration and lets you withdraw it."
            )
            % {"email": fields["email"], "event": tournament.name},
            field="email",
        )
    names = [fields["name"]] + ([fields["partner"]] if fields["partner"] else [])
    for who in names:
        taken = (
            active.filter(name__iexact=who).first() or active.filter(partner__iexact=who).first()
        )
        if taken is not None:
            known = taken.name if taken.name.casefold() == who.casefold() else taken.partner
            raise ValidationFailed(
                _("%(name)s is already registered for %(event)s (%(status)s).")
                % {"name": known, "event": tournament.name, "status": taken.get_status_display()},
                field="name" if who == fields["name"] else "partner",
            )
    if fields["acc_number"] and active.filter(acc_number=fields["acc_number"]).exists():
        raise ValidationFailed(
            _("ACC number %(n)s is already registered for %(event)s.")
            % {"n": fields["acc_number"], "event": tournament.name},
            field="acc_number",
        )


def _player(name: str) -> Player:
    found = Player.objects.filter(name__iexact=name).first()
    return found or Player.objects.create(name=name)


def _open_desk(tournament: Tournament) -> RegistrationDesk:
    desk = RegistrationDesk.objects.filter(tournament=tournament).first()
    if desk is None or not desk.is_open:
        raise Locked(_("Registration for %(event)s is closed.") % {"event": tournament.name})
    if tournament.stage != TournamentStage.REGISTRATION:
        raise Locked(
            _("%(event)s has started: ask the director at the venue.") % {"event": tournament.name}
        )
    return desk


def registration_add(
    *,
    user: Actor,
    tournament: Tournament,
    name: Any,
    email: Any,
    acc_number: Any = "",
    member_status: Any = MemberStatus.MEMBER,
    partner: Any = "",
    partner_wanted: bool = False,
) -> Registration:
    """A player registers from the event's page (anyone may: ``user`` is whoever asks). The
    registration is placed at once (a place or the waiting list) unless the director approves
    each one; the player is sent a confirmation with the link to their own page."""
    fields = registration_check(
        tournament,
        name=name,
        email=email,
        acc_number=acc_number,
        member_status=member_status,
        partner=partner,
        partner_wanted=partner_wanted,
    )
    with transaction.atomic():
        tournament = _lock(tournament)
        desk = _open_desk(tournament)
        _duplicate(tournament, fields)
        _promote(user, tournament, desk)  # a place freed elsewhere goes to those waiting first
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    tournament=tournament,
                    player=_player(fields["name"]),
                    token=secrets.token_urlsafe(32),
                    **fields,
                )
        except IntegrityError:  # the lock makes this a guard, not a path
            raise ValidationFailed(
                _("%(name)s is already registered for %(event)s.")
                % {"name": fields["name"], "event": tournament.name}
            ) from None
        audit_log(
            actor=user,
            action=AuditAction.REGISTRATION_ADD,
            obj=registration,
            after={k: v for k, v in fields.items() if k != "email"},
        )
        if not desk.needs_approval:
            _place(user, tournament, desk, registration)
        _tell(events.REGISTRATION_RECEIVED, registration, "received")
    _changed(tournament.pk)
    return registration


# --- Places, the waiting list -------------------------------------------------------------------


def _room(tournament: Tournament, desk: RegistrationDesk) -> bool:
    return desk.capacity == 0 or places_taken(tournament) < desk.capacity


def _fee(tournament: Tournament) -> int:
    purse = Purse.objects.filter(tournament=tournament).first()
    return purse.entry_fee if purse is not None else 0


def _entrant_name(registration: Registration) -> str:
    if registration.partner:
        return f"{registration.name} & {registration.partner}"
    return registration.name


def _enter(user: Actor, tournament: Tournament, registration: Registration) -> None:
    """The entrant a confirmed place is (a doubles player wanting a partner: none yet)."""
    if tournament.is_partnership and not registration.partner:
        return
    name = _entrant_name(registration)
    players = [registration.name] + ([registration.partner] if registration.partner else [])
    again = Entrant.objects.filter(
        tournament=tournament, name=name, status=EntrantStatus.WITHDRAWN
    ).first()
    if again is not None:  # registered, withdrew, registered again: the same entry comes back
        Registration.objects.filter(entrant=again).update(entrant=None)
        again.status = EntrantStatus.REGISTERED
        again.save(update_fields=["status"])
        entrant = again
    else:
        system = Trusted(actor_of(user), "registration from the event's page")
        entrant = entrant_register(
            user=system,
            tournament=tournament,
            name=name,
            players=[registration.player, *players[1:]],
        )
    registration.entrant = entrant
    registration.fee_owed = _fee(tournament)
    _remember_member(user, tournament, registration)


def _remember_member(user: Actor, tournament: Tournament, registration: Registration) -> None:
    """A club's event: a player new to the club is kept on its roster with the ACC number and
    standing they registered with (the director edits them at ``/direct/``); one the club
    already knows keeps what the club has, and a number another member holds is left out."""
    club = tournament.club
    if club is None or ClubMember.objects.filter(club=club, player=registration.player).exists():
        return
    number = registration.acc_number
    if number and ClubMember.objects.filter(club=club, acc_number=number).exists():
        number = ""
    member_store(
        user=Trusted(actor_of(user), "registration from the event's page"),
        club=club,
        player=registration.player,
        acc_number=number,
        status=registration.member_status,
    )


def _place(
    user: Actor, tournament: Tournament, desk: RegistrationDesk, registration: Registration
) -> None:
    first_come = not Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.WAITLISTED
    ).exists()
    if first_come and _room(tournament, desk):
        registration.status = RegistrationStatus.ACCEPTED
        registration.queued_at = None
        _enter(user, tournament, registration)
    else:
        registration.status = RegistrationStatus.WAITLISTED
        registration.queued_at = timezone.now()
    registration.save()


def _promote(user: Actor, tournament: Tournament, desk: RegistrationDesk) -> list[Registration]:
    """While there is room, the first on the waiting list takes a place and is told."""
    if tournament.stage != TournamentStage.REGISTRATION:
        return []
    promoted = []
    for registration in waiting_list(tournament):
        if not _room(tournament, desk):
            break
        registration.status = RegistrationStatus.ACCEPTED
        registration.queued_at = None
        _enter(user, tournament, registration)
        registration.save()
        audit_log(
            actor=user,
            action=AuditAction.REGISTRATION_PROMOTE,
            obj=registration,
            after={"name": registration.name},
        )
        _tell(events.REGISTRATION_PROMOTED, registration, "promoted")
        promoted.append(registration)
    return promoted


def standing_of(registration: Registration) -> dict[str, Any]:
    """Where the registration stands, said in the reader's language when a message goes."""
    if registration.status == RegistrationStatus.WAITLISTED:
        ahead = Registration.objects.filter(
            tournament_id=registration.tournament_id,
            status=RegistrationStatus.WAITLISTED,
            queued_at__lt=registration.queued_at,
        ).count()
        return said(gettext_noop("number %(n)s on the waiting list"), n=ahead + 1)
    if registration.status == RegistrationStatus.ACCEPTED:
        return said(gettext_noop("your place is confirmed"))
    if registration.status == RegistrationStatus.PENDING:
        return said(gettext_noop("waiting for the director's approval"))
    return said(gettext_noop("no longer registered"))


def _tell(event: Any, registration: Registration, what: str) -> None:
    tournament = registration.tournament
    club = tournament.club
    context = {
        "league": club.name if club is not None else tournament.name,
        "event": tournament.name,
        "date": tournament.date,
        "standing": standing_of(registration),
        "fee": dollars(registration.fee_owed),
        "token": registration.token,
        "registration_id": registration.pk,
    }
    notify(event, [registration.player_id], context, key=f"registration:{registration.pk}:{what}")


# --- The director's answers, in bulk -----------------------------------------------------------


def _rows(
    tournament: Tournament, registrations: Sequence[Registration | int]
) -> list[Registration]:
    ids = [r if isinstance(r, int) else r.pk for r in registrations]
    if not ids:
        raise ValidationFailed(_("Tick at least one player first."), field="registrations")
    rows = list(
        Registration.objects.select_for_update()
        .filter(pk__in=ids, tournament=tournament)
        .order_by("created_at", "pk")
    )
    if len(rows) != len(set(ids)):
        raise ValidationFailed(
            _("Some of the players ticked are not registered for %(event)s.")
            % {"event": tournament.name},
            field="registrations",
        )
    return rows


def registrations_decide(
    *,
    user: Actor,
    tournament: Tournament,
    registrations: Sequence[Registration | int],
    accept: bool,
) -> list[Registration]:
    """Accept (a place, or the waiting list when full) or refuse every registration ticked, in
    the order they came; all or none: one that cannot be answered refuses the lot, saying
    whose. Refused players are told; accepted ones too."""
    _require_director(user, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        desk = RegistrationDesk.objects.filter(tournament=tournament).first()
        if desk is None:
            raise Locked(_("%(event)s takes no registrations.") % {"event": tournament.name})
        if tournament.stage != TournamentStage.REGISTRATION:
            raise Locked(_("%(event)s has started.") % {"event": tournament.name})
        rows = _rows(tournament, registrations)
        answerable = (
            (RegistrationStatus.PENDING,)
            if accept
            else (RegistrationStatus.PENDING, RegistrationStatus.WAITLISTED)
        )
        for row in rows:
            if row.status not in answerable:
                raise Locked(
                    _(
                        "%(name)s is not waiting for an answer (%(status)s): "
                        "untick them and try again."
                    )
                    % {"name": row.name, "status": row.get_status_display()}
                )
        if accept:
            _promote(user, tournament, desk)  # those waiting before the ones accepted now
        for row in rows:
            before = row.status
            if accept:
                _place(user, tournament, desk, row)
                _tell(events.REGISTRATION_ANSWERED, row, "answered")
            else:
                row.status = RegistrationStatus.REFUSED
                row.queued_at = None
                row.save()
                _tell(events.REGISTRATION_REFUSED, row, "refused")
            audit_log(
                actor=user,
                action=AuditAction.REGISTRATION_DECIDE,
                obj=row,
                before=before,
                after=row.status,
            )
    _changed(tournament.pk)
    return rows


# --- Withdrawing --------------------------------------------------------------------------------


def registration_withdraw(
    *, user: Actor, registration: Registration, by_player: bool = False
) -> Registration:
    """The player (from their own page: ``by_player``, the page having checked their link) or
    the director withdraws a registration. A place freed while the event is registering goes
    to the first on the waiting list, who is told."""
    tournament = registration.tournament
    if not by_player:
        _require_director(user, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        row = Registration.objects.select_for_update().get(pk=registration.pk)
        if row.status not in ACTIVE:
            raise Locked(
                _("%(name)s is no longer registered for %(event)s.")
                % {"name": row.name, "event": tournament.name}
            )
        if by_player and tournament.stage != TournamentStage.REGISTRATION:
            raise Locked(
                _("%(event)s has started: tell the director at the venue.")
                % {"event": tournament.name}
            )
        before = row.status
        if row.status == RegistrationStatus.PAIRED and row.paired_with is not None:
            raise Locked(
                _(
                    "%(name)s plays in %(partner)s's entry: that entry withdraws, "
                    "from %(partner)s's page or by the director."
                )
                % {"name": row.name, "partner": row.paired_with.name}
            )
        if row.entrant is not None and row.entrant.status != EntrantStatus.WITHDRAWN:
            entrant_withdraw(
                user=Trusted(actor_of(user), "registration withdrawn"), entrant=row.entrant
            )
        row.status = RegistrationStatus.WITHDRAWN
        row.queued_at = None
        row.save()
        # Players a director paired into this entry withdraw with it.
        Registration.objects.filter(paired_with=row, status=RegistrationStatus.PAIRED).update(
            status=RegistrationStatus.WITHDRAWN
        )
        audit_log(
            actor=user,
            action=AuditAction.REGISTRATION_WITHDRAW,
            obj=row,
            before=before,
            after={"by_player": by_player},
        )
        desk = RegistrationDesk.objects.filter(tournament=tournament).first()
        if before == RegistrationStatus.ACCEPTED and desk is not None:
            _promote(user, tournament, desk)
    _changed(tournament.pk)
    return row


# --- Partners -----------------------------------------------------------------------------------


def registrations_pair(
    *, user: Actor, tournament: Tournament, first: Registration | int, second: Registration | int
) -> Registration:
    """Two players who want a partner become one entry (the first's); the second's place goes
    to the waiting list."""
    _require_director(user, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        rows = _rows(tournament, [first, second])
        if len(rows) != 2:
            raise ValidationFailed(_("Pick two different players to pair."), field="registrations")
        a, b = rows
        for row in rows:
            if not row.partner_wanted or row.status not in (
                RegistrationStatus.ACCEPTED,
                RegistrationStatus.PENDING,
                RegistrationStatus.WAITLISTED,
            ):
                raise Locked(
                    _("%(name)s is not a player waiting for a partner.") % {"name": row.name}
                )
        desk = RegistrationDesk.objects.get(tournament=tournament)
        # The entry keeps the better of the two standings: a place if either holds one.
        if b.status == RegistrationStatus.ACCEPTED and a.status != RegistrationStatus.ACCEPTED:
            a, b = b, a
        a.partner, a.partner_wanted = b.name, False
        if a.status == RegistrationStatus.ACCEPTED:
            _enter(user, tournament, a)
        a.save()
        b.status, b.partner, b.partner_wanted, b.paired_with = (
            RegistrationStatus.PAIRED,
            a.name,
            False,
            a,
        )
        b.queued_at = None
        b.save()
        audit_log(
            actor=user,
            action=AuditAction.REGISTRATION_PAIR,
            obj=a,
            after={"first": a.name, "second": b.name},
        )
        _promote(user, tournament, desk)
    _changed(tournament.pk)
    return a


# --- Fees and check-in --------------------------------------------------------------------------


def _entrants_of(rows: list[Registration]) -> list[Entrant]:
    for row in rows:
        if row.status != RegistrationStatus.ACCEPTED or row.entrant is None:
            raise Locked(
                _("%(name)s has no confirmed entry (%(status)s): untick them and try again.")
                % {"name": row.name, "status": row.get_status_display()}
            )
    return [row.entrant for row in rows if row.entrant is not None]


def registrations_paid(
    *, user: Actor, tournament: Tournament, registrations: Sequence[Registration | int]
) -> list[LedgerEntry]:
    """The director records the entry fees of the players ticked as paid: one fee each in the
    event's ledger (a fee already there is left as it is)."""
    _require_director(user, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        rows = _rows(tournament, registrations)
        made = fees_collect(user=user, tournament=tournament, entrants=_entrants_of(rows))
    return made


def registrations_check_in(
    *, user: Actor, tournament: Tournament, registrations: Sequence[Registration | int]
) -> list[Entrant]:
    """Check in the players ticked, as they arrive (the event's own check-in)."""
    _require_director(user, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        rows = _rows(tournament, registrations)
        return [entrant_check_in(user=user, entrant=e) for e in _entrants_of(rows)]
