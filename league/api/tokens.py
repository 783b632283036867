"""``/api/auth/token/``: POST a name and password for a token (a new one once it has expired);
DELETE, signed in with the token, to sign the app out."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from league.kernel.parsers import PARSERS
from league.lockout import remember_device
from league.services.tokens import token_expires, token_issue, token_revoke

TokenSerializer = inline_serializer(
    "Token",
    {"token": serializers.CharField(), "expires": serializers.DateTimeField()},
)


class TokenView(ObtainAuthToken):
    parser_classes = PARSERS  # ObtainAuthToken names its own, with DRF's unbounded JSON

    @extend_schema(request=AuthTokenSerializer, responses={200: TokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A token for the name and password given, valid for ``API_TOKEN_DAYS`` days."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = token_issue(user=serializer.validated_data["user"])
        response = Response({"token": token.key, "expires": token_expires(token).isoformat()})
        remember_device(response, serializer.validated_data["user"], request)
        return response

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Signed out: the token no longer works.")},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Revoke the signed-in user's token: every app using it is signed out."""
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Sign in to sign out."))
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
