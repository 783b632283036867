"""The members' season totals (:class:`~federation.models.MemberSeason`) rebuilt from the
points rows: called inside the services' transactions when results are approved or recomputed,
and by the migration that first fills them. ``rows_model`` and ``totals_model`` default to the
app's models (a migration hands its historical ones).

The rows that earned something are read once and summed here (nationally, per region, per
club): one pass, quicker than three grouped counts of distinct events in the database."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q


def retotal(
    season: int,
    acc_numbers: Iterable[str] | None = None,
    *,
    rows_model: Any = None,
    totals_model: Any = None,
) -> int:
    """Rebuild the season's totals (of ``acc_numbers`` only, if given); returns rows written."""
    if rows_model is None or totals_model is None:
        from federation.models import MemberSeason, PointsRow

        rows_model, totals_model = PointsRow, MemberSeason
    rows = rows_model.objects.filter(Q(points__gt=0) | Q(gr_points__gt=0), season=season)
    rows = rows.exclude(acc_number="")
    totals = totals_model.objects.filter(season=season)
    if acc_numbers is not None:
        numbers = sorted(set(acc_numbers) - {""})
        rows = rows.filter(acc_number__in=numbers)
        totals = totals.filter(acc_number__in=numbers)
    totals.delete()
    # (scope, region, club, acc_number) -> [points, gr_points, events, nights, name]
    sums: dict[tuple[str, int | None, int | None, str], list[Any]] = {}
    fields = ("acc_number", "region_id", "club_id", "tournament_id", "points", "gr_points", "name")
    for number, region, club, event, points, gr, name in rows.values_list(*fields).iterator(
        chunk_size=5000
    ):
        keys = [("national", None, None, number)]
        if region is not None:
            keys.append(("region", region, None, number))
        if club is not None:
            keys.append(("club", None, club, number))
        for key in keys:
            line = sums.setdefault(key, [0, 0, set(), set(), name])
            line[0] += points
            line[1] += gr
            if points:
                line[2].add(event)
            if gr:
                line[3].add(event)
            line[4] = max(line[4], name)
    made = [
        totals_model(
            season=season,
            scope=scope,
            region_id=region,
            club_id=club,
            acc_number=number,
            name=name,
            points=points,
            events=len(events),
            gr_points=gr,
            nights=len(nights),
        )
        for (scope, region, club, number), (points, gr, events, nights, name) in sums.items()
    ]
    totals_model.objects.bulk_create(made, batch_size=2000)
    return len(made)
