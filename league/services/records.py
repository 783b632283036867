"""The records kept as results count: the skunks, streaks, milestones, special hands and the
head-to-head picker's players of every scope (all seasons, and each public season), stored in
``RecordsSnapshot`` rows so a records page reads one row instead of every game ever played.

They are only a cache: each row carries the fingerprint of what it was computed from (the
public seasons and their results versions, ``records.records_fingerprint``). A result changed,
corrected or voided moves its season's results version after its commit, a season published
or hidden changes the public seasons, so the next read finds the fingerprint no longer theirs
and rebuilds every scope at once (:func:`records_rebuild`); the worker rebuilds after each
result (``league.tasks.recompute_standings``) so visitors rarely pay for it, and
``manage.py rebuild_records`` does it on demand. A player's new name forgets them
(:func:`records_forget`): names are stored with the figures."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction

from league.models import RecordsSnapshot, Season
from league.selectors import records

log = logging.getLogger(__name__)

PARTS = ("skunks", "streaks", "milestones", "hands", "picker")


def _public() -> list[Season]:
    return list(records.public_seasons())


def records_rebuild(*, seasons: Sequence[Season] | None = None) -> dict[str, dict[str, Any]]:
    """Compute every scope's records from the games and store them (one transaction),
    replacing what was stored; return them. ``seasons``: the public seasons, read by the
    caller before (their versions are what the figures are stamped with)."""
    public = _public() if seasons is None else list(seasons)
    fingerprint = records.records_fingerprint(public)
    computed = records.records_compute(s.pk for s in public)
    rows = [
        RecordsSnapshot(
            scope=scope,
            season_id=None if scope == records.ALL else int(scope.split(":")[1]),
            fingerprint=fingerprint,
            **{part: data[part] for part in PARTS},
        )
        for scope, data in computed.items()
    ]
    try:
        with transaction.atomic():
            RecordsSnapshot.objects.all().delete()
            RecordsSnapshot.objects.bulk_create(rows)
    except IntegrityError:  # another rebuild stored the same figures first
        log.info("records rebuilt twice at once; the other copy kept")
    return computed


def records_stored(
    parts: Sequence[str], *, season: Season | None, seasons: Sequence[Season]
) -> dict[str, Any]:
    """``parts`` (of ``PARTS``) of the stored records of ``season`` (of every season without
    one), rebuilt first if what is stored is not of the public ``seasons`` as they are now
    (read by the caller, who shows them on the page). One query when fresh."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"not a part of the records: {sorted(unknown)}")
    scope = records.scope_of(season)
    stored = RecordsSnapshot.objects.filter(scope=scope).values_list("fingerprint", *parts).first()
    if stored is not None and stored[0] == records.records_fingerprint(seasons):
        return dict(zip(parts, stored[1:], strict=True))
    computed = records_rebuild(seasons=seasons).get(scope)
    if computed is None:  # not a public season (the caller checks): nothing counts in it
        return {part: {} if part in ("skunks", "streaks") else [] for part in parts}
    return {part: computed[part] for part in parts}


def records_refresh() -> bool:
    """Rebuild the stored records if a result has changed since (the worker's call after every
    result). True when it rebuilt."""
    public = _public()
    stored = RecordsSnapshot.objects.filter(scope=records.ALL).values_list("fingerprint", flat=True)
    if stored.first() == records.records_fingerprint(public):
        return False
    records_rebuild(seasons=public)
    return True


def records_forget() -> None:
    """Drop the stored records (a player's name changed: the names are stored with them); the
    next read rebuilds them."""
    RecordsSnapshot.objects.all().delete()
