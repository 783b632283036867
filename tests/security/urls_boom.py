"""The site's URLs plus two that fail, to see what a visitor is shown when the server breaks."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config import urls as site


class Boom(Exception):
    pass


SECRET = "db-password=hunter2 in /srv/pegboard/league/services/games.py"


def boom(request: HttpRequest) -> HttpResponse:
    raise Boom(SECRET)


urlpatterns = [path("boom/", boom), path("api/boom/", boom), *site.urlpatterns]
handler404 = site.handler404
handler500 = site.handler500
