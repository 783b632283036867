"""What every competition's API shares: the shape of a refusal, the strict reading of request
bodies, the list pages and read-only view set, and what the requesting user may write."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, viewsets
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from league.kernel.entries import DEAL_FIELDS
from league.kernel.errors import ValidationFailed
from league.kernel.parsers import BoundedJSONParser
from league.kernel.permissions import Action, can, warm_permissions

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# --- Refusals and request bodies -----------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    """Every refusal: a sentence for the person at the table and, where it helps, the field."""

    detail = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="Absent on DRF's own refusals (malformed JSON, not signed in)."
    )
    field = serializers.CharField(required=False)
    refusal = serializers.CharField(
        required=False,
        help_text="Why an action was refused, as a stable code (permissions.refusal()): "
        "not_players_enter, game_over, already_vouched, ...",
    )
    current = serializers.DictField(required=False, help_text="How the game stands now (409).")


# --- Request bodies ------------------------------------------------------------------------------
# Strict: JSON integers only (not true, not 1.0, not "1"), texts only where a text is asked, and
# no unknown fields. The deal itself is read by the one deal reader (league.kernel.entries).


class StrictIntegerField(serializers.IntegerField):
    """A whole number as JSON writes it; ``true``, ``1.0`` and ``"1"`` are refused."""

    default_error_messages = {"invalid": gettext_lazy("This must be a whole number, like 12.")}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """Text only: a number or a list is refused rather than turned into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


_KEY = gettext_lazy("The entry key is a short text made by your device, like a UUID.")
KEY_MESSAGES: dict[str, StrOrPromise] = {
    "invalid": _KEY,
    "max_length": _KEY,
    "min_length": _KEY,
    "blank": _KEY,
}


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know (a misspelt field must not be silently ignored)."""

    allow_extra: tuple[str, ...] = ()

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise serializers.ValidationError({"non_field_errors": [_("Send a JSON object.")]})
        unknown = sorted(set(data) - set(self.fields) - set(self.allow_extra))
        if unknown:
            raise serializers.ValidationError(
                {unknown[0]: [_("Unknown field %(name)s.") % {"name": unknown[0]}]}
            )
        return super().to_internal_value(data)


def parse(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request body read by ``serializer_class``; the first problem is a refusal naming its
    field, shaped like every other refusal (``{"detail", "field"}``)."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return dict(serializer.validated_data)
    field, problems = next(iter(serializer.errors.items()))
    while isinstance(problems, dict):  # nested: report the innermost field
        inner, problems = next(iter(problems.items()))
        field = f"{field}.{inner}"
    message = problems[0] if isinstance(problems, list) and problems else str(problems)
    if isinstance(message, dict):
        message = next(iter(message.values()))[0]
    raise ValidationFailed(str(message), field=None if field == "non_field_errors" else field)


#: The fields a deal request may name: its envelope and the one deal shape.
DEAL_REQUEST_FIELDS = frozenset({"key", "number", *DEAL_FIELDS})
_SURROGATES = ProhibitSurrogateCharactersValidator()


def read_deal_request(data: Any) -> tuple[str | None, int | None]:
    """The ``key`` and ``number`` of a deal request (``DealRequestSerializer`` is its schema),
    read here in one function rather than by a serializer built for every deal, with the
    serializer's refusals word for word: a body that is not an object, an unknown field (the
    first in alphabetical order), then the key (text of 1 to 64 characters once trimmed, as
    DRF trims it), then the number (a JSON whole number from 1 to 999). The deal's own fields
    go, untouched, to the one deal reader (``league.kernel.entries.read_deal``)."""
    if data is None:  # a body of JSON null: DRF's own words, as the serializer said them
        raise ValidationFailed("No data provided")
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("Send a JSON object."))
    unknown = sorted(set(data) - DEAL_REQUEST_FIELDS)
    if unknown:
        raise ValidationFailed(
            _("Unknown field %(name)s.") % {"name": unknown[0]}, field=unknown[0]
        )
    key = data.get("key")
    if key is not None:
        if not isinstance(key, str) or not 0 < len(key.strip()) <= 64:
            raise ValidationFailed(str(KEY_MESSAGES["invalid"]), field="key")
        key = key.strip()
        try:
            _SURROGATES(key)  # a lone surrogate (JSON "\ud800") cannot be stored
        except serializers.ValidationError as exc:
            said = exc.detail[0] if isinstance(exc.detail, list) else exc.detail
            raise ValidationFailed(str(said), field="key") from None
    number = data.get("number")
    if number is not None:
        if type(number) is not int:
            raise ValidationFailed(
                str(StrictIntegerField.default_error_messages["invalid"]), field="number"
            )
        limits = serializers.IntegerField.default_error_messages
        if number < 1:
            raise ValidationFailed(limits["min_value"].format(min_value=1), field="number")
        if number > 999:
            raise ValidationFailed(limits["max_value"].format(max_value=999), field="number")
    return key, number


REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="The input breaks a rule; nothing stored."),
    403: OpenApiResponse(ErrorSerializer, description="Your role does not allow this."),
    409: OpenApiResponse(
        ErrorSerializer, description="The game moved on; `current` says how it stands now."
    ),
}


# --- Lists and who may write -------------------------------------------------------------------


def write_access(request: Request, action: Action, obj: Any) -> bool:
    """``can()`` for the requesting user, with what it needs of them (groups, teams) fetched on
    the first call: a list then costs the same queries whichever rows it holds."""
    warm_permissions(request.user)
    return can(request.user, action, obj)


class Pages(LimitOffsetPagination):
    """``?limit=&offset=``; a limit above ``max_limit`` gets ``max_limit`` rows, never a database
    error (a limit beyond 64 bits made SQLite and PostgreSQL fail). 200 rows keep a list page
    under 200 ms at 1,024 teams (bench/pages.py); the schema says so."""

    max_limit = 200

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["description"] = (
                    f"Rows per page: {self.default_limit} unless asked, at most {self.max_limit} "
                    f"(a larger limit gets {self.max_limit})."
                )
                parameter["schema"] = {
                    **parameter["schema"],
                    "minimum": 1,
                    "maximum": self.max_limit,
                    "default": self.default_limit,
                }
        return parameters


class ReadOnlyViewSet(viewsets.ReadOnlyModelViewSet):
    """Lists use ``list_serializer_class`` over ``list_queryset`` when set: flat rows, fewer
    joins; one object (``retrieve``) and the actions keep the full serializer."""

    permission_classes = [IsAuthenticatedOrReadOnly]  # the service then checks the role
    pagination_class = Pages
    parser_classes = [BoundedJSONParser]
    filter_backends = [filters.DjangoFilterBackend]
    list_serializer_class: type[serializers.BaseSerializer] | None = None
    list_queryset: QuerySet[Any] | None = None

    def get_serializer_class(self) -> type[serializers.BaseSerializer]:
        if self.action == "list" and self.list_serializer_class is not None:
            return self.list_serializer_class
        return super().get_serializer_class()

    def get_queryset(self) -> QuerySet[Any]:
        if self.action == "list" and self.list_queryset is not None:
            return self.list_queryset.all()
        return super().get_queryset()
