"""API routes: the league's and the tournaments' resources, a token for apps, and the OpenAPI
schema and docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from league.api import tournament_views, views
from league.api.tokens import TokenView

router = DefaultRouter()
router.register("leagues", views.LeagueViewSet)
router.register("seasons", views.SeasonViewSet)
router.register("teams", views.TeamViewSet)
router.register("weeks", views.WeekViewSet)
router.register("matches", views.MatchViewSet)
router.register("games", views.GameViewSet)
router.register("deals", views.DealViewSet)
router.register("disputes", views.DisputeViewSet)
router.register("tournaments", tournament_views.TournamentViewSet)
router.register("tournament-tables", tournament_views.TableViewSet)
router.register("playoff-matches", tournament_views.PlayoffMatchViewSet)

app_name = "api"

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("", include(router.urls)),
]
