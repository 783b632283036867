"""The director's workspace: ``/direct/``, a club's page, and a night on one screen."""

from django.urls import path

from tournaments import direct_views

app_name = "direct"

urlpatterns = [
    path("", direct_views.home, name="home"),
    path("clubs/<int:pk>/", direct_views.club, name="club"),
    path("nights/<int:pk>/", direct_views.night, name="night"),
]
