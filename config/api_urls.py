"""API routes: both competitions' resources on one router (one browsable root, one schema), a
token for apps, and the OpenAPI schema and docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from league.api import discard
from league.api import urls as league_api
from league.api.tokens import TokenView
from tournaments.api import urls as tournaments_api

router = DefaultRouter()
league_api.register(router)
tournaments_api.register(router)

app_name = "api"

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("discard/", discard.discard, name="discard"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("", include(router.urls)),
]
