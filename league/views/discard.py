"""The discard analyser's page: the cards dealt in, every discard ranked out (the maths is
``scoring.discard``; the form reads and checks the request)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.forms import DiscardForm
from scoring.discard import analyse_discards
from scoring.variants import VARIANTS

DEALT_COUNTS = json.dumps({key: v.dealt for key, v in VARIANTS.items()})


def discard(request: HttpRequest) -> HttpResponse:
    asked = "cards" in request.GET
    form = DiscardForm(request.GET if asked else None)
    rows = []
    own_crib = True
    if asked and form.is_valid():
        data = form.cleaned_data
        own_crib = data["own_crib"]
        ranked = analyse_discards(data["dealt"], variant=data["variant"], own_crib=own_crib)
        best = ranked[0].total
        rows = [
            {
                "discard": r.discard_text,
                "keep": r.keep_text,
                "hand": r.hand,
                "crib": r.crib,
                "total": r.total,
                "cost": round(best - r.total, 9),
                "high": 100 * r.hand_12_plus,
                "zero": 100 * r.hand_zero,
            }
            for r in ranked
        ]
    context = {"form": form, "rows": rows, "own_crib": own_crib, "dealt_counts": DEALT_COUNTS}
    return render(request, "league/discard.html", context)
