"""Reads for registration: the places taken, the waiting list in its order, and who still
owes the entry fee. The services and the pages both read them."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import (
    EntrantStatus,
    LedgerEntry,
    LedgerKind,
    Registration,
    RegistrationDesk,
    RegistrationStatus,
    Tournament,
)


def desk_of(tournament: Tournament) -> RegistrationDesk | None:
    return RegistrationDesk.objects.filter(tournament=tournament).first()


def holding(tournament: Tournament) -> QuerySet[Registration]:
    """The registrations holding a place: accepted, and their entry not withdrawn (a director
    may withdraw the entrant from the night's own page)."""
    return Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.ACCEPTED
    ).exclude(entrant__status=EntrantStatus.WITHDRAWN)


def places_taken(tournament: Tournament) -> int:
    return holding(tournament).count()


def waiting_list(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.WAITLISTED
        ).order_by("queued_at", "pk")
    )


def fees_owed(tournament: Tournament) -> list[Registration]:
    """Every place confirmed here whose entry has no fee in the event's ledger."""
    paid = set(
        LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.FEE).values_list(
            "entrant_id", flat=True
        )
    )
    return [
        r
        for r in holding(tournament).filter(entrant__isnull=False).select_related("entrant")
        if r.entrant_id not in paid and r.fee_owed > 0
    ]
