"""Who stands where around the cut, for the standings page, the TV and the API (no query: it
reads a ``standings_for_tournament`` answer).

Nobody is marked "qualifies" or "first out" before every entrant of the field has a result
(a game or a bye): before that the order is only the draw's. Around the cut (the last
qualifier, the first entrant out and everyone level with either on game points) each entrant
says which tie-break placed them: "placed by games won".
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from contest.tiebreaks import METRICS


def _placed(key: str) -> str:
    """The mark beside an entrant the metric ``key`` placed (the metric's own words,
    ``contest.tiebreaks``), translated; empty where there is none."""
    metric = METRICS.get(key)
    return _(metric.placed) if metric is not None and metric.placed else ""


def marks(data: dict[str, Any]) -> dict[str, Any]:
    """``{"settled", "qualifiers", "first_out", "placed_by"}``: whether every entrant has a
    result; the qualifiers and the first entrant out (empty and None until then); and, for
    each entrant around the cut, the tie-break key that placed it."""
    ranked = data["ranked"]
    qualifiers: list[str] = data["qualifiers"]
    settled = bool(ranked) and all(s.record.played > 0 for s in ranked)
    first_out = None
    if qualifiers:
        inside = set(qualifiers)
        for i, s in enumerate(ranked):
            if i and s.record.entrant not in inside:
                first_out = s.record.entrant
                break
    placed_by: dict[str, str] = {}
    if qualifiers:
        points = {s.record.entrant: s.record.game_points for s in ranked}
        around = {points[qualifiers[-1]]}
        if first_out is not None:
            around.add(points[first_out])
        for s in ranked:
            if s.record.game_points in around and _placed(s.decided_by):
                placed_by[s.record.entrant] = s.decided_by
    return {
        "settled": settled,
        "qualifiers": qualifiers if settled else [],
        "first_out": first_out if settled else None,
        "placed_by": placed_by if settled else {},
    }


def rows(data: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The standings rows with ``qualifies``, ``first_out`` and ``placed_by`` (words), and the
    marks they come from."""
    cut = marks(data)
    inside = set(cut["qualifiers"])
    out = [
        {
            **row,
            "qualifies": row["entrant"] in inside,
            "first_out": row["entrant"] == cut["first_out"],
            "placed_by": _placed(cut["placed_by"].get(row["entrant"], "")),
        }
        for row in data["standings"]
    ]
    return out, cut
