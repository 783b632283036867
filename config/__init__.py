"""The Django project: settings from the environment, urls, the Celery app, wsgi and asgi."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
