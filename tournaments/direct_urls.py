"""The director's workspace: ``/direct/``, a club's page, and a night on one screen."""

from django.urls import path

from tournaments.views import direct, direct_settings, direct_weekends

app_name = "direct"

urlpatterns = [
    path("", direct.home, name="home"),
    path("clubs/<int:pk>/", direct.club, name="club"),
    path("nights/<int:pk>/", direct.night, name="night"),
    path("nights/<int:pk>/settings/", direct_settings.night_settings, name="settings"),
    path("weekends/", direct_weekends.weekends, name="weekends"),
    path("weekends/<int:pk>/", direct_weekends.weekend, name="weekend"),
    path("nights/<int:pk>/floor/", direct.floor, name="floor"),
]
