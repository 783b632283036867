"""The tournaments' API resources; ``config.api_urls`` puts them on the project's one router."""

from rest_framework.routers import DefaultRouter

from tournaments.api import views


def register(router: DefaultRouter) -> None:
    """Add the tournaments' resources to the project's API router."""
    router.register("tournaments", views.TournamentViewSet)
    router.register("tournament-tables", views.TableViewSet)
    router.register("playoff-matches", views.PlayoffMatchViewSet)
    router.register("clubs", views.ClubViewSet)
