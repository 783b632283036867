"""``GET /api/discard/``: the discard analyser for apps and independent checks, anyone may ask.

The same form as the page reads the request (one reading of the cards and the crib's owner);
the maths is ``scoring.discard``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from league.forms import DiscardForm
from scoring.discard import analyse_discards

ROW_FIELDS: dict[str, serializers.Field[Any, Any, Any, Any]] = {
    "discard": serializers.ListField(child=serializers.CharField()),
    "keep": serializers.ListField(child=serializers.CharField()),
    "hand": serializers.FloatField(),
    "crib": serializers.FloatField(help_text="signed: + your side's crib, - the other's"),
    "total": serializers.FloatField(),
    "hand_12_plus": serializers.FloatField(),
    "hand_zero": serializers.FloatField(),
}


@extend_schema(
    parameters=[
        OpenApiParameter(
            "cards", OpenApiTypes.STR, required=True, description="e.g. 5H 5D JS 4C KD 9S"
        ),
        OpenApiParameter("variant", OpenApiTypes.STR, description="singles-121 (default), ..."),
        OpenApiParameter("crib", OpenApiTypes.STR, description="mine (default), partner, theirs"),
    ],
    responses={
        200: inline_serializer(
            "DiscardAnalysis",
            {
                "variant": serializers.CharField(),
                "own_crib": serializers.BooleanField(),
                "discards": inline_serializer("DiscardRow", ROW_FIELDS, many=True),
            },
        )
    },
)
@api_view(["GET"])
@permission_classes([AllowAny])
def discard(request: Request) -> Response:
    """Every discard of the cards dealt, best first, by exact expected points (pegging left out;
    the other players' discards drawn uniformly from the unseen cards)."""
    form = DiscardForm(request.query_params)
    if not form.is_valid():
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        first = next(iter(errors.values()))[0]
        return Response({"detail": first or _("Check the cards."), "errors": errors}, status=400)
    clean = form.cleaned_data
    rows = analyse_discards(clean["dealt"], variant=clean["variant"], own_crib=clean["own_crib"])
    return Response(
        {
            "variant": clean["variant"],
            "own_crib": clean["own_crib"],
            "discards": [r.as_dict() for r in rows],
        }
    )
