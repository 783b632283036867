"""URL routes: the public pages, the API, the judges' admin panel and the health check."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from league.views.health import healthz, ping

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include("league.api.urls")),
    path("healthz", healthz, name="healthz"),
    path("ping", ping, name="ping"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("league.urls")),
]
