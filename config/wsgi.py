"""WSGI entry point (gunicorn config.wsgi).

gunicorn preloads this module in its master (``preload_app``, deploy/gunicorn.conf.py) and
forks the workers from it, so what :func:`warm_up` loads here is loaded once and shared: no
worker's first request (a captain's deal, at a venue whose workers just restarted) waits for
the URLconf's imports or the translation catalogues. It touches no database or cache: the
master holds no connection its workers would share.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def warm_up() -> None:
    """Import every view (through the URLconf) and the cache's and the broker's clients, and
    load each language's catalogue."""
    import kombu  # noqa: F401 (the broker's client, imported by the first task queued)
    import redis  # noqa: F401 (Django's Redis cache imports it on its first use)
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 (imports config.urls and every view it names)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Standings")


if os.environ.get("PEGBOARD_WARM_UP", "1") != "0":
    warm_up()
