"""The league's API resources; ``config.api_urls`` puts them on the project's one router."""

from rest_framework.routers import DefaultRouter

from league.api import views


def register(router: DefaultRouter) -> None:
    """Add the league's resources to the project's API router."""
    router.register("leagues", views.LeagueViewSet)
    router.register("seasons", views.SeasonViewSet)
    router.register("teams", views.TeamViewSet)
    router.register("weeks", views.WeekViewSet)
    router.register("matches", views.MatchViewSet)
    router.register("games", views.GameViewSet)
    router.register("deals", views.DealViewSet)
    router.register("disputes", views.DisputeViewSet)
    router.register("postponements", views.PostponementViewSet)
