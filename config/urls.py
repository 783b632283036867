"""URL routes: the public pages, the API, the judges' admin panel and the health check."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext as _
from django.views import defaults

from league.views.health import healthz, metrics, ping, readyz


def favicon(request: HttpRequest) -> HttpResponse:
    """Pages that name no icon (the admin's, the API's) make the browser ask for this one. Not
    a permanent redirect: in production the icon's address carries its hash, which a deploy
    that changes the icon changes."""
    return HttpResponseRedirect(static("icons/peg.svg"))


urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include("config.api_urls")),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics, name="metrics"),
    path("ping", ping, name="ping"),
    path("favicon.ico", favicon),
    path("i18n/", include("django.conf.urls.i18n")),
    path("tournaments/", include("tournaments.urls")),
    path("direct/", include("tournaments.direct_urls")),
    path("", include("tournaments.registration_urls")),  # event pages, registration
    path("federation/", include("federation.urls")),
    path("team-leagues/", include("teamleagues.urls")),
    path("", include("league.urls")),
]


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: JSON under /api/, like every other API answer; templates/404.html elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500 with no traceback (DEBUG is off): JSON under /api/, templates/500.html elsewhere."""
    if request.path.startswith("/api/"):
        message = _("Something went wrong on the server. Try again in a moment.")
        return JsonResponse({"detail": message, "code": "server_error"}, status=500)
    return defaults.server_error(request)


handler404 = page_not_found
handler500 = server_error
