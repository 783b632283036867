"""The members' season totals (:class:`~federation.models.MemberSeason`) rebuilt from the
points rows: called inside the services' transactions when results are approved or recomputed,
and by the migration that first fills them. ``rows_model`` and ``totals_model`` default to the
app's models (a migration hands its historical ones)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Max, Q, Sum


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
    rows = rows_model.objects.filter(season=season).exclude(acc_number="")
    totals = totals_model.objects.filter(season=season)
    if acc_numbers is not None:
        numbers = sorted(set(acc_numbers) - {""})
        rows = rows.filter(acc_number__in=numbers)
        totals = totals.filter(acc_number__in=numbers)
    totals.delete()
    sums = {
        "points_sum": Sum("points"),
        "gr_sum": Sum("gr_points"),
        "events_n": Count("tournament", distinct=True, filter=Q(points__gt=0)),
        "nights_n": Count("tournament", distinct=True, filter=Q(gr_points__gt=0)),
        "name_max": Max("name"),
    }
    made = []
    for scope, keys, only in (
        ("national", (), {}),
        ("region", ("region",), {"region__isnull": False}),
        ("club", ("club",), {"club__isnull": False}),
    ):
        grouped = rows.filter(**only).values("acc_number", *keys).annotate(**sums)
        for r in grouped.order_by():
            if not (r["points_sum"] or r["gr_sum"]):
                continue
            made.append(
                totals_model(
                    season=season,
                    scope=scope,
                    region_id=r.get("region"),
                    club_id=r.get("club"),
                    acc_number=r["acc_number"],
                    name=r["name_max"],
                    points=r["points_sum"] or 0,
                    events=r["events_n"],
                    gr_points=r["gr_sum"] or 0,
                    nights=r["nights_n"],
                )
            )
    totals_model.objects.bulk_create(made, batch_size=2000)
    return len(made)
